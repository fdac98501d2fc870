from .reference import ExemptCategory, PollutantCategory
from .reports import ApiKey, Report, ReportNotification, ReportPhoto

__all__ = [
    "ApiKey",
    "ExemptCategory",
    "PollutantCategory",
    "Report",
    "ReportNotification",
    "ReportPhoto",
]
