from django.apps import AppConfig


class OutboxConfig(AppConfig):
    """The outbox every case app sends e-mail through (issue 30): one row per
    e-mail, written in the transaction of the change that causes it, delivered
    by the worker with retries, and the SMO's page of failed deliveries. Kinds
    composed at sending time (reminders, digests) are registered by the app
    that owns them (outbox.services.register_composer)."""

    name = "outbox"
    verbose_name = "Outbox"
