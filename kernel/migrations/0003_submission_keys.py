"""The keys that make a record sent twice one record (kernel.idempotency, issue 31)."""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("kernel", "0002_event_kinds_registered_by_their_apps"),
    ]

    operations = [
        migrations.CreateModel(
            name="SubmissionKey",
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
                    "scope",
                    models.CharField(
                        help_text="The kind of record sent.", max_length=40
                    ),
                ),
                ("key", models.CharField(max_length=64)),
                (
                    "digest",
                    models.CharField(
                        help_text="SHA-256 of the contents sent with the key.",
                        max_length=64,
                    ),
                ),
                ("object_id", models.PositiveBigIntegerField(blank=True, null=True)),
                (
                    "received_at",
                    models.DateTimeField(default=django.utils.timezone.now),
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
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("scope", "key"), name="submission_key_once"
                    )
                ],
            },
        ),
    ]
