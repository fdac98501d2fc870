"""The kernel's models move from cases (issue 30) with their tables: the
chronology (CaseEvent, cases_caseevent with its append-only trigger), the SMO's
delegations and the citation table. The state moves here, cases 0039 lets go of
it, no row is touched but the content types' app label."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

from kernel.model_moves import move_content_types


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("cases", "0038_respondent_page_moves_to_portal"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Citation",
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
                        ("rule_id", models.CharField(max_length=16, unique=True)),
                        (
                            "section",
                            models.CharField(help_text="e.g. § 132-14", max_length=40),
                        ),
                        ("heading", models.CharField(max_length=200)),
                        (
                            "summary",
                            models.TextField(help_text="The rule in plain words."),
                        ),
                        (
                            "notice_text",
                            models.TextField(
                                blank=True,
                                help_text="The wording printed on notices that rely on this rule.",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "cases_citation",
                        "ordering": ["rule_id"],
                    },
                ),
                migrations.CreateModel(
                    name="Delegation",
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
                            "powers",
                            models.TextField(
                                help_text="Which powers or duties are delegated."
                            ),
                        ),
                        ("starts_on", models.DateField()),
                        ("ends_on", models.DateField(blank=True, null=True)),
                        (
                            "instrument",
                            models.CharField(
                                help_text="The written instrument (letter, resolution) and its date.",
                                max_length=200,
                            ),
                        ),
                        (
                            "created_at",
                            models.DateTimeField(default=django.utils.timezone.now),
                        ),
                        ("ended_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "delegate",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="delegations",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "ended_by",
                            models.ForeignKey(
                                blank=True,
                                help_text="Who ended the delegation before its end date.",
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "granted_by",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "cases_delegation",
                        "ordering": ["-starts_on"],
                    },
                ),
                migrations.CreateModel(
                    name="CaseEvent",
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
                            "at",
                            models.DateTimeField(
                                db_index=True, default=django.utils.timezone.now
                            ),
                        ),
                        (
                            "actor_kind",
                            models.CharField(
                                choices=[
                                    ("staff", "Village staff"),
                                    ("respondent", "The respondent, online"),
                                    ("public", "A member of the public"),
                                    ("system", "The system"),
                                ],
                                default="system",
                                help_text="Who acted: staff (then `actor` names them), the respondent, the public or the system.",
                                max_length=12,
                            ),
                        ),
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("opened", "Case opened"),
                                    ("report", "Report"),
                                    ("transition", "Status change"),
                                    ("note", "Note"),
                                    ("attachment", "Attachment"),
                                    ("party", "Party"),
                                    ("edit", "Case details changed"),
                                    ("deadline", "Deadline"),
                                    ("reminder", "Reminder sent"),
                                    ("inspection", "Inspection"),
                                    ("spill", "Spill notification"),
                                    ("outfall", "Outfall screening"),
                                    ("notice", "Notice of violation"),
                                    ("appeal", "Appeal"),
                                    ("enforcement", "Enforcement"),
                                    ("document", "Document"),
                                    ("merge", "Merge"),
                                    ("portal", "Respondent's page"),
                                ],
                                max_length=16,
                            ),
                        ),
                        ("summary", models.CharField(max_length=300)),
                        ("detail", models.TextField(blank=True)),
                        ("from_status", models.CharField(blank=True, max_length=32)),
                        ("to_status", models.CharField(blank=True, max_length=32)),
                        ("rule_id", models.CharField(blank=True, max_length=16)),
                        (
                            "public",
                            models.BooleanField(
                                default=False,
                                help_text="Shown to the resident on the public status page.",
                            ),
                        ),
                        (
                            "object_id",
                            models.PositiveBigIntegerField(blank=True, null=True),
                        ),
                        (
                            "actor",
                            models.ForeignKey(
                                blank=True,
                                help_text="Empty for the system, a respondent or a member of the public.",
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "case",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="events",
                                to="cases.case",
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
                            "premises",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="events",
                                to="cases.premises",
                            ),
                        ),
                        (
                            "delegation",
                            models.ForeignKey(
                                blank=True,
                                help_text="The SMO's written delegation the actor acted under (R-ADM-1).",
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="events",
                                to="kernel.delegation",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "cases_caseevent",
                        "ordering": ["at", "id"],
                    },
                ),
                migrations.AddConstraint(
                    model_name="delegation",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            ("ends_on__isnull", True),
                            ("ends_on__gte", models.F("starts_on")),
                            _connector="OR",
                        ),
                        name="delegation_ends_on_or_after_its_start",
                    ),
                ),
                migrations.AddIndex(
                    model_name="caseevent",
                    index=models.Index(
                        fields=["case", "at"], name="cases_casee_case_id_d4909f_idx"
                    ),
                ),
                migrations.AddIndex(
                    model_name="caseevent",
                    index=models.Index(
                        fields=["premises", "at"], name="cases_casee_premise_a0e33a_idx"
                    ),
                ),
                migrations.AddIndex(
                    model_name="caseevent",
                    index=models.Index(
                        fields=["content_type", "object_id", "at"],
                        name="cases_casee_content_9dd492_idx",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="caseevent",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            ("case__isnull", False),
                            ("premises__isnull", False),
                            ("object_id__isnull", False),
                            _connector="OR",
                        ),
                        name="event_belongs_to_a_record",
                    ),
                ),
            ],
            database_operations=[],
        ),
        move_content_types("cases", "kernel", ["caseevent", "citation", "delegation"]),
    ]
