"""The outbox moves from cases to its own app (issue 30) with its table
(cases_outgoingmessage, its indexes and its rows): the state moves here, cases
0041 lets go; no row is touched but the content type's app label."""

import django.db.models.deletion
import django.utils.timezone
import django_fsm
from django.conf import settings
from django.db import migrations, models

from kernel.model_moves import move_content_types


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("cases", "0040_issued_documents_move_to_documents"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="OutgoingMessage",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("receipt", "Report receipt"),
                                    ("status_change", "Report status update"),
                                    ("reminder", "Deadline reminder"),
                                    ("digest", "Staff deadline digest"),
                                    ("document", "Document e-mailed to a party"),
                                    (
                                        "appeal_receipt",
                                        "Receipt of an appeal filed online",
                                    ),
                                ],
                                max_length=16,
                            ),
                        ),
                        (
                            "status",
                            django_fsm.FSMField(
                                choices=[
                                    ("pending", "Waiting to be sent"),
                                    ("sent", "Sent"),
                                    ("failed", "Failed"),
                                    ("skipped", "Cancelled: not needed any more"),
                                ],
                                db_index=True,
                                default="pending",
                                max_length=8,
                                protected=True,
                            ),
                        ),
                        ("recipient", models.EmailField(max_length=254)),
                        (
                            "subject",
                            models.CharField(
                                help_text="What the e-mail says in its subject line (for reminders and digests, composed when it is sent and stored then).",
                                max_length=250,
                            ),
                        ),
                        (
                            "body",
                            models.TextField(
                                blank=True,
                                help_text="The text, rendered when the row was written; empty for kinds composed at sending time (reminders, digests).",
                            ),
                        ),
                        (
                            "cause",
                            models.CharField(
                                help_text="Why it is sent, in words.", max_length=200
                            ),
                        ),
                        (
                            "object_id",
                            models.PositiveBigIntegerField(blank=True, null=True),
                        ),
                        (
                            "created_at",
                            models.DateTimeField(
                                db_index=True, default=django.utils.timezone.now
                            ),
                        ),
                        (
                            "enqueued_at",
                            models.DateTimeField(
                                blank=True,
                                help_text="When the send task was last handed to the broker (or, while it waits to retry, when the retry is due). The sweep hands it again if the row is still pending some minutes after that.",
                                null=True,
                            ),
                        ),
                        ("attempts", models.PositiveSmallIntegerField(default=0)),
                        (
                            "last_attempt_at",
                            models.DateTimeField(blank=True, null=True),
                        ),
                        ("last_error", models.TextField(blank=True)),
                        ("sent_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "closed_reason",
                            models.CharField(
                                blank=True,
                                help_text="Why a skipped row was not sent.",
                                max_length=200,
                            ),
                        ),
                        (
                            "case",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="outgoing_messages",
                                to="cases.case",
                            ),
                        ),
                        (
                            "content_type",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="contenttypes.contenttype",
                            ),
                        ),
                        (
                            "created_by",
                            models.ForeignKey(
                                blank=True,
                                help_text="Empty when the system or a resident caused it.",
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "cases_outgoingmessage",
                        "ordering": ["-created_at", "-id"],
                        "indexes": [
                            models.Index(
                                condition=models.Q(("status", "pending")),
                                fields=["created_at"],
                                name="outbox_pending",
                            ),
                            models.Index(
                                fields=["content_type", "object_id"],
                                name="cases_outgo_content_d7ba91_idx",
                            ),
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=(
                                    "kind",
                                    "content_type",
                                    "object_id",
                                    "recipient",
                                ),
                                name="one_message_per_source_kind_recipient",
                            )
                        ],
                    },
                    bases=(django_fsm.ConcurrentTransitionMixin, models.Model),
                ),
            ],
            database_operations=[],
        ),
        move_content_types("cases", "outbox", ["outgoingmessage"]),
    ]
