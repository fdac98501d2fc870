"""factory_boy factories for the outbox, one Trait per delivery state."""

import factory
from django.contrib.contenttypes.models import ContentType
from django.utils import timezone

from outbox.models import OutgoingMessage
from tests.cases.factories import ReportFactory


class OutgoingMessageFactory(factory.django.DjangoModelFactory):
    """A receipt about a report (the simplest kind: its text is stored)."""

    class Meta:
        model = OutgoingMessage
        exclude = ["report"]

    report = factory.SubFactory(ReportFactory, reporter_email="ann@example.org")
    kind = OutgoingMessage.Kind.RECEIPT
    content_type = factory.LazyFunction(
        lambda: ContentType.objects.get_for_model(ReportFactory._meta.model)
    )
    object_id = factory.LazyAttribute(lambda o: o.report.pk)
    recipient = factory.Sequence(lambda n: f"resident{n}@example.org")
    subject = factory.LazyAttribute(
        lambda o: f"Your stormwater report {o.report.tracking_code}"
    )
    body = "Thank you for your report."
    cause = factory.LazyAttribute(
        lambda o: f"Receipt of report {o.report.tracking_code}"
    )

    class Params:
        failed = factory.Trait(
            status=OutgoingMessage.Status.FAILED,
            attempts=6,
            last_attempt_at=factory.LazyFunction(timezone.now),
            last_error="ConnectionRefusedError: [Errno 111] Connection refused",
        )
        sent = factory.Trait(
            status=OutgoingMessage.Status.SENT,
            attempts=1,
            sent_at=factory.LazyFunction(timezone.now),
        )
        skipped = factory.Trait(
            status=OutgoingMessage.Status.SKIPPED, closed_reason="Not needed."
        )
