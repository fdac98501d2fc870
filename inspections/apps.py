from django.apps import AppConfig


class InspectionsConfig(AppConfig):
    name = "inspections"

    def ready(self):
        # Register the document builders of inspection reports and warrant
        # application cover sheets (documents.registry).
        # The lists' exports the worker makes in the background (jobs.registry).
        # The case page asks in one query which of its panels have records.
        # A case's exemption relies on an SMO written approval in force (R-PRO-3).
        from cases.models.case import register_approval_check
        from cases.selectors import register_panel_records
        from deadlines import ical
        from jobs import exports
        from kernel import demo
        from kernel.models import register_event_kinds

        from . import documents, ical_feed  # noqa: F401
        from .selectors import approval_in_force, case_record_sets
        from .views import fieldwork, outfalls

        exports.register(fieldwork.INSPECTIONS_EXPORT, outfalls.OUTFALLS_EXPORT)
        register_panel_records(case_record_sets)
        register_approval_check(approval_in_force)
        demo.register(self, "inspections.demo")  # make run's demo data
        register_event_kinds(
            [
                ("inspection", "Inspection"),
                ("spill", "Spill notification"),
                ("outfall", "Outfall screening"),
            ]
        )
        # Inspections on the staff's calendar feeds.
        ical.register_provider(ical_feed)
