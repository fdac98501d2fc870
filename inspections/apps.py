from django.apps import AppConfig


class InspectionsConfig(AppConfig):
    name = "inspections"

    def ready(self):
        # Register the document builders of inspection reports and warrant
        # application cover sheets (cases.documents.registry).
        from . import documents  # noqa: F401
