from django.apps import AppConfig


class EnforcementConfig(AppConfig):
    name = "enforcement"

    def ready(self):
        # Register the document builders (cases.documents.registry) of notices,
        # appeals, corrective measures, suspensions and terminations.
        # The lists' exports the worker makes in the background (jobs.registry).
        from cases import exports

        from . import documents, hearing_documents  # noqa: F401
        from .views import appeals, notices

        exports.register(notices.NOTICES_EXPORT, appeals.APPEALS_EXPORT)
