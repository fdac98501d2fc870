from django.apps import AppConfig


class InspectionsConfig(AppConfig):
    name = "inspections"

    def ready(self):
        # Register the document builders of inspection reports and warrant
        # application cover sheets (cases.documents.registry).
        # The lists' exports the worker makes in the background (jobs.registry).
        from cases import exports

        from . import documents  # noqa: F401
        from .views import fieldwork, outfalls

        exports.register(fieldwork.INSPECTIONS_EXPORT, outfalls.OUTFALLS_EXPORT)
