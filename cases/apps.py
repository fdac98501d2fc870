from django.apps import AppConfig


class CasesConfig(AppConfig):
    name = "cases"
    verbose_name = "Cases"

    def ready(self):
        from django.db.models.signals import post_migrate

        from intake import public_status
        from kernel import demo, workflow

        # The binding steps' confirmations register with kernel.confirmations.
        from . import clocks, confirmations, public_progress, reference_data  # noqa: F401

        # A flushed database (transactional tests) gets its reference rows back.
        post_migrate.connect(reference_data.ensure_reference_data, sender=self)
        # The kinds of chronology entry cases writes.
        from kernel.models import register_event_kinds

        from .models import EventKind

        register_event_kinds(EventKind.choices)
        # make run's demo cases.
        demo.register(self, "cases.demo_cases")
        # What every step means for the legal clocks (kernel.workflow runs it in
        # the step's transaction).
        workflow.register_step_hook(clocks.apply)
        # What a case's progress means to the residents who reported it (the
        # status page, their e-mails, Open311).
        public_status.register_case_progress(public_progress.PROGRESS)

        # The case list's export the worker makes in the background (jobs.registry).
        from jobs import exports

        from .views import staff

        exports.register(staff.CASES_EXPORT)
        # The case page's one presence query, for the apps below that read a
        # case's records on it (the deadlines' reminders).
        from kernel import page_reads

        from .selectors import _presence_of

        page_reads.register(page_reads.PRESENCE, _presence_of)
