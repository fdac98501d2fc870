"""The respondent's page's models move from cases to portal (issue 30) with their
tables: the state moves here, cases 0038 lets go of it, no row is touched but the
content types' app label."""

import django.db.models.deletion
import django.utils.timezone
import django_fsm
from django.conf import settings
from django.db import migrations, models

from kernel.model_moves import move_content_types


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("cases", "0037_annual_report_moves_to_reporting"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("enforcement", "0017_remedy_payments_on_the_ledger"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="CorrectionSubmission",
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
                            "submitted_at",
                            models.DateTimeField(default=django.utils.timezone.now),
                        ),
                        (
                            "submitted_from",
                            models.GenericIPAddressField(blank=True, null=True),
                        ),
                        ("decided_at", models.DateTimeField(blank=True, null=True)),
                        ("reason", models.TextField(blank=True)),
                        ("statement", models.TextField(blank=True)),
                        (
                            "status",
                            django_fsm.FSMField(
                                choices=[
                                    (
                                        "pending",
                                        "Waiting for the Stormwater Management Officer's review",
                                    ),
                                    ("accepted", "Accepted"),
                                    ("rejected", "Not accepted"),
                                ],
                                db_index=True,
                                default="pending",
                                max_length=10,
                            ),
                        ),
                        (
                            "decided_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "notice",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="correction_submissions",
                                to="enforcement.noticeofviolation",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "proof of correction",
                        "verbose_name_plural": "proofs of correction",
                        "db_table": "cases_correctionsubmission",
                        "ordering": ["-submitted_at", "-id"],
                        "abstract": False,
                    },
                ),
                migrations.CreateModel(
                    name="CorrectionFile",
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
                            "original",
                            models.FileField(upload_to="private/correction-originals/"),
                        ),
                        ("original_sha256", models.CharField(max_length=64)),
                        ("original_name", models.CharField(max_length=200)),
                        ("content_type", models.CharField(max_length=100)),
                        ("size", models.PositiveIntegerField()),
                        (
                            "display",
                            models.ImageField(
                                blank=True, upload_to="private/correction-display/"
                            ),
                        ),
                        ("width", models.PositiveIntegerField(blank=True, null=True)),
                        ("height", models.PositiveIntegerField(blank=True, null=True)),
                        (
                            "submission",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="files",
                                to="portal.correctionsubmission",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "cases_correctionfile",
                        "ordering": ["id"],
                    },
                ),
                migrations.CreateModel(
                    name="PortalAccess",
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
                        ("code", models.CharField(max_length=16, unique=True)),
                        (
                            "issued_at",
                            models.DateTimeField(default=django.utils.timezone.now),
                        ),
                        ("first_used_at", models.DateTimeField(blank=True, null=True)),
                        ("last_used_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "last_used_from",
                            models.GenericIPAddressField(blank=True, null=True),
                        ),
                        ("revoked_at", models.DateTimeField(blank=True, null=True)),
                        ("revoked_reason", models.TextField(blank=True)),
                        (
                            "reminder_email",
                            models.EmailField(blank=True, max_length=254),
                        ),
                        (
                            "reminders_since",
                            models.DateTimeField(blank=True, null=True),
                        ),
                        (
                            "case",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="portal_accesses",
                                to="cases.case",
                            ),
                        ),
                        (
                            "issued_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "party",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="portal_accesses",
                                to="cases.party",
                            ),
                        ),
                        (
                            "revoked_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "access code of the respondent's page",
                        "db_table": "cases_portalaccess",
                        "ordering": ["-issued_at", "-id"],
                    },
                ),
                migrations.AddField(
                    model_name="correctionsubmission",
                    name="access",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="corrections",
                        to="portal.portalaccess",
                    ),
                ),
                migrations.CreateModel(
                    name="ContactChangeRequest",
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
                            "submitted_at",
                            models.DateTimeField(default=django.utils.timezone.now),
                        ),
                        (
                            "submitted_from",
                            models.GenericIPAddressField(blank=True, null=True),
                        ),
                        ("decided_at", models.DateTimeField(blank=True, null=True)),
                        ("reason", models.TextField(blank=True)),
                        ("mailing_address", models.TextField(blank=True)),
                        ("email", models.EmailField(blank=True, max_length=254)),
                        ("phone", models.CharField(blank=True, max_length=40)),
                        (
                            "status",
                            django_fsm.FSMField(
                                choices=[
                                    (
                                        "pending",
                                        "Waiting for the Stormwater Management Officer's review",
                                    ),
                                    (
                                        "confirmed",
                                        "Confirmed: the address of record is changed",
                                    ),
                                    ("declined", "Declined"),
                                ],
                                db_index=True,
                                default="pending",
                                max_length=10,
                            ),
                        ),
                        (
                            "decided_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "access",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="contact_requests",
                                to="portal.portalaccess",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "cases_contactchangerequest",
                        "ordering": ["-submitted_at", "-id"],
                        "abstract": False,
                    },
                ),
                migrations.AddConstraint(
                    model_name="portalaccess",
                    constraint=models.UniqueConstraint(
                        condition=models.Q(("revoked_at__isnull", True)),
                        fields=("case", "party"),
                        name="one_live_access_code_per_party_and_case",
                    ),
                ),
            ],
            database_operations=[],
        ),
        move_content_types(
            "cases",
            "portal",
            [
                "portalaccess",
                "contactchangerequest",
                "correctionsubmission",
                "correctionfile",
            ],
        ),
    ]
