from django.apps import AppConfig


class CasesConfig(AppConfig):
    name = "cases"
    verbose_name = "Cases, reports and deadlines"

    def ready(self):
        from django.db.models.signals import post_migrate

        from kernel import input_guard, roles, workflow

        # The binding steps' confirmations register with kernel.confirmations.
        from . import clocks, confirmations, reference_data  # noqa: F401
        from .open311 import serializers as open311

        # New models get their permissions after migrate; keep the role groups in
        # step with the table in roles.py (the one place that says who may do what).
        post_migrate.connect(roles.sync_role_permissions, sender=self)
        # A flushed database (transactional tests) gets its reference rows back.
        post_migrate.connect(reference_data.ensure_reference_data, sender=self)
        # What every step means for the legal clocks (kernel.workflow runs it in
        # the step's transaction), and Open311's own words for a refused input.
        workflow.register_step_hook(clocks.apply)
        # The reminders and the staff digests are composed when they are sent,
        # from the deadlines as they are then.
        from outbox.models import OutgoingMessage
        from outbox.services import register_composer

        from .deadlines import reminders

        register_composer(OutgoingMessage.Kind.REMINDER, reminders.compose_reminder)
        register_composer(OutgoingMessage.Kind.DIGEST, reminders.compose_digest)
        input_guard.register_refusal_answer("/open311/", open311.refusal_answer)

        # The lists' exports the worker makes in the background (jobs.registry).
        from jobs import exports

        from .deadlines import views as deadline_views
        from .views import reports, staff

        exports.register(
            staff.CASES_EXPORT, reports.REPORTS_EXPORT, deadline_views.DEADLINES_EXPORT
        )
