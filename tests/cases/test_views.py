"""The staff pages: who may see what (URL × role), triage, forms that keep the
user's input, refusals as messages, the concurrent-change message, attachments."""

import datetime as dt

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from cases import services
from cases.models import Case, CaseStatus
from intake.models import Report
from kernel.models import CaseEvent
from tests.conftest import make_user

from .factories import (
    CaseFactory,
    PartyFactory,
    PremisesFactory,
    ReportFactory,
    name_party,
)

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "no_role", "smo", "clerk", "attorney", "inspector", "superuser"]
READ = {"smo": 200, "clerk": 200, "superuser": 200}
WRITE = {"smo": 200, "superuser": 200}
ALL = {r: 200 for r in ROLES if r not in ("anonymous", "no_role")}


@pytest.fixture
def case(db):
    case = CaseFactory(investigating=True)
    case.attachments.create(
        file=SimpleUploadedFile("x.txt", b"hello"),
        original_name="x.txt",
        content_type="text/plain",
        size=5,
        sha256="0" * 64,
        uploaded_by=make_user("uploader"),
    )
    return case


def _pages(case):
    n = case.number
    att = case.attachments.first().pk
    return [
        (reverse("cases:dashboard"), ALL),
        (reverse("cases:triage"), WRITE),
        (reverse("cases:list"), READ),
        (reverse("cases:new"), WRITE),
        (reverse("cases:detail", args=[n]), READ),
        (reverse("cases:edit", args=[n]), WRITE),
        (reverse("cases:transition", args=[n, "refer"]), WRITE),
        (reverse("cases:party_add", args=[n]), WRITE),
        (reverse("cases:note_add", args=[n]), WRITE),
        (reverse("cases:attachment_add", args=[n]), WRITE),
        (reverse("cases:attachment", args=[n, att]), READ),
    ]


@pytest.mark.parametrize("role", ROLES)
def test_url_role_table(client_as, case, role, settings, tmp_path):
    client = client_as(role)
    for url, allowed in _pages(case):
        response = client.get(url)
        expected = 302 if role == "anonymous" else allowed.get(role, 403)
        assert response.status_code == expected, (url, role, response.status_code)
        if expected == 302:
            assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize(
    "name",
    ["detail", "edit", "party_add", "note_add", "attachment_add", "referral_outcome"],
)
def test_clerk_gets_403_on_every_post(client_as, case, name):
    client = client_as("clerk")
    response = client.post(reverse(f"cases:{name}", args=[case.number]), {"text": "x"})
    assert response.status_code == 403
    response = client.post(
        reverse("cases:transition", args=[case.number, "refer"]),
        {"referred_to": "DEC"},
    )
    assert response.status_code == 403
    assert client.post(reverse("cases:triage")).status_code == 403
    assert Case.objects.get(pk=case.pk).status == CaseStatus.INVESTIGATING


def test_clerk_reads_the_case_without_any_action_button(client_as, case):
    html = client_as("clerk").get(reverse("cases:detail", args=[case.number]))
    html = html.content.decode()
    assert case.number in html and "Chronology" in html
    assert "/act/" not in html and "Edit details" not in html
    assert "Add note" not in html


def test_case_page_buttons_are_the_fsm_transitions(client_as, case):
    html = client_as("smo").get(reverse("cases:detail", args=[case.number]))
    html = html.content.decode()
    for t in services.available_transitions(case, case.assigned_officer or _smo()):
        if t.enabled:
            assert reverse("cases:transition", args=[case.number, t.name]) in html
        else:  # offered, disabled, with what must be done first and where
            assert f'aria-describedby="why-{t.name}"' in html
            for reason in t.blocked_by:
                assert reason.text in html
                assert reason.url in html
    assert "/act/start_investigation/" not in html  # already investigating
    assert "/act/begin_enforcement/" not in html  # the enforcement app's


def _smo():
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username="smo")


