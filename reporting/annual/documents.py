"""The annual report as a document: its facts contract, registered with the
document pipeline (documents: validated, frozen, hashed, versioned,
rendered by WeasyPrint in the worker), built from a frozen AnnualReport.

The facts hold only counts, their words and the charts' series: no name, e-mail
address, telephone number or address of anyone (the public reads this PDF)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import ClassVar

from django.utils import timezone

from documents.contracts import (
    DocumentFacts,
    Recipient,
    Signatory,
    blank,
    village_contact,
)
from documents.registry import register
from documents.samples import sample_common

from ..document_kinds import ReportingDocument
from .charts import report_charts
from .year import ReportingYear

STATUS_WORDS = {
    "draft": "Frozen report (not published)",
    "published": "Draft for public comment",
    "final": "Final report",
}


@dataclass(frozen=True, kw_only=True)
class CountLine:
    section: str
    key: str
    label: str
    definition: str
    shown: str


@dataclass(frozen=True, kw_only=True)
class MonthLine:
    label: str
    reports: int
    confirmed: int


@dataclass(frozen=True, kw_only=True)
class AnnualReportFacts(DocumentFacts):
    """The IDDE part of the MS4 annual report of one reporting year."""

    kind: ClassVar[str] = ReportingDocument.ANNUAL_REPORT
    template: ClassVar[str] = "documents/annual_report.html"
    rule_id: ClassVar[str] = "R-PRO-1"
    base_rules: ClassVar[tuple[str, ...]] = ("R-PRO-1", "R-CON-1", "R-NOV-1")

    year_label: str
    as_of: str
    status_words: str
    lines: tuple[CountLine, ...] = ()
    months: tuple[MonthLine, ...] = ()
    elimination_days: tuple[int, ...] = ()
    deadlines_met: int = 0
    deadlines_missed: int = 0
    comment_period: str = ""
    comments_received: int = 0
    comment_summary: str = ""

    def problems(self) -> list[str]:
        # A report of the office, not of a case: no case number, no recipient.
        found = []
        if blank(self.document_number):
            found.append("document number is missing")
        if not isinstance(self.issued_on, dt.date):
            found.append("the date of issue is missing")
        if blank(self.year_label):
            found.append("the reporting year is missing")
        if not self.lines:
            found.append("the report has no counts")
        if self.status_words == STATUS_WORDS["final"] and blank(self.comment_summary):
            found.append("the final report lists a summary of the comments received")
        return found

    def extra_context(self, cite: dict) -> dict:
        from .selectors import SECTIONS

        months = [
            {"label": m.label, "reports": m.reports, "confirmed": m.confirmed}
            for m in self.months
        ]
        return {
            "charts": report_charts(
                months,
                list(self.elimination_days),
                self.deadlines_met,
                self.deadlines_missed,
            ),
            "sections": [
                {
                    "title": s.title,
                    "lines": [line for line in self.lines if line.section == s.key],
                }
                for s in SECTIONS
            ],
        }


def annual_facts(report) -> AnnualReportFacts:
    """The facts of a frozen AnnualReport (its counts as stored, never recomputed)."""
    from .services import count_lines

    year = ReportingYear(report.year)
    period = ""
    if report.comment_opens_on and report.comment_closes_on:
        period = (
            f"{report.comment_opens_on:%B} {report.comment_opens_on.day}, "
            f"{report.comment_opens_on:%Y} – {report.comment_closes_on:%B} "
            f"{report.comment_closes_on.day}, {report.comment_closes_on:%Y}"
        )
    as_of = timezone.localtime(report.as_of)
    return AnnualReportFacts(
        case_number="",
        document_number=report.number,
        issued_on=timezone.localdate(),
        recipient=Recipient(name="The public and NYSDEC"),
        contact=village_contact(),
        signatory=Signatory(
            name="Stormwater Management Officer", title="Village of Poquott"
        ),
        year_label=year.label,
        as_of=f"{as_of:%B} {as_of.day}, {as_of:%Y} at {as_of:%H:%M}",
        status_words=STATUS_WORDS[report.status],
        lines=tuple(
            CountLine(
                section=line["section"],
                key=line["key"],
                label=line["label"],
                definition=line["definition"],
                shown=line["shown"],
            )
            for line in count_lines(report)
        ),
        months=tuple(
            MonthLine(label=m["label"], reports=m["reports"], confirmed=m["confirmed"])
            for m in report.per_month
        ),
        elimination_days=tuple(report.elimination_days),
        deadlines_met=len(report.record_ids.get("deadlines_met", [])),
        deadlines_missed=len(report.record_ids.get("deadlines_missed", [])),
        comment_period=period,
        comments_received=report.comments.count(),
        comment_summary=report.comment_summary,
    )


def sample_annual_report() -> AnnualReportFacts:
    common = sample_common(case_number="", number="AR-2025-v1")
    common["recipient"] = Recipient(name="The public and NYSDEC")
    return AnnualReportFacts(
        **common,
        year_label=ReportingYear(2025).label,
        as_of="March 10, 2026 at 09:00",
        status_words=STATUS_WORDS["published"],
        lines=(
            CountLine(
                section="reports",
                key="reports_received",
                label="Reports received",
                definition="Reports of a suspected discharge received in the year.",
                shown="12",
            ),
        ),
        months=(MonthLine(label="Mar 2025", reports=3, confirmed=1),),
        comment_period="April 1, 2026 – April 30, 2026",
    )


@register(
    ReportingDocument.ANNUAL_REPORT,
    facts=AnnualReportFacts,
    source="reporting.annualreport",
    sample=sample_annual_report,
    case_of=lambda report: None,
)
def annual_report_contract(report) -> AnnualReportFacts:
    return annual_facts(report)
