from django.apps import AppConfig


class ReportingConfig(AppConfig):
    """The program's reporting, above every case app (STYLE.md, "Layers";
    issue 30): the annual MS4 report and the maps. It reads cases, inspections,
    enforcement and the ledger; nothing below imports it."""

    name = "reporting"
    verbose_name = "Program reporting: annual report and maps"
