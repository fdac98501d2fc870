"""Resident intake moves from cases to its own app (issue 30) with its tables
(cases_report, cases_reportphoto, cases_apikey, cases_reportnotification,
cases_pollutantcategory, cases_exemptcategory, the reports' category table), their
indexes and rows: the state moves here, cases 0043 lets go; no row is touched but
the content types' app label."""

import django.core.validators
import django.db.models.deletion
import django.utils.timezone
import intake.models.reports
from django.conf import settings
from django.db import migrations, models

from kernel.model_moves import move_content_types


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("cases", "0042_deadlines_move_to_deadlines"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="ApiKey",
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
                        ("client_name", models.CharField(max_length=120)),
                        (
                            "key_hash",
                            models.CharField(
                                editable=False, max_length=64, unique=True
                            ),
                        ),
                        (
                            "key_prefix",
                            models.CharField(
                                editable=False,
                                help_text="The first characters of the key, to recognise it; not the key.",
                                max_length=8,
                                verbose_name="key starts with",
                            ),
                        ),
                        (
                            "contact_email",
                            models.EmailField(blank=True, max_length=254),
                        ),
                        (
                            "reports_per_hour",
                            models.PositiveIntegerField(
                                default=100,
                                help_text="How many reports this client may send in an hour. An aggregator forwarding many residents from one server may need more.",
                                validators=[
                                    django.core.validators.MinValueValidator(1)
                                ],
                                verbose_name="reports an hour",
                            ),
                        ),
                        ("active", models.BooleanField(default=True)),
                        (
                            "created_at",
                            models.DateTimeField(default=django.utils.timezone.now),
                        ),
                        ("revoked_at", models.DateTimeField(blank=True, null=True)),
                    ],
                    options={
                        "verbose_name": "Open311 API key",
                        "db_table": "cases_apikey",
                    },
                ),
                migrations.CreateModel(
                    name="ExemptCategory",
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
                        ("code", models.SlugField(max_length=40, unique=True)),
                        ("name", models.CharField(max_length=120)),
                        ("plain_description", models.CharField(max_length=300)),
                        ("substantial_contributor", models.BooleanField(default=False)),
                        (
                            "determined_by",
                            models.CharField(
                                blank=True,
                                help_text="Who determined it a substantial contributor (the Department or the municipality).",
                                max_length=120,
                            ),
                        ),
                        ("determined_on", models.DateField(blank=True, null=True)),
                        ("sort_order", models.PositiveSmallIntegerField(default=100)),
                    ],
                    options={
                        "verbose_name_plural": "exempt categories",
                        "db_table": "cases_exemptcategory",
                        "ordering": ["sort_order", "name"],
                    },
                ),
                migrations.CreateModel(
                    name="PollutantCategory",
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
                        ("code", models.SlugField(max_length=40, unique=True)),
                        ("name", models.CharField(max_length=120)),
                        (
                            "plain_name",
                            models.CharField(
                                help_text="How a resident would say it on the report form.",
                                max_length=200,
                            ),
                        ),
                        (
                            "hazardous",
                            models.BooleanField(
                                default=False,
                                help_text="A hazardous material (R-DEF-1): the form repeats the 911 warning.",
                            ),
                        ),
                        ("active", models.BooleanField(default=True)),
                        ("sort_order", models.PositiveSmallIntegerField(default=100)),
                    ],
                    options={
                        "verbose_name_plural": "pollutant categories",
                        "db_table": "cases_pollutantcategory",
                        "ordering": ["sort_order", "name"],
                    },
                ),
                migrations.CreateModel(
                    name="Report",
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
                            "tracking_code",
                            models.CharField(
                                default=intake.models.reports.new_tracking_code,
                                editable=False,
                                max_length=16,
                                unique=True,
                            ),
                        ),
                        (
                            "channel",
                            models.CharField(
                                choices=[
                                    ("web", "Online form"),
                                    ("open311", "Open311 client"),
                                    ("phone", "Telephone (entered by staff)"),
                                    ("walk_in", "Walk-in (entered by staff)"),
                                    ("email", "E-mail (entered by staff)"),
                                ],
                                max_length=10,
                            ),
                        ),
                        (
                            "received_at",
                            models.DateTimeField(
                                db_index=True, default=django.utils.timezone.now
                            ),
                        ),
                        ("description", models.TextField(max_length=4000)),
                        ("colour", models.CharField(blank=True, max_length=60)),
                        ("odour", models.CharField(blank=True, max_length=60)),
                        ("sheen", models.BooleanField(default=False)),
                        ("suds", models.BooleanField(default=False)),
                        ("floatables", models.BooleanField(default=False)),
                        (
                            "flow",
                            models.CharField(
                                blank=True,
                                choices=[
                                    ("", "Don't know"),
                                    ("dry", "Flowing in dry weather"),
                                    ("wet", "Only while it rains"),
                                    ("none", "Not flowing"),
                                ],
                                max_length=4,
                            ),
                        ),
                        ("observed_at", models.DateTimeField(blank=True, null=True)),
                        ("address", models.CharField(blank=True, max_length=200)),
                        (
                            "latitude",
                            models.DecimalField(
                                blank=True, decimal_places=6, max_digits=9, null=True
                            ),
                        ),
                        (
                            "longitude",
                            models.DecimalField(
                                blank=True, decimal_places=6, max_digits=9, null=True
                            ),
                        ),
                        ("reporter_name", models.CharField(blank=True, max_length=120)),
                        (
                            "reporter_email",
                            models.EmailField(blank=True, max_length=254),
                        ),
                        ("reporter_phone", models.CharField(blank=True, max_length=40)),
                        ("wants_updates", models.BooleanField(default=False)),
                        ("service_code", models.CharField(blank=True, max_length=40)),
                        (
                            "media_url",
                            models.URLField(
                                blank=True,
                                help_text="A photo link an Open311 client sent; never fetched by the server.",
                                max_length=500,
                            ),
                        ),
                        ("attached_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "api_client",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="intake.apikey",
                            ),
                        ),
                        (
                            "case",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="reports",
                                to="cases.case",
                            ),
                        ),
                        (
                            "entered_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "pollutant_categories",
                            models.ManyToManyField(
                                blank=True, to="intake.pollutantcategory"
                            ),
                        ),
                    ],
                    options={
                        "db_table": "cases_report",
                        "ordering": ["-received_at"],
                    },
                ),
                migrations.CreateModel(
                    name="ReportNotification",
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
                        ("status", models.CharField(max_length=32)),
                        (
                            "sent_at",
                            models.DateTimeField(default=django.utils.timezone.now),
                        ),
                        (
                            "report",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="notifications",
                                to="intake.report",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "cases_reportnotification",
                    },
                ),
                migrations.CreateModel(
                    name="ReportPhoto",
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
                            models.FileField(upload_to="private/report-originals/"),
                        ),
                        ("original_sha256", models.CharField(max_length=64)),
                        ("original_name", models.CharField(max_length=200)),
                        (
                            "display",
                            models.ImageField(upload_to="private/report-display/"),
                        ),
                        ("width", models.PositiveIntegerField()),
                        ("height", models.PositiveIntegerField()),
                        (
                            "uploaded_at",
                            models.DateTimeField(default=django.utils.timezone.now),
                        ),
                        (
                            "report",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="photos",
                                to="intake.report",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "cases_reportphoto",
                    },
                ),
                migrations.AddIndex(
                    model_name="report",
                    index=models.Index(
                        fields=["case", "-received_at"],
                        name="cases_repor_case_id_2081dc_idx",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="reportnotification",
                    constraint=models.UniqueConstraint(
                        fields=("report", "status"), name="report_notification_once"
                    ),
                ),
            ],
            database_operations=[],
        ),
        move_content_types(
            "cases",
            "intake",
            [
                "report",
                "reportphoto",
                "apikey",
                "reportnotification",
                "pollutantcategory",
                "exemptcategory",
            ],
        ),
    ]