def test_triage_new_case_from_selected_reports(smo_client):
    a, b, _other = ReportFactory(), ReportFactory(), ReportFactory()
    response = smo_client.post(
        reverse("cases:triage"),
        {
            "reports": [a.pk, b.pk],
            "action": "new",
            "summary": "Suds on Washington St",
            "kind": "illicit_discharge",
        },
    )
    case = Case.objects.get(summary="Suds on Washington St")
    assert response.status_code == 302 and response["Location"].endswith(
        f"/{case.number}/"
    )
    assert set(case.reports.all()) == {a, b}
    assert Report.objects.filter(case__isnull=True).count() == 1


def test_triage_attach_to_existing_case(smo_client):
    case = CaseFactory()
    report = ReportFactory()
    smo_client.post(
        reverse("cases:triage"),
        {"reports": [report.pk], "action": "attach", "attach_to": case.number.lower()},
    )
    report.refresh_from_db()
    assert report.case == case


def test_triage_bad_input_keeps_the_selection_and_saves_nothing(smo_client):
    report = ReportFactory()
    response = smo_client.post(
        reverse("cases:triage"),
        {"reports": [report.pk], "action": "attach", "attach_to": "MS4-1999-0001"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "No case MS4-1999-0001" in html
    assert f'value="{report.pk}" id="report-{report.pk}" checked' in html
    assert 'value="MS4-1999-0001"' in html
    assert Case.objects.count() == 0


def test_triage_suggests_duplicates_on_same_premises_or_within_150_m(smo_client):
    premises = PremisesFactory(address="3 Washington Street")
    same = CaseFactory(premises=premises)
    near = CaseFactory(latitude="40.947600", longitude="-73.088300")
    far = CaseFactory(latitude="40.960000", longitude="-73.088300")
    old = CaseFactory(
        resolved=True,
        latitude="40.947600",
        longitude="-73.088300",
        opened_at="2020-01-01T00:00:00Z",
        closed_at="2020-02-01T00:00:00Z",
    )
    ReportFactory(
        address="3 washington street", latitude="40.947650", longitude="-73.088250"
    )
    html = smo_client.get(reverse("cases:triage")).content.decode()
    # The suggestions line (the duplicate form lists recent cases too).
    suggested = html.split("Possible duplicate of:", 1)[1].split("</div>", 1)[0]
    assert same.number in suggested and "same premises" in suggested
    assert near.number in suggested and " m away" in suggested
    assert far.number not in suggested
    assert old.number not in html
    # A new case is never "Awaiting triage" where a report is shown (issue 26).
    assert "opened, not yet investigated" in suggested
    assert "Awaiting triage" not in html


def test_a_new_case_reads_opened_not_yet_investigated_on_its_own_page(smo_client):
    """Issue 26: a case is made by triage (or opened by staff), so its first
    status is never "Awaiting triage" — on its page, the list and the dashboard."""
    case = CaseFactory()
    for url in (case.get_absolute_url(), reverse("cases:list")):
        html = smo_client.get(url).content.decode()
        assert "Opened, not yet investigated" in html, url
        assert "Awaiting triage" not in html, url


def test_open_case_directly_with_new_premises(smo_client):
    response = smo_client.post(
        reverse("cases:new"),
        {
            "source": "walk_in",
            "kind": "spill",
            "summary": "Oil in the gutter",
            "new_premises_address": "7 Shore Road",
            "new_premises_tax_map_number": "0200-009.00-01.00-007.000",
            "new_premises_land_use": "commercial",
        },
    )
    case = Case.objects.get(summary="Oil in the gutter")
    assert response.status_code == 302
    assert case.source == "walk_in" and case.premises.address == "7 Shore Road"


def test_open_case_bad_input_keeps_data(smo_client):
    response = smo_client.post(
        reverse("cases:new"),
        {
            "source": "phone",
            "kind": "spill",
            "summary": "Kept text",
            "latitude": "40.9",
        },
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Give both latitude and longitude" in html
    assert 'value="Kept text"' in html
    assert not Case.objects.exists()


def test_transition_form_missing_input_shows_field_errors(smo_client, case):
    url = reverse("cases:transition", args=[case.number, "close_unfounded"])
    response = smo_client.post(
        url,
        {
            "expected_status": case.status,
            "expected_version": case.version,
            "reason": "my note",
        },
    )
    html = response.content.decode()
    assert response.status_code == 200 and "This field is required" in html
    assert "my note" in html
    assert Case.objects.get(pk=case.pk).status == CaseStatus.INVESTIGATING


def test_transition_not_allowed_now_is_a_message_not_a_500(smo_client, case):
    url = reverse("cases:transition", args=[case.number, "start_investigation"])
    response = smo_client.get(url, follow=True)
    assert response.status_code == 200
    assert "not possible while" in response.content.decode()
    response = smo_client.post(
        url, {"expected_status": case.status, "expected_version": case.version}
    )
    assert response.status_code == 200
    assert "not possible while" in response.content.decode()


def test_unknown_transition_is_404(smo_client, case):
    url = reverse("cases:transition", args=[case.number, "delete"])
    assert smo_client.get(url).status_code == 404


def test_second_officer_sees_case_changed_with_their_input_kept(smo_client, case):
    smo = _smo()
    seen_status, seen_version = case.status, case.version
    services.case_run_transition(
        case=case,
        transition="refer",
        actor=smo,
        referred_to="Suffolk County DHS",
    )
    response = smo_client.post(
        reverse("cases:transition", args=[case.number, "close_unfounded"]),
        {
            "expected_status": seen_status,
            "expected_version": seen_version,
            "closing_reason": "My careful reasons",
            "confirm": "on",  # the binding step's "I confirm" box
        },
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "This case was changed by someone else" in html
    assert "My careful reasons" in html
    case.refresh_from_db()
    assert case.status == CaseStatus.REFERRED and case.closing_reason == ""


def test_confirm_violation_names_a_party_of_the_case(smo_client, case):
    party = name_party(case)
    stranger = PartyFactory()
    url = reverse("cases:transition", args=[case.number, "confirm_violation"])
    base = {
        "expected_status": case.status,
        "expected_version": case.version,
        "violation_confirmed_on": "2026-01-05",
        "violation_finding": "Floor drain piped to the MS4",
    }
    response = smo_client.post(url, {**base, "responsible_party": stranger.pk})
    assert "Select a valid choice" in response.content.decode()
    response = smo_client.post(url, {**base, "responsible_party": party.pk})
    assert response.status_code == 302
    case.refresh_from_db()
    assert case.status == CaseStatus.VIOLATION_CONFIRMED
    assert case.responsible_party == party


def test_exempt_form_refuses_a_substantial_contributor_category(smo_client, case):
    from intake.models import ExemptCategory

    category = ExemptCategory.objects.first()
    category.substantial_contributor = True
    category.save()
    response = smo_client.post(
        reverse("cases:transition", args=[case.number, "close_exempt"]),
        {
            "expected_status": case.status,
            "expected_version": case.version,
            "exemption_basis": "category",
            "exempt_category": category.pk,
            "confirm": "on",  # the binding step's "I confirm" box
        },
    )
    assert "substantial contributor" in response.content.decode()
    assert Case.objects.get(pk=case.pk).status == CaseStatus.INVESTIGATING


def _approval(smo_user, premises, *, reference, starts_on, ends_on):
    from inspections.models import DischargeApproval

    return DischargeApproval.objects.create(
        premises=premises,
        reference=reference,
        harm_prevented="Basement flooding threatening the furnace",
        discharge_description="Pumped clear water to the catch basin",
        starts_on=starts_on,
        ends_on=ends_on,
        conditions="Clear water only; stop when the basement is dry.",
        approved_by=smo_user,
        approved_on=starts_on,
    )


def _close_exempt_by_approval(smo_client, case, reference):
    return smo_client.post(
        reverse("cases:transition", args=[case.number, "close_exempt"]),
        {
            "expected_status": case.status,
            "expected_version": case.version,
            "exemption_basis": "smo_approval",
            "exemption_reference": reference,
            "confirm": "on",  # the binding step's "I confirm" box
        },
    )


def test_exempt_by_an_smo_approval_in_force_closes_the_case(smo_client, smo_user, case):
    today = timezone.localdate()
    premises = case.premises or PremisesFactory()
    _approval(
        smo_user, premises, reference="SMO-2026-07", starts_on=today, ends_on=today
    )
    response = _close_exempt_by_approval(smo_client, case, "SMO-2026-07")
    assert response.status_code == 302
    assert Case.objects.get(pk=case.pk).status == CaseStatus.EXEMPT


def test_an_expired_smo_approval_no_longer_exempts(smo_client, smo_user, case):
    today = timezone.localdate()
    premises = case.premises or PremisesFactory()
    _approval(
        smo_user,
        premises,
        reference="SMO-2026-01",
        starts_on=today - dt.timedelta(days=30),
        ends_on=today - dt.timedelta(days=1),
    )
    response = _close_exempt_by_approval(smo_client, case, "SMO-2026-01")
    html = response.content.decode()
    assert response.status_code == 200
    assert "is in force today" in html and "SMO-2026-01" in html  # input kept
    assert Case.objects.get(pk=case.pk).status == CaseStatus.INVESTIGATING


def test_duplicate_via_the_form_merges(smo_client, case):
    target = CaseFactory()
    response = smo_client.post(
        reverse("cases:transition", args=[case.number, "mark_duplicate"]),
        {
            "expected_status": case.status,
            "expected_version": case.version,
            "merge_into": target.number,
        },
    )
    assert response.status_code == 302
    case.refresh_from_db()
    assert case.merged_into == target
    assert target.events.filter(kind="merge").exists()


def test_add_party_note_and_attachment_through_the_pages(
    smo_client, case, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path
    n = case.number
    smo_client.post(
        reverse("cases:party_add", args=[n]),
        {"role": "owner", "kind": "entity", "name": "Harbor Auto LLC", "phone": "1"},
    )
    smo_client.post(
        reverse("cases:note_add", args=[n]), {"text": "Called owner", "public": "on"}
    )
    smo_client.post(
        reverse("cases:attachment_add", args=[n]),
        {"file": SimpleUploadedFile("photo.jpg", b"\xff\xd8data", "image/jpeg")},
    )
    kinds = set(CaseEvent.objects.filter(case=case).values_list("kind", flat=True))
    assert {"party", "note", "attachment"} <= kinds
    att = case.attachments.get(original_name="photo.jpg")
    response = smo_client.get(reverse("cases:attachment", args=[n, att.pk]))
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == b"\xff\xd8data"
    assert response["X-Content-Type-Options"] == "nosniff"


def test_party_form_without_name_or_choice_keeps_input(smo_client, case):
    response = smo_client.post(
        reverse("cases:party_add", args=[case.number]),
        {"role": "owner", "email": "a@b.example"},
    )
    html = response.content.decode()
    assert "Give the new party" in html and "a@b.example" in html
    assert not case.case_parties.exists()


def test_case_page_tells_the_whole_story_in_order(smo_client):
    smo = _smo()
    report = ReportFactory()
    case = services.case_open_from_reports(reports=[report], actor=smo, summary="S")
    services.case_run_transition(case=case, transition="start_investigation", actor=smo)
    services.note_add(case=case, actor=smo, text="Visited the site")
    html = smo_client.get(reverse("cases:detail", args=[case.number])).content.decode()
    positions = [
        html.index("Case opened"),
        html.index(f"Report {report.tracking_code}"),
        html.index("Start investigation"),
        html.index("Visited the site"),
    ]
    assert positions == sorted(positions)
    assert "Officer" in html  # who


def test_unfounded_reasons_appear_in_the_chronology(smo_client, case):
    smo_client.post(
        reverse("cases:transition", args=[case.number, "close_unfounded"]),
        {
            "expected_status": case.status,
            "expected_version": case.version,
            "closing_reason": "Clear sprinkler water",
            "confirm": "on",  # the binding step's "I confirm" box
        },
    )
    event = case.events.get(kind="transition")
    assert "Clear sprinkler water" in event.detail
