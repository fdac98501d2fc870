from django.apps import AppConfig


class KernelConfig(AppConfig):
    """The bottom layer every app uses and that uses none of ours (issue 30):
    the workflow kernel (kernel.workflow, the one refusal), roles and delegations,
    the chronology (kernel.timeline, kernel.models.CaseEvent), the citation table,
    dates and times in words, uploads and the input guard. Where it needs an
    upper app's meaning (the clock table after a step, an interface's own error
    format) it offers a registry the upper app fills in its ready()."""

    name = "kernel"
    verbose_name = "Chronology, delegations and citations"

    def ready(self):
        from django.apps import apps
        from django.db.models.signals import post_migrate

        from . import demo, pg_timestamps, roles

        # PostgreSQL's timestamps read by psycopg's compiled loader (issue 28).
        pg_timestamps.install()

        # make run's demo sign-ins, before every app's demo records.
        demo.register(self, "kernel.demo_users")

        # Keep the role groups in step with the table in roles.py (the one place
        # that says who may do what) once every app's permissions exist: after
        # the post_migrate of the last app with models (each app's permissions
        # are created at its own).
        last = [c for c in apps.get_app_configs() if c.models_module is not None][-1]
        post_migrate.connect(
            roles.sync_role_permissions, sender=last, dispatch_uid="role-permissions"
        )
