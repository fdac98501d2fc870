"""What each document says (HTML and the text of its PDF), and how it is rendered:
escaped resident text, a fetcher locked to our static files, PDF/A."""

import dataclasses
import datetime as dt
import io
import logging
from decimal import Decimal

import pytest
from pypdf import PdfReader

from documents.contracts import (
    FactsInvalid,
    Recipient,
    document_kind_values,
    facts_from_json,
    facts_to_json,
    validate_facts,
)
from documents.render import (
    FetchRefused,
    StaticOnlyFetcher,
    render,
    render_html,
    render_pdf,
)
from documents.samples import sample_facts
from enforcement.document_kinds import EnforcementDocument
from enforcement.documents.notice import Fine, Requirement, sample_notice_of_violation
from inspections.document_kinds import InspectionDocument
from kernel.citations import citation

from .conftest import pdf_text, squash

pytestmark = pytest.mark.django_db


def law(rule_id: str, field: str = "notice_text") -> str:
    return squash(getattr(citation(rule_id), field))


# --- every kind --------------------------------------------------------------


@pytest.mark.parametrize("kind", document_kind_values())
def test_every_document_carries_letterhead_case_date_recipient_and_sections(kind):
    facts = sample_facts(kind)
    rendered = render(kind, facts)
    text = pdf_text(rendered.pdf)
    assert "Incorporated Village of Poquott" in text
    assert "45 Birchwood Avenue, Poquott, New York 11733" in text
    assert facts.contact.phone in text
    assert facts.case_number in text
    assert facts.document_number in text
    assert "March 2, 2026" in text
    assert facts.recipient.name in text
    for line in facts.recipient.address_lines:
        assert line in text
    for rule_id in facts.relied_on():
        assert squash(citation(rule_id).section) in text, rule_id
    assert facts.signatory.name in text


KIND_REQUIREMENTS = {
    EnforcementDocument.EMERGENCY_SUSPENSION: lambda f: [
        law("R-SUS-1"),
        squash(f.reasons),
        "Sunday, March 1, 2026, 2:30 PM",
    ],
    EnforcementDocument.PROPOSED_TERMINATION: lambda f: [
        law("R-SUS-2"),
        squash(f.reasons),
        squash(f.petition_to),
        "Friday, March 20, 2026",
    ],
    EnforcementDocument.TERMINATION_DECISION: lambda f: [
        "Access denied",
        squash(f.determination),
        f.proposed_notice_number,
    ],
    EnforcementDocument.ACCESS_REQUEST: lambda f: [
        law("R-COR-1"),
        law("R-COR-2"),
        squash(f.measures),
        f.notice_number,
        "Monday, February 23, 2026",
        f"cc: {f.copy_to.name}",
    ],
    EnforcementDocument.APPEAL_DECISION: lambda f: [
        "The Board of Trustees upheld the Stormwater Management Officer's "
        "determination.",
        squash(f.decision),
        f.certified_mail_article,
        law("R-APL-3"),
        "Thursday, February 26, 2026",
        "You must correct the violation by Thursday, March 5, 2026.",
    ],
    EnforcementDocument.CORRECTIVE_INVOICE: lambda f: [
        law("R-COR-2"),
        law("R-NOV-2"),
        "$640.00",
        "$185.50",
        "$825.50",
        squash(f.authority),
    ],
    InspectionDocument.INSPECTION_REPORT: lambda f: [
        "Access granted",
        squash(f.observations),
        f.samples[0],
        law("R-ACC-1", "summary"),
    ],
    InspectionDocument.WARRANT_COVER_SHEET: lambda f: [
        squash(f.probable_cause),
        law("R-ACC-4", "summary"),
        "Probable cause to believe that there may be a violation of the article",
        "Wednesday, February 25, 2026",
        f.attachments[0],
    ],
}


@pytest.mark.parametrize("kind", sorted(KIND_REQUIREMENTS))
def test_each_document_says_what_its_rule_requires(kind):
    facts = sample_facts(kind)
    text = pdf_text(render(kind, facts).pdf)
    for expected in KIND_REQUIREMENTS[kind](facts):
        assert expected in text, expected


# --- the notice of violation -------------------------------------------------


def test_notice_of_violation_carries_each_requirement_deadline_fine_appeal_penalties():
    facts = sample_notice_of_violation()
    rendered = render(EnforcementDocument.NOTICE_OF_VIOLATION, facts)
    text = pdf_text(rendered.pdf)
    for requirement in facts.requirements:
        heading = law(f"R-NOV-1({requirement.number})", "heading")
        assert f"({requirement.number}) {heading}" in text
        assert requirement.particulars in text
    # not chosen: (1), (4), (6)
    for number in (1, 4, 6):
        assert law(f"R-NOV-1({number})", "heading") not in text
    assert "Monday, March 16, 2026" in text  # remediation deadline
    assert law("R-NOV-2") in text
    assert "$250.00" in text
    assert law("R-PEN-1", "summary") in text  # the tier's range
    assert law("R-APL-1") in text  # the right to appeal, 15 days, Board of Trustees
    assert "Board of Trustees" in text and "15 days" in text
    assert (
        "The last day to file an appeal of this notice is Tuesday, March 17, 2026"
        in text
    )
    assert squash(facts.appeal_deadline_explanation) in text
    assert "Village Clerk, 45 Birchwood Avenue, Poquott, NY 11733" in text
    assert law("R-PEN-1") in text  # the penalties of § 132-13 B
    assert "Whom to call" in text and "(631) 476-4043" in text


