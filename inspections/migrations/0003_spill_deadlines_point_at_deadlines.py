"""The spill's three deadline links point at deadlines.Deadline (the same table,
cases_deadline): state only."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("deadlines", "0001_initial"),
        ("inspections", "0002_sample_value_as_entered"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="spillnotification",
                    name="confirmation_deadline",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="deadlines.deadline",
                    ),
                ),
                migrations.AlterField(
                    model_name="spillnotification",
                    name="notice_deadline",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="deadlines.deadline",
                    ),
                ),
                migrations.AlterField(
                    model_name="spillnotification",
                    name="retention_deadline",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="deadlines.deadline",
                    ),
                ),
            ],
            database_operations=[],
        ),
    ]
