from django.apps import AppConfig


class CasesConfig(AppConfig):
    name = "cases"
    verbose_name = "Cases and reports"

    def ready(self):
        from django.db.models.signals import post_migrate

        from kernel import demo, input_guard, workflow

        # The binding steps' confirmations register with kernel.confirmations.
        from . import clocks, confirmations, reference_data  # noqa: F401
        from .open311 import serializers as open311

        # A flushed database (transactional tests) gets its reference rows back.
        post_migrate.connect(reference_data.ensure_reference_data, sender=self)
        # The kinds of chronology entry cases writes.
        from kernel.models import register_event_kinds

        from .models import EventKind

        register_event_kinds(EventKind.choices)
        # make run's demo data: staff and the Open311 key, reports, cases.
        demo.register(self, "cases.demo", "cases.demo_reports", "cases.demo_cases")
        # What every step means for the legal clocks (kernel.workflow runs it in
        # the step's transaction), and Open311's own words for a refused input.
        workflow.register_step_hook(clocks.apply)
        input_guard.register_refusal_answer("/open311/", open311.refusal_answer)

        # The lists' exports the worker makes in the background (jobs.registry).
        from jobs import exports

        from .views import reports, staff

        exports.register(staff.CASES_EXPORT, reports.REPORTS_EXPORT)
        # The case page's one presence query, for the apps below that read a
        # case's records on it (the deadlines' reminders).
        from kernel import page_reads

        from .selectors import _presence_of

        page_reads.register(page_reads.PRESENCE, _presence_of)
