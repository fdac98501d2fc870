"""The deadlines move from cases to their own app (issue 30) with their tables
(cases_deadline, cases_reminder, cases_staffdigest, cases_officeclosure and
cases_calendarfeedtoken, their indexes, constraints and rows): the state moves
here, inspections 0003 points the spill's three links here, cases 0042 lets go;
no row is touched but the content types' app label."""

import deadlines.models
import django.db.models.deletion
import django.utils.timezone
import django_fsm
from django.conf import settings
from django.db import migrations, models

from kernel.model_moves import move_content_types


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("cases", "0041_outbox_moves_to_outbox"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="CalendarFeedToken",
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
                            "token",
                            models.CharField(
                                default=deadlines.models.new_feed_token,
                                max_length=64,
                                unique=True,
                            ),
                        ),
                        (
                            "created_at",
                            models.DateTimeField(default=django.utils.timezone.now),
                        ),
                        (
                            "user",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="ical_token",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "cases_calendarfeedtoken",
                    },
                ),
                migrations.CreateModel(
                    name="Deadline",
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
                        ("rule_id", models.CharField(db_index=True, max_length=16)),
                        ("label", models.CharField(max_length=200)),
                        (
                            "counts_from",
                            models.CharField(
                                help_text="The event the period counts from.",
                                max_length=200,
                            ),
                        ),
                        ("event_date", models.DateField()),
                        ("due_date", models.DateField(db_index=True)),
                        ("explanation", models.TextField()),
                        ("method", models.CharField(max_length=40)),
                        ("params", models.JSONField(blank=True, default=dict)),
                        (
                            "responsible",
                            models.CharField(
                                choices=[
                                    ("smo", "Stormwater Management Officer"),
                                    ("clerk", "Municipal clerk"),
                                    ("board", "Board of Trustees"),
                                    ("discharger", "Discharger / responsible party"),
                                    ("facility", "Facility"),
                                ],
                                max_length=12,
                            ),
                        ),
                        (
                            "notify_email",
                            models.EmailField(
                                blank=True,
                                help_text="The discharger's address, for their own duties.",
                                max_length=254,
                            ),
                        ),
                        (
                            "status",
                            django_fsm.FSMField(
                                choices=[
                                    ("open", "Open"),
                                    ("met", "Met"),
                                    ("missed", "Missed"),
                                    ("waived", "Waived"),
                                    ("replaced", "Replaced by a later date"),
                                    ("ended", "No longer running"),
                                ],
                                db_index=True,
                                default="open",
                                max_length=8,
                            ),
                        ),
                        ("met_on", models.DateField(blank=True, null=True)),
                        (
                            "waived_reason",
                            models.TextField(
                                blank=True,
                                help_text="Why it was waived, replaced or ended.",
                            ),
                        ),
                        (
                            "object_id",
                            models.PositiveBigIntegerField(blank=True, null=True),
                        ),
                        (
                            "purpose",
                            models.SlugField(
                                blank=True,
                                help_text="Tells apart two deadlines of one rule on one record (R-APL-3: 'file' and 'mail').",
                                max_length=40,
                            ),
                        ),
                        (
                            "created_at",
                            models.DateTimeField(default=django.utils.timezone.now),
                        ),
                        (
                            "assigned_to",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="deadlines",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "case",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="deadlines",
                                to="cases.case",
                            ),
                        ),
                        (
                            "closed_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "content_type",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                to="contenttypes.contenttype",
                            ),
                        ),
                        (
                            "created_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "replaced_by",
                            models.ForeignKey(
                                blank=True,
                                help_text="The deadline that took this one's place (status replaced).",
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="replaces",
                                to="deadlines.deadline",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "cases_deadline",
                        "ordering": ["due_date", "id"],
                    },
                ),
                migrations.CreateModel(
                    name="OfficeClosure",
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
                        ("day", models.DateField(unique=True)),
                        ("reason", models.CharField(max_length=120)),
                        (
                            "created_at",
                            models.DateTimeField(default=django.utils.timezone.now),
                        ),
                        (
                            "created_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "cases_officeclosure",
                        "ordering": ["day"],
                    },
                ),
                migrations.CreateModel(
                    name="Reminder",
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
                                help_text="e.g. before-5, before-1, due-today, overdue",
                                max_length=20,
                            ),
                        ),
                        ("recipient", models.EmailField(max_length=254)),
                        (
                            "created_at",
                            models.DateTimeField(default=django.utils.timezone.now),
                        ),
                        ("sent_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "deadline",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="reminders",
                                to="deadlines.deadline",
                            ),
                        ),
                        (
                            "recipient_user",
                            models.ForeignKey(
                                blank=True,
                                help_text="Empty when the recipient is the discharger.",
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "cases_reminder",
                        "ordering": ["-created_at"],
                    },
                ),
                migrations.CreateModel(
                    name="StaffDigest",
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
                        ("day", models.DateField()),
                        ("recipient", models.EmailField(max_length=254)),
                        (
                            "created_at",
                            models.DateTimeField(default=django.utils.timezone.now),
                        ),
                        (
                            "sent_at",
                            models.DateTimeField(
                                blank=True,
                                help_text="Done: sent, or nothing was due.",
                                null=True,
                            ),
                        ),
                        (
                            "deadline_count",
                            models.PositiveIntegerField(
                                default=0,
                                help_text="Deadlines listed; 0 = nothing due, no e-mail sent.",
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                blank=True,
                                help_text="Empty for an address of STAFF_DIGEST_RECIPIENTS.",
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "cases_staffdigest",
                        "ordering": ["-day", "recipient"],
                    },
                ),
                migrations.AddIndex(
                    model_name="deadline",
                    index=models.Index(
                        condition=models.Q(("status", "open")),
                        fields=["due_date"],
                        name="deadline_open_due",
                    ),
                ),
                migrations.AddIndex(
                    model_name="deadline",
                    index=models.Index(
                        fields=["content_type", "object_id"],
                        name="cases_deadl_content_abf202_idx",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="deadline",
                    constraint=models.UniqueConstraint(
                        condition=models.Q(("status", "open")),
                        fields=("content_type", "object_id", "rule_id", "purpose"),
                        name="one_open_deadline_per_source_rule_purpose",
                    ),
                ),
                migrations.AddIndex(
                    model_name="reminder",
                    index=models.Index(
                        condition=models.Q(("sent_at__isnull", True)),
                        fields=["created_at"],
                        name="reminder_unsent",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="reminder",
                    constraint=models.UniqueConstraint(
                        fields=("deadline", "kind", "recipient"),
                        name="one_reminder_per_kind",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="staffdigest",
                    constraint=models.UniqueConstraint(
                        fields=("recipient", "day"), name="one_digest_per_recipient_day"
                    ),
                ),
            ],
            database_operations=[],
        ),
        move_content_types(
            "cases",
            "deadlines",
            [
                "deadline",
                "reminder",
                "staffdigest",
                "officeclosure",
                "calendarfeedtoken",
            ],
        ),
    ]
