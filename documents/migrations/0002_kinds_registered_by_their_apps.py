"""The kinds of document are the table each app registers
(documents.contracts.document_kinds): the choices only, no change in the
database."""

import documents.contracts
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("documents", "0001_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="issueddocument",
            name="kind",
            field=models.CharField(
                choices=documents.contracts.document_kinds, max_length=32
            ),
        ),
    ]