def test_notice_without_abatement_has_no_remediation_sentence_and_no_fine_block():
    facts = sample_notice_of_violation(
        requirements=(Requirement(number=2, particulars="Stop the discharge."),),
        remediation_deadline=None,
        fine=None,
    )
    text = pdf_text(render(EnforcementDocument.NOTICE_OF_VIOLATION, facts).pdf)
    assert law("R-NOV-2") not in text
    assert "Remediation and restoration must be completed" not in text
    assert "Fine proposed" not in text
    assert law("R-PEN-1") in text  # the penalties are always stated
    assert "Tuesday, March 17, 2026" in text


def test_second_offense_fine_prints_the_second_tier_range():
    facts = sample_notice_of_violation(fine=Fine(amount=Decimal("500"), tier=2))
    text = pdf_text(render(EnforcementDocument.NOTICE_OF_VIOLATION, facts).pdf)
    assert "$500.00" in text
    assert law("R-PEN-2", "summary") in text
    assert "Second offense within five years" in text


def test_notice_missing_the_last_day_to_appeal_is_refused():
    facts = sample_notice_of_violation(last_day_to_appeal=None)
    with pytest.raises(FactsInvalid, match="last day to appeal"):
        render_html(EnforcementDocument.NOTICE_OF_VIOLATION, facts)


def test_notice_requiring_abatement_without_a_remediation_deadline_is_refused():
    facts = sample_notice_of_violation(remediation_deadline=None)
    with pytest.raises(FactsInvalid, match="no remediation deadline"):
        render_html(EnforcementDocument.NOTICE_OF_VIOLATION, facts)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"fine": Fine(amount=Decimal("500"), tier=1)}, "outside the range"),
        ({"fine": Fine(amount=Decimal("1200"), tier=3)}, "outside the range"),
        ({"fine": Fine(amount=Decimal("100"), tier=4)}, "tier 4"),
        ({"fine": None}, "no fine is proposed"),
        ({"requirements": ()}, "no requirement"),
        (
            {"requirements": (Requirement(number=7, particulars="x"),)},
            "not one of",
        ),
        (
            {"requirements": (Requirement(number=2, particulars=" "),)},
            "no particulars",
        ),
        ({"appeal_deadline_explanation": ""}, "explanation"),
        ({"appeal_filing_office": ""}, "where to file"),
        ({"last_day_to_appeal": dt.date(2026, 3, 2)}, "not after the date of issue"),
        ({"recipient": Recipient(name="")}, "recipient"),
        ({"finding": ""}, "finding"),
        ({"violation_rule_ids": ()}, "violated is not named"),
    ],
)
def test_notice_that_would_say_less_than_the_law_is_refused(changes, message):
    with pytest.raises(FactsInvalid, match=message):
        validate_facts(
            EnforcementDocument.NOTICE_OF_VIOLATION,
            sample_notice_of_violation(**changes),
        )


def test_a_fine_without_requirement_five_is_refused():
    facts = sample_notice_of_violation(
        requirements=(Requirement(number=2, particulars="Stop."),),
        remediation_deadline=None,
    )
    with pytest.raises(FactsInvalid, match="requirement \\(5\\) is not chosen"):
        validate_facts(EnforcementDocument.NOTICE_OF_VIOLATION, facts)


def test_facts_of_another_kind_are_refused():
    with pytest.raises(FactsInvalid, match="expected NoticeOfViolationFacts"):
        validate_facts(
            EnforcementDocument.NOTICE_OF_VIOLATION,
            sample_facts(InspectionDocument.INSPECTION_REPORT),
        )


