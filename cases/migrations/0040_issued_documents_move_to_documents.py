"""The issued documents now live in documents (its 0001): cases lets go of their
state; the table stays as it is."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("cases", "0039_kernel_models_move_to_kernel"),
        ("documents", "0001_initial"),
        ("enforcement", "0018_issued_documents_move_to_documents"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="issueddocument",
                    name="case",
                ),
                migrations.RemoveField(
                    model_name="issueddocument",
                    name="content_type",
                ),
                migrations.RemoveField(
                    model_name="issueddocument",
                    name="issued_by",
                ),
                migrations.RemoveField(
                    model_name="issueddocument",
                    name="supersedes",
                ),
                migrations.DeleteModel(
                    name="IssuedDocument",
                ),
            ],
            database_operations=[],
        ),
    ]
