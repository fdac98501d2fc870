"""Issue 26, triage: a report is closed without investigating it — unfounded,
exempt (a § 132-6 A(1) category, R-PRO-2), referred, or a duplicate — from the
triage page or the report's own page. What is stored, the chronology entry, and
what the resident's status page says; mistakes answered on the field."""

import pytest
from django.urls import reverse

from cases import triage
from cases.models import Case, CaseStatus, EventKind
from intake.models import ExemptCategory, Report
from kernel.models import CaseEvent
from kernel.workflow import Refused

from .factories import CaseFactory, ReportFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def _status_page(client, report) -> str:
    response = client.get(reverse("public:status"), {"code": report.tracking_code})
    assert response.status_code == 200
    return response.content.decode()


def _transition(case) -> CaseEvent:
    return case.events.get(kind=CaseEvent.Kind.TRANSITION)


def _lawn_watering() -> ExemptCategory:
    return ExemptCategory.objects.get(code="landscape-irrigation")


def test_closed_as_unfounded_stores_the_reasons_on_a_closed_case(smo_user, client):
    report = ReportFactory(address="3 Washington Street")
    case = triage.report_close_unfounded(
        report=report, actor=smo_user, reason="Only rain water; no discharge."
    )
    report.refresh_from_db()
    assert report.case == case and not report.in_triage_queue
    assert case.status == CaseStatus.UNFOUNDED and case.closed_at is not None
    assert case.closing_reason == "Only rain water; no discharge."
    event = _transition(case)
    assert (event.from_status, event.to_status) == ("new", "unfounded")
    assert event.actor == smo_user
    assert "Only rain water" in event.detail
    assert not event.public
    html = _status_page(client, report)
    assert "Closed — not a violation" in html
    assert "found no illicit discharge" in html
    # The staff reasons stay with the staff unless shared.
    assert "Only rain water" not in html


def test_closed_as_exempt_names_the_category_to_the_resident(smo_user, client):
    report = ReportFactory()
    case = triage.report_close_exempt(
        report=report, actor=smo_user, exempt_category=_lawn_watering(), note="Seen."
    )
    assert case.status == CaseStatus.EXEMPT
    assert case.exemption_basis == Case.ExemptionBasis.CATEGORY
    assert case.exempt_category == _lawn_watering()
    event = _transition(case)
    assert event.to_status == "exempt" and event.rule_id == "R-PRO-2"
    assert "Exempt category: Landscape irrigation or lawn watering" in event.detail
    html = _status_page(client, report)
    assert (
        "Closed: the discharge is of a kind the law allows: Lawn watering and "
        "landscape irrigation." in html
    )
    assert "R-PRO-2" not in html


def test_a_substantial_contributor_no_longer_exempts_and_nothing_is_saved(smo_user):
    category = _lawn_watering()
    category.substantial_contributor = True
    category.save()
    report = ReportFactory()
    with pytest.raises(Refused, match="substantial"):
        triage.report_close_exempt(
            report=report, actor=smo_user, exempt_category=category
        )
    report.refresh_from_db()
    assert report.in_triage_queue
    assert Case.objects.count() == 0


def test_referred_names_the_agency_to_the_resident(smo_user, client):
    report = ReportFactory()
    case = triage.report_refer(
        report=report,
        actor=smo_user,
        referred_to="Suffolk County Department of Health Services",
        public=True,
        note="Septic overflow: the county handles it.",
    )
    assert case.status == CaseStatus.REFERRED
    assert case.referred_to == "Suffolk County Department of Health Services"
    assert case.referred_on is not None
    assert case.awaiting_referral_outcome
    event = _transition(case)
    assert event.to_status == "referred" and event.public
    html = _status_page(client, report)
    assert "Referred to Suffolk County Department of Health Services" in html
    # Shared: the reasons are among the updates.
    assert "Septic overflow: the county handles it." in html


def test_duplicate_moves_the_report_to_the_case_and_says_combined(smo_user, client):
    earlier = CaseFactory(investigating=True)
    report = ReportFactory()
    case = triage.report_close_duplicate(
        report=report, actor=smo_user, of_case=earlier, note="Same outfall."
    )
    assert case.status == CaseStatus.DUPLICATE and case.merged_into == earlier
    report.refresh_from_db()
    assert report.case == earlier
    assert _transition(case).to_status == "duplicate"
    assert earlier.events.filter(kind=EventKind.MERGE).exists()
    html = _status_page(client, report)
    assert "Being investigated" in html
    assert "Combined with another report" in html


def test_duplicate_of_a_duplicate_is_refused(smo_user):
    target = CaseFactory()
    merged = CaseFactory(duplicate=True, merged_into=target)
    report = ReportFactory()
    with pytest.raises(Refused, match="itself a duplicate"):
        triage.report_close_duplicate(report=report, actor=smo_user, of_case=merged)
    assert Report.objects.get(pk=report.pk).in_triage_queue