@pytest.mark.parametrize(
    ("kind", "changes", "message"),
    [
        (EnforcementDocument.EMERGENCY_SUSPENSION, {"reasons": ""}, "reasons"),
        (EnforcementDocument.PROPOSED_TERMINATION, {"reasons": ""}, "reasons"),
        (
            EnforcementDocument.TERMINATION_DECISION,
            {"determination": ""},
            "determination",
        ),
        (EnforcementDocument.TERMINATION_DECISION, {"outcome": "maybe"}, "outcome"),
        (
            EnforcementDocument.ACCESS_REQUEST,
            {"appeal_decided_on": None},
            "decision upholding",
        ),
        (EnforcementDocument.APPEAL_DECISION, {"decision": ""}, "text of the decision"),
        (
            EnforcementDocument.APPEAL_DECISION,
            {"hearing_held_on": dt.date(2026, 1, 1)},
            "out of order",
        ),
        (
            EnforcementDocument.CORRECTIVE_INVOICE,
            {"total": Decimal("1")},
            "not the sum",
        ),
        (
            InspectionDocument.INSPECTION_REPORT,
            {"access_outcome": "x"},
            "access outcome",
        ),
        (
            InspectionDocument.WARRANT_COVER_SHEET,
            {"probable_cause": ""},
            "probable cause",
        ),
    ],
)
def test_other_documents_missing_what_their_rule_needs_are_refused(
    kind, changes, message
):
    facts = dataclasses.replace(sample_facts(kind), **changes)
    with pytest.raises(FactsInvalid, match=message):
        validate_facts(kind, facts)


@pytest.mark.parametrize("kind", document_kind_values())
def test_facts_survive_the_json_they_are_frozen_as(kind):
    facts = sample_facts(kind)
    assert facts_from_json(kind, facts_to_json(facts)) == facts


# --- escaping ----------------------------------------------------------------


def test_a_recipient_name_with_markup_prints_as_text_in_html_and_pdf():
    name = "<script>alert('x')</script> O'Brien & Sons <b>Ltd</b>"
    facts = sample_notice_of_violation(
        recipient=Recipient(name=name, address_lines=("<img src=x onerror=y>",)),
        finding="<a href='http://evil.example'>click</a>",
    )
    rendered = render(EnforcementDocument.NOTICE_OF_VIOLATION, facts)
    assert "<script>" not in rendered.html
    assert "&lt;script&gt;" in rendered.html
    assert "<img src=x" not in rendered.html
    assert "<a href='http://evil.example'>" not in rendered.html
    text = pdf_text(rendered.pdf)
    assert "<script>alert('x')</script> O'Brien & Sons <b>Ltd</b>" in text
    assert "<img src=x onerror=y>" in text


# --- fetching ----------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "http://example.com/x.png",
        "https://example.com/x.css",
        "ftp://example.com/x",
        "file:///static/../../../../etc/passwd",
        "file:///static/%2e%2e/%2e%2e/etc/passwd",
        "file:///static/css/does-not-exist.css",
    ],
)
def test_fetcher_refuses_everything_but_static_files_and_data(url):
    with pytest.raises(FetchRefused):
        StaticOnlyFetcher().fetch(url)


def test_fetcher_serves_our_static_print_css_and_data_uris(settings):
    fetcher = StaticOnlyFetcher()
    response = fetcher.fetch("file:///static/css/print.css")
    assert b"@page" in response.read()
    assert response.content_type == "text/css"
    response = fetcher.fetch("data:text/plain;base64,aGVsbG8=")
    assert response.read() == b"hello"
    absolute = settings.STATICFILES_DIRS[0] / "css" / "print.css"
    assert b"@page" in fetcher.fetch(absolute.as_uri()).read()


def test_a_document_pointing_outside_is_rendered_without_those_resources(caplog):
    html = (
        "<html><head><link rel='stylesheet' href='file:///etc/passwd'>"
        "<link rel='stylesheet' href='http://example.com/x.css'></head>"
        "<body><p>Hello</p><img src='http://example.com/x.png'>"
        "<img src='file:///etc/hostname'></body></html>"
    )
    with caplog.at_level(logging.WARNING):
        pdf = render_pdf(html)
    assert "Hello" in pdf_text(pdf)
    refused = [r for r in caplog.records if "refused to fetch" in r.getMessage()]
    assert {r.args[0] for r in refused} >= {
        "file:///etc/passwd",
        "http://example.com/x.css",
        "http://example.com/x.png",
        "file:///etc/hostname",
    }


# --- archival ----------------------------------------------------------------


def test_the_pdf_is_pdf_a_3a_with_the_machines_fonts_embedded():
    pdf = render(
        EnforcementDocument.NOTICE_OF_VIOLATION, sample_notice_of_violation()
    ).pdf
    reader = PdfReader(io.BytesIO(pdf))
    xmp = reader.xmp_metadata
    assert xmp is not None
    raw = reader.trailer["/Root"]["/Metadata"].get_object().get_data()
    assert b"<pdfaid:part>3</pdfaid:part>" in raw or b'pdfaid:part="3"' in raw
    fonts = set()
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            fonts.add(str(font.get_object()["/BaseFont"]))
    assert fonts and all("DejaVu" in f or "Liberation" in f for f in fonts)


def test_the_same_html_renders_to_the_same_bytes():
    html = render_html(
        EnforcementDocument.NOTICE_OF_VIOLATION, sample_notice_of_violation()
    )
    assert render_pdf(html) == render_pdf(html)
