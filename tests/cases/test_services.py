"""Services around the FSM: concurrency, opening from reports, attaching, the
duplicate merge, details, parties, notes and attachments."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection, transaction
from django_fsm import ConcurrentTransition

from cases import services
from cases.models import Case, CaseKind, CaseStatus, Premises
from cases.services import CaseChangedError, Refused
from intake.models import PollutantCategory, Report
from kernel.models import CaseEvent

from .factories import CaseFactory, PartyFactory, ReportFactory

pytestmark = pytest.mark.django_db


# --- two officers at once ---------------------------------------------------------
def test_two_copies_of_the_same_row_one_transition_wins(smo_user):
    """The model's ConcurrentTransitionMixin: the stale copy's save is refused."""
    first = CaseFactory()
    second = Case.objects.get(pk=first.pk)
    first.start_investigation()
    first.save()
    second.closing_reason = "Nothing there"
    second.close_unfounded()
    with pytest.raises(ConcurrentTransition), transaction.atomic():
        second.save()
    assert Case.objects.get(pk=first.pk).status == CaseStatus.INVESTIGATING


def test_second_officer_acting_on_what_they_saw_gets_case_changed(
    smo_user, django_user_model
):
    assert connection.vendor == "postgresql" or pytest.skip("needs PostgreSQL")
    other = django_user_model.objects.create(username="smo2")
    other.groups.add(*smo_user.groups.all())
    mine = CaseFactory()
    theirs = Case.objects.get(pk=mine.pk)
    services.case_run_transition(
        case=mine,
        transition="start_investigation",
        actor=smo_user,
        expected_status=CaseStatus.NEW,
        expected_version=0,
    )
    with pytest.raises(CaseChangedError, match="changed by someone else"):
        services.case_run_transition(
            case=theirs,
            transition="close_unfounded",
            actor=other,
            closing_reason="Rain",
            expected_status=CaseStatus.NEW,
            expected_version=0,
        )
    case = Case.objects.get(pk=mine.pk)
    assert case.status == CaseStatus.INVESTIGATING and case.closing_reason == ""
    assert CaseEvent.objects.filter(case=case, kind="transition").count() == 1


def test_stale_details_edit_is_refused_with_nothing_saved(smo_user):
    case = CaseFactory()
    services.case_update_details(
        case=case, actor=smo_user, expected_version=0, summary="First officer"
    )
    with pytest.raises(CaseChangedError):
        services.case_update_details(
            case=case,
            actor=smo_user,
            expected_version=0,
            summary="Second officer",
            new_premises={"address": "1 Nowhere Lane"},
        )
    assert Case.objects.get(pk=case.pk).summary == "First officer"
    assert not Premises.objects.filter(address="1 Nowhere Lane").exists()


# --- from reports to a case ----------------------------------------------------------
def test_several_reports_become_one_case_with_their_pollutants(smo_user):
    sewage = PollutantCategory.objects.get(code="sewage")
    first, second = ReportFactory(), ReportFactory()
    first.pollutant_categories.add(sewage)
    case = services.case_open_from_reports(
        reports=[second, first],
        actor=smo_user,
        summary="Sewage smell",
        kind=CaseKind.ILLICIT_CONNECTION,
    )
    assert case.number.startswith("MS4-") and case.status == CaseStatus.NEW
    assert set(case.reports.all()) == {first, second}
    assert list(case.pollutant_categories.all()) == [sewage]
    kinds = list(case.events.values_list("kind", flat=True))
    assert kinds == ["opened", "report", "report"]
    assert not Report.objects.filter(case__isnull=True).exists()


def test_a_report_already_triaged_by_someone_else_is_refused(smo_user):
    report = ReportFactory()
    services.case_open_from_reports(reports=[report], actor=smo_user, summary="A")
    with pytest.raises(Refused, match="Already on a case"):
        services.case_open_from_reports(reports=[report], actor=smo_user, summary="B")
    assert Case.objects.count() == 1


def test_attach_report_to_existing_case(smo_user):
    case = CaseFactory(investigating=True)
    report = ReportFactory()
    services.case_attach_reports(case=case, reports=[report], actor=smo_user)
    report.refresh_from_db()
    assert report.case == case and report.attached_at is not None
    assert case.events.filter(kind="report", object_id=report.pk).exists()


def test_case_numbers_count_up_per_year(smo_user):
    a = services.case_open(actor=smo_user, source="phone", summary="a")
    b = services.case_open(actor=smo_user, source="phone", summary="b")
    assert int(b.number[-4:]) == int(a.number[-4:]) + 1


def test_clerk_cannot_open_from_reports(clerk_user):
    with pytest.raises(Refused):
        services.case_open_from_reports(
            reports=[ReportFactory()], actor=clerk_user, summary="x"
        )


# --- duplicate merge ------------------------------------------------------------------
def test_duplicate_merge_moves_reports_and_keeps_both_histories(smo_user):
    keep = services.case_open_from_reports(
        reports=[ReportFactory()], actor=smo_user, summary="Original"
    )
    dup_report = ReportFactory()
    dup = services.case_open_from_reports(
        reports=[dup_report], actor=smo_user, summary="Same thing"
    )
    services.note_add(case=dup, actor=smo_user, text="Spoke to the caller")
    dup_events_before = list(dup.events.values_list("pk", flat=True))

    services.case_merge_duplicate(
        case=dup,
        into=keep,
        actor=smo_user,
        reason="Same premises, same day",
        expected_status=CaseStatus.NEW,
    )
    dup.refresh_from_db()
    assert dup.status == CaseStatus.DUPLICATE and dup.merged_into == keep
    dup_report.refresh_from_db()
    assert dup_report.case == keep
    assert keep.reports.count() == 2
    # The duplicate keeps every event it had, plus the transition and the merge.
    assert set(dup_events_before) <= set(dup.events.values_list("pk", flat=True))
    assert dup.events.filter(kind="merge", summary__contains=keep.number).exists()
    assert keep.events.filter(kind="merge", summary__contains=dup.number).exists()
    assert keep.events.filter(
        kind="report", summary__contains=dup_report.tracking_code
    ).exists()


def test_merge_into_a_duplicate_or_itself_is_refused(smo_user):
    case = CaseFactory()
    with pytest.raises(Refused):
        services.case_merge_duplicate(case=case, into=case, actor=smo_user)
    with pytest.raises(Refused, match="itself a duplicate"):
        services.case_merge_duplicate(
            case=case, into=CaseFactory(duplicate=True), actor=smo_user
        )
    assert Case.objects.get(pk=case.pk).status == CaseStatus.NEW


# --- details, parties, notes, attachments --------------------------------------------------
def test_details_edit_records_each_change_and_new_premises(smo_user):
    case = CaseFactory()
    services.case_update_details(
        case=case,
        actor=smo_user,
        expected_version=0,
        kind=CaseKind.SPILL,
        new_premises={
            "address": "9 Shore Road",
            "tax_map_number": "0200-004.00-01.00-009.000",
            "land_use": "commercial",
        },
    )
    case.refresh_from_db()
    assert case.premises.tax_map_number == "0200-004.00-01.00-009.000"
    assert case.kind == CaseKind.SPILL and case.version == 1
    event = case.events.get(kind="edit")
    assert "Spill or release" in event.detail and "9 Shore Road" in event.detail
    assert case.premises.history.count() == 1  # django-simple-history


def test_party_named_in_two_roles_but_not_twice_in_one(smo_user):
    case = CaseFactory()
    party = PartyFactory(name="Harbor Auto LLC", kind="entity")
    services.case_add_party(case=case, actor=smo_user, role="owner", party=party)
    services.case_add_party(case=case, actor=smo_user, role="operator", party=party)
    with pytest.raises(Refused, match="already named"):
        services.case_add_party(case=case, actor=smo_user, role="owner", party=party)
    assert case.case_parties.count() == 2
    assert case.events.filter(kind="party").count() == 2


def test_public_note_is_a_public_event(smo_user):
    case = CaseFactory()
    services.note_add(case=case, actor=smo_user, text="We are on it", public=True)
    services.note_add(case=case, actor=smo_user, text="Internal")
    assert list(case.events.filter(public=True).values_list("detail", flat=True)) == [
        "We are on it"
    ]


def test_attachment_is_stored_privately_with_its_sha256(smo_user, settings, tmp_path):
    import hashlib

    settings.MEDIA_ROOT = tmp_path
    data = b"%PDF-1.4 lab results"
    upload = SimpleUploadedFile("lab results.pdf", data, "application/pdf")
    attachment = services.attachment_add(
        case=CaseFactory(), actor=smo_user, upload=upload, description="Lab"
    )
    assert attachment.sha256 == hashlib.sha256(data).hexdigest()
    assert attachment.file.name.startswith("private/attachment/")
    assert "lab" not in attachment.file.name
    assert attachment.file.read() == data


def test_referral_outcome_is_recorded_once(smo_user):
    case = CaseFactory(referred=True)
    services.case_record_referral_outcome(
        case=case, actor=smo_user, outcome="DEC issued a consent order"
    )
    with pytest.raises(Refused):
        services.case_record_referral_outcome(
            case=case, actor=smo_user, outcome="again"
        )
    assert Case.objects.get(pk=case.pk).referral_outcome == "DEC issued a consent order"
