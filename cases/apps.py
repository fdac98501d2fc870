from django.apps import AppConfig


class CasesConfig(AppConfig):
    name = "cases"
    verbose_name = "Cases, reports and deadlines"

    def ready(self):
        from django.db.models.signals import post_migrate

        from . import reference_data, roles

        # New models get their permissions after migrate; keep the role groups in
        # step with the table in roles.py (the one place that says who may do what).
        post_migrate.connect(roles.sync_role_permissions, sender=self)
        # A flushed database (transactional tests) gets its reference rows back.
        post_migrate.connect(reference_data.ensure_reference_data, sender=self)

        # The lists' exports the worker makes in the background (jobs.registry).
        from . import exports
        from .deadlines import views as deadline_views
        from .views import reports, staff

        exports.register(
            staff.CASES_EXPORT, reports.REPORTS_EXPORT, deadline_views.DEADLINES_EXPORT
        )
