"""The issued documents move from cases to documents (issue 30) with their table
(cases_issueddocument, its constraints and its frozen rows): the state moves
here, enforcement 0018 points its two links here, cases 0040 lets go; no row is
touched but the content type's app label."""

import django.core.serializers.json
import django.db.models.deletion
import django.utils.timezone
import django_fsm
import documents.models
from django.conf import settings
from django.db import migrations, models

from kernel.model_moves import move_content_types


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("cases", "0039_kernel_models_move_to_kernel"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="IssuedDocument",
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
                                    ("notice_of_violation", "Notice of violation"),
                                    (
                                        "emergency_suspension",
                                        "Emergency suspension notice",
                                    ),
                                    (
                                        "proposed_termination",
                                        "Notice of proposed termination of MS4 access",
                                    ),
                                    (
                                        "termination_decision",
                                        "Decision on a petition for reconsideration",
                                    ),
                                    ("access_request", "Request for access to abate"),
                                    (
                                        "appeal_decision",
                                        "Decision of the Board of Trustees on appeal",
                                    ),
                                    ("hearing_notice", "Notice of hearing on appeal"),
                                    (
                                        "meeting_agenda",
                                        "Agenda of the Board of Trustees' hearings",
                                    ),
                                    (
                                        "corrective_invoice",
                                        "Invoice for corrective-measure costs",
                                    ),
                                    ("inspection_report", "Inspection report"),
                                    (
                                        "warrant_cover_sheet",
                                        "Search warrant application: cover sheet",
                                    ),
                                    (
                                        "annual_report",
                                        "Annual MS4 report: illicit discharges (IDDE)",
                                    ),
                                    ("payment_receipt", "Receipt for a payment"),
                                ],
                                max_length=32,
                            ),
                        ),
                        ("object_id", models.PositiveBigIntegerField()),
                        ("version", models.PositiveSmallIntegerField(default=1)),
                        (
                            "status",
                            django_fsm.FSMField(
                                choices=[
                                    ("rendering", "Rendering…"),
                                    ("issued", "Issued"),
                                    ("failed", "Rendering failed"),
                                ],
                                db_index=True,
                                default="rendering",
                                max_length=12,
                                protected=True,
                            ),
                        ),
                        ("title", models.CharField(max_length=200)),
                        (
                            "document_number",
                            models.CharField(blank=True, max_length=60),
                        ),
                        (
                            "facts",
                            models.JSONField(
                                encoder=django.core.serializers.json.DjangoJSONEncoder
                            ),
                        ),
                        (
                            "citations",
                            models.JSONField(
                                encoder=django.core.serializers.json.DjangoJSONEncoder,
                                help_text="The citation rows as printed.",
                            ),
                        ),
                        ("html", models.TextField()),
                        (
                            "pdf",
                            models.FileField(
                                blank=True,
                                upload_to=documents.models.document_upload_path,
                            ),
                        ),
                        ("size", models.PositiveIntegerField(blank=True, null=True)),
                        ("sha256", models.CharField(blank=True, max_length=64)),
                        ("template_name", models.CharField(max_length=200)),
                        ("template_version", models.CharField(max_length=64)),
                        ("pdf_variant", models.CharField(blank=True, max_length=16)),
                        ("pdfa", models.BooleanField(default=False)),
                        ("error", models.TextField(blank=True)),
                        (
                            "created_at",
                            models.DateTimeField(default=django.utils.timezone.now),
                        ),
                        ("issued_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "case",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="documents",
                                to="cases.case",
                            ),
                        ),
                        (
                            "content_type",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="contenttypes.contenttype",
                            ),
                        ),
                        (
                            "issued_by",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "supersedes",
                            models.OneToOneField(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="superseded_by",
                                to="documents.issueddocument",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "cases_issueddocument",
                        "ordering": ["case", "kind", "version", "id"],
                        "indexes": [
                            models.Index(
                                fields=["content_type", "object_id"],
                                name="cases_issue_content_32029c_idx",
                            )
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                condition=models.Q(("status", "failed"), _negated=True),
                                fields=("content_type", "object_id", "kind", "version"),
                                name="one_live_document_per_source_kind_version",
                            ),
                            models.CheckConstraint(
                                condition=models.Q(
                                    models.Q(("status", "issued"), _negated=True),
                                    models.Q(
                                        models.Q(("sha256", ""), _negated=True),
                                        models.Q(("pdf", ""), _negated=True),
                                    ),
                                    _connector="OR",
                                ),
                                name="issued_document_has_pdf_and_hash",
                            ),
                        ],
                    },
                    bases=(django_fsm.ConcurrentTransitionMixin, models.Model),
                ),
            ],
            database_operations=[],
        ),
        move_content_types("cases", "documents", ["issueddocument"]),
    ]