def test_a_report_already_on_a_case_cannot_be_closed_at_triage(smo_user):
    report = ReportFactory(case=CaseFactory())
    with pytest.raises(Refused, match="already on a case"):
        triage.report_close_unfounded(report=report, actor=smo_user, reason="x")


def test_a_clerk_may_not_close_a_report(clerk_user):
    report = ReportFactory()
    with pytest.raises(Refused):
        triage.report_close_unfounded(report=report, actor=clerk_user, reason="x")
    assert Report.objects.get(pk=report.pk).in_triage_queue


# --- the pages ---------------------------------------------------------------------
def test_triage_page_mistakes_are_said_on_the_field_and_the_input_kept(smo_client):
    report = ReportFactory()
    other = ReportFactory()
    prefix = f"r{report.pk}-referred"
    response = smo_client.post(
        reverse("cases:triage_close", args=[report.pk, "referred"]),
        {
            f"{prefix}-agency": "other",
            f"{prefix}-other_agency": "",
            f"{prefix}-referred_on": "2999-01-01",
            f"{prefix}-note": "Called the county first.",
        },
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert "Name the agency." in html
    assert "The referral date cannot be in the future." in html
    assert "Called the county first." in html
    assert 'value="2999-01-01"' in html
    # The form with the mistakes is unfolded; the queue is still shown.
    assert '<details class="triage-close mt-2" open' in html
    assert other.tracking_code in html
    assert Case.objects.count() == 0
    assert Report.objects.get(pk=report.pk).in_triage_queue


def test_exempt_without_a_category_keeps_the_note(smo_client):
    report = ReportFactory()
    prefix = f"r{report.pk}-exempt"
    response = smo_client.post(
        reverse("cases:triage_close", args=[report.pk, "exempt"]),
        {f"{prefix}-note": "Sprinkler run-off", "back": "report"},
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert "Choose the kind of exempt discharge." in html
    assert "Sprinkler run-off" in html
    assert "Back to the triage queue" in html
    assert Case.objects.count() == 0


def test_duplicate_named_by_a_report_still_queued_is_refused_on_the_field(
    smo_client,
):
    report = ReportFactory()
    queued = ReportFactory()
    prefix = f"r{report.pk}-duplicate"
    response = smo_client.post(
        reverse("cases:triage_close", args=[report.pk, "duplicate"]),
        {f"{prefix}-named": queued.tracking_code.lower()},
    )
    assert response.status_code == 400
    assert "itself waiting in the triage queue" in response.content.decode()
    assert Case.objects.count() == 0


def test_duplicate_named_by_a_tracking_code_goes_to_that_reports_case(smo_client):
    earlier = CaseFactory()
    on_case = ReportFactory(case=earlier)
    report = ReportFactory()
    prefix = f"r{report.pk}-duplicate"
    response = smo_client.post(
        reverse("cases:triage_close", args=[report.pk, "duplicate"]),
        {f"{prefix}-named": on_case.tracking_code},
    )
    assert response.status_code == 302
    assert response.url == reverse("cases:triage")
    report.refresh_from_db()
    assert report.case == earlier


def test_report_page_offers_the_closing_forms_and_a_way_back(smo_client):
    report = ReportFactory()
    html = smo_client.get(reverse("reports:detail", args=[report.pk])).content
    html = html.decode()
    assert "Back to the triage queue" in html
    for outcome in ("unfounded", "exempt", "referred", "duplicate"):
        assert reverse("cases:triage_close", args=[report.pk, outcome]) in html
    prefix = f"r{report.pk}-unfounded"
    response = smo_client.post(
        reverse("cases:triage_close", args=[report.pk, "unfounded"]),
        {f"{prefix}-reason": "Nothing there.", "back": "report"},
    )
    assert response.url == reverse("reports:detail", args=[report.pk])
    html = smo_client.get(response.url).content.decode()
    assert "closed as unfounded" in html
    assert reverse("cases:triage_close", args=[report.pk, "unfounded"]) not in html


def test_a_report_on_a_new_case_never_says_awaiting_triage(smo_client, smo_user):
    from cases.services import case_open_from_reports

    report = ReportFactory()
    case = case_open_from_reports(reports=[report], actor=smo_user, summary="Suds")
    assert case.status == CaseStatus.NEW
    html = smo_client.get(reverse("reports:detail", args=[report.pk])).content
    html = html.decode()
    assert "Awaiting triage" not in html
    assert "Waiting in the triage queue" not in html
    assert "On case" in html and "opened, not yet investigated" in html
