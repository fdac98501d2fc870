"""The chronology's kinds are the table each app registers
(kernel.models.event_kinds): the choices only, no change in the database."""

import kernel.models
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("kernel", "0001_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="caseevent",
            name="kind",
            field=models.CharField(choices=kernel.models.event_kinds, max_length=16),
        ),
    ]
