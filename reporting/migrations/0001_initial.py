"""The annual report's models move from cases to reporting (issue 30) with their
tables: the state moves here, cases 0037 lets go of it, no row is touched but the
content types' app label (documents point at them)."""

import django.db.models.deletion
import django.utils.timezone
import django_fsm
from django.conf import settings
from django.db import migrations, models

from kernel.model_moves import move_content_types


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("cases", "0036_portal_request_machines"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="AnnualReport",
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
                            "year",
                            models.PositiveSmallIntegerField(
                                db_index=True,
                                help_text="The year the reporting year starts in.",
                            ),
                        ),
                        ("version", models.PositiveSmallIntegerField(default=1)),
                        (
                            "as_of",
                            models.DateTimeField(
                                help_text="The moment the records were read: later records do not count."
                            ),
                        ),
                        ("counts", models.JSONField(default=dict)),
                        (
                            "record_ids",
                            models.JSONField(
                                default=dict,
                                help_text="Per count, the ids of the records it is made of.",
                            ),
                        ),
                        ("per_month", models.JSONField(default=list)),
                        ("elimination_days", models.JSONField(default=list)),
                        (
                            "status",
                            django_fsm.FSMField(
                                choices=[
                                    ("draft", "Frozen, not published"),
                                    ("published", "Draft published for public comment"),
                                    ("final", "Final"),
                                ],
                                default="draft",
                                max_length=10,
                                protected=True,
                            ),
                        ),
                        ("comment_opens_on", models.DateField(blank=True, null=True)),
                        ("comment_closes_on", models.DateField(blank=True, null=True)),
                        ("published_at", models.DateTimeField(blank=True, null=True)),
                        ("finalized_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "comment_summary",
                            models.TextField(
                                blank=True,
                                help_text="The final version's summary of the comments received.",
                            ),
                        ),
                        (
                            "created_at",
                            models.DateTimeField(default=django.utils.timezone.now),
                        ),
                        (
                            "created_by",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "cases_annualreport",
                        "ordering": ["-year", "-version"],
                    },
                    bases=(django_fsm.ConcurrentTransitionMixin, models.Model),
                ),
                migrations.CreateModel(
                    name="AnnualReportComment",
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
                        ("received_on", models.DateField()),
                        ("text", models.TextField(max_length=4000)),
                        (
                            "commenter",
                            models.CharField(
                                blank=True,
                                help_text="Never shown on the public page.",
                                max_length=120,
                            ),
                        ),
                        (
                            "channel",
                            models.CharField(
                                choices=[
                                    ("staff", "Recorded by staff"),
                                    ("public_form", "Sent through the public page"),
                                ],
                                default="staff",
                                max_length=12,
                            ),
                        ),
                        (
                            "recorded_at",
                            models.DateTimeField(default=django.utils.timezone.now),
                        ),
                        (
                            "recorded_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "report",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="comments",
                                to="reporting.annualreport",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "cases_annualreportcomment",
                        "ordering": ["received_on", "id"],
                    },
                ),
                migrations.AddConstraint(
                    model_name="annualreport",
                    constraint=models.UniqueConstraint(
                        fields=("year", "version"), name="one_annual_report_version"
                    ),
                ),
            ],
            database_operations=[],
        ),
        move_content_types(
            "cases", "reporting", ["annualreport", "annualreportcomment"]
        ),
    ]
