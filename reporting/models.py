"""The models of program reporting (their tables keep the names they had in
cases: migration reporting 0001)."""

from .annual.models import AnnualReport, AnnualReportComment, AnnualReportStatus

__all__ = ["AnnualReport", "AnnualReportComment", "AnnualReportStatus"]
