from django.apps import AppConfig


class IntakeConfig(AppConfig):
    """Resident intake (issue 30): reports from every channel, Open311, the
    public home and status pages, the reporters' e-mails. Below cases; cases
    registers what a case's progress means to a resident
    (public_status.register_case_progress) and mounts the staff report pages
    (cases.urls_reports), whose report page is triage's."""

    name = "intake"
    verbose_name = "Resident reports and Open311"

    def ready(self):
        from jobs import exports
        from kernel import demo, input_guard

        from .open311 import serializers as open311
        from .views import reports

        # Open311's own words for a refused input.
        input_guard.register_refusal_answer("/open311/", open311.refusal_answer)
        # make run's demo data: the Open311 key and the waiting reports.
        demo.register(self, "intake.demo")
        # The triage list's export the worker makes in the background.
        exports.register(reports.REPORTS_EXPORT)
