"""The notices' links to the copy that was sent point at documents.IssuedDocument
(the same table, moved from cases; issue 30): state only."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("documents", "0001_initial"),
        ("enforcement", "0017_remedy_payments_on_the_ledger"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="accesssuspension",
                    name="notice_document",
                    field=models.ForeignKey(
                        blank=True,
                        help_text="The version of the written notice of reasons that was sent.",
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="documents.issueddocument",
                    ),
                ),
                migrations.AlterField(
                    model_name="hearingnoticeservice",
                    name="document",
                    field=models.ForeignKey(
                        help_text="The version of the notice of hearing that was sent.",
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="documents.issueddocument",
                    ),
                ),
            ],
            database_operations=[],
        ),
    ]
