from django.apps import AppConfig


class FieldworkConfig(AppConfig):
    """An inspector's day without signal (issue 31): the day's work downloaded
    to the phone, the records made there received once each, and those the
    office changed meanwhile kept for the SMO to decide."""

    name = "fieldwork"
    verbose_name = "Field work offline"

    def ready(self):
        from kernel.models import register_event_kinds

        register_event_kinds([("fieldwork", "Field work sent from a phone")])
        # make run's demo data.
        from kernel import demo

        demo.register(self, "fieldwork.demo")
