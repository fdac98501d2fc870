from django.apps import AppConfig


class EnforcementConfig(AppConfig):
    name = "enforcement"

    def ready(self):
        # Register the document builders (cases.documents.registry) of notices,
        # appeals, corrective measures, suspensions and terminations.
        from . import documents, hearing_documents  # noqa: F401
