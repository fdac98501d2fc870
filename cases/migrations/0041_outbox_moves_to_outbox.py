"""The outbox now lives in its own app (outbox 0001): cases lets go of its
state; the table stays as it is."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("cases", "0040_issued_documents_move_to_documents"),
        ("outbox", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(
                    name="OutgoingMessage",
                ),
            ],
            database_operations=[],
        ),
    ]
