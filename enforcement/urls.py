from django.urls import path

from jobs.exports import export_paths

from .views import appeals, documents, meetings, notices, remedies

app_name = "enforcement"

urlpatterns = [
    path("notices/", notices.notice_list, name="notice_list"),
    *export_paths("notices/export", notices.notice_export, "notice_export"),
    path("case/<int:case_pk>/", notices.case_enforcement, name="case_enforcement"),
    path(
        "case/<int:case_pk>/notices/new/", notices.notice_create, name="notice_create"
    ),
    path("notices/<int:pk>/", notices.notice_detail, name="notice_detail"),
    path("notices/<int:pk>/edit/", notices.notice_edit, name="notice_edit"),
    path("notices/<int:pk>/correct/", notices.notice_correct, name="notice_correct"),
    path("notices/<int:pk>/service/", notices.notice_service, name="notice_service"),
    path(
        "notices/<int:pk>/step/<slug:transition>/",
        notices.notice_step,
        name="notice_step",
    ),
    path(
        "service/<int:pk>/delivery/", notices.service_delivery, name="service_delivery"
    ),
    path("service/<int:pk>/correct/", notices.service_correct, name="service_correct"),
    path("parties/<int:pk>/offenses/", notices.party_offenses, name="party_offenses"),
    path("appeals/", appeals.appeal_list, name="appeal_list"),
    *export_paths("appeals/export", appeals.appeal_export, "appeal_export"),
    path("appeals/new/", appeals.appeal_create, name="appeal_create"),
    path("appeals/hearings.ics", appeals.hearings_ics, name="hearings_ics"),
    path(
        "appeals/hearings/<str:token>.ics",
        appeals.hearings_ical,
        name="hearings_ical",
    ),
    path("appeals/<int:pk>/", appeals.appeal_detail, name="appeal_detail"),
    path("appeals/<int:pk>/packet/", appeals.appeal_packet, name="appeal_packet"),
    path(
        "appeals/<int:pk>/hearing-notice-status.json",
        appeals.hearing_notice_status,
        name="hearing_notice_status",
    ),
    path(
        "appeals/<int:pk>/step/<slug:transition>/",
        appeals.appeal_step,
        name="appeal_step",
    ),
    path(
        "appeals/<int:pk>/record/<slug:record>/",
        appeals.appeal_record,
        name="appeal_record",
    ),
    path("meetings/", meetings.meeting_list, name="meeting_list"),
    path("meetings/board.ics", meetings.board_meetings_ics, name="board_meetings_ics"),
    path("meetings/<int:pk>/", meetings.meeting_detail, name="meeting_detail"),
    path("meetings/<int:pk>/notes/", meetings.meeting_notes, name="meeting_notes"),
    path("appeal-documents/<int:pk>/", appeals.appeal_document, name="appeal_document"),
    path(
        "documents/<slug:source>/<int:pk>/<slug:kind>/issue/",
        documents.document_issue_view,
        name="document_issue",
    ),
    path("signoffs/", remedies.signoff_list, name="signoff_list"),
    path(
        "case/<int:case_pk>/<slug:flow>/new/",
        remedies.remedy_create,
        name="remedy_create",
    ),
    path(
        "remedies/<slug:flow>/<int:pk>/", remedies.remedy_detail, name="remedy_detail"
    ),
    path(
        "remedies/<slug:flow>/<int:pk>/step/<slug:transition>/",
        remedies.remedy_step,
        name="remedy_step",
    ),
    path("remedies/<slug:flow>/<int:pk>/costs/", remedies.cost_add, name="cost_add"),
    path(
        "alternative-items/<int:pk>/complete/",
        remedies.alternative_item_complete,
        name="alternative_item_complete",
    ),
    path(
        "terminations/<int:pk>/reinstatement/",
        remedies.termination_reinstatement,
        name="termination_reinstatement",
    ),
]
