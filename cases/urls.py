from django.urls import path

from jobs.exports import export_paths

from .views import delegations, staff, triage

app_name = "cases"

urlpatterns = [
    path("", staff.dashboard, name="dashboard"),
    path("triage/", triage.triage, name="triage"),
    path(
        "triage/reports/<int:pk>/<slug:outcome>/",
        triage.triage_close,
        name="triage_close",
    ),
    path("delegations/", delegations.delegation_list, name="delegations"),
    path(
        "delegations/<int:pk>/end/",
        delegations.delegation_end_view,
        name="delegation_end",
    ),
    path("cases/", staff.case_list, name="list"),
    *export_paths("cases/export", staff.case_export, "export"),
    path("cases/new/", staff.case_new, name="new"),
    path("cases/<str:number>/", staff.case_detail, name="detail"),
    path("cases/<str:number>/edit/", staff.case_edit, name="edit"),
    path(
        "cases/<str:number>/act/<slug:transition>/",
        staff.case_transition,
        name="transition",
    ),
    path("cases/<str:number>/parties/add/", staff.party_add, name="party_add"),
    path(
        "cases/<str:number>/parties/<int:pk>/edit/",
        staff.party_edit,
        name="party_edit",
    ),
    path("cases/<str:number>/notes/add/", staff.note_add, name="note_add"),
    path(
        "cases/<str:number>/attachments/add/",
        staff.attachment_add,
        name="attachment_add",
    ),
    path(
        "cases/<str:number>/attachments/<int:pk>/",
        staff.attachment_download,
        name="attachment",
    ),
    path(
        "cases/<str:number>/referral-outcome/",
        staff.referral_outcome,
        name="referral_outcome",
    ),
]
