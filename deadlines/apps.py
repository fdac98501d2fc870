from django.apps import AppConfig


class DeadlinesConfig(AppConfig):
    """The legal clocks every case app uses (issue 30): the § 24 business
    calendar and the one engine (pure Python), the stored deadlines and the
    office's closures, reminders and the staff digest through the outbox, the
    deadline list and calendar feeds. What each step of a case means for its
    clocks is the clock table (cases.clocks), which calls the services here;
    other apps add their events to the feeds (ical.register_provider)."""

    name = "deadlines"
    verbose_name = "Deadlines and reminders"

    def ready(self):
        from jobs import exports
        from kernel.models import register_event_kinds
        from outbox.models import OutgoingMessage
        from outbox.services import register_composer

        from . import reminders, views

        register_event_kinds([("deadline", "Deadline"), ("reminder", "Reminder sent")])

        # Reminders and digests are composed when they are sent, from the
        # deadlines as they are then.
        register_composer(OutgoingMessage.Kind.REMINDER, reminders.compose_reminder)
        register_composer(OutgoingMessage.Kind.DIGEST, reminders.compose_digest)
        # The deadline list's export the worker makes in the background.
        exports.register(views.DEADLINES_EXPORT)
