"""Resident intake now lives in its own app (intake 0001): cases lets go of its
state, and the case's categories point at intake's; the tables stay as they are."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("cases", "0042_deadlines_move_to_deadlines"),
        ("intake", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="report",
                    name="api_client",
                ),
                migrations.AlterField(
                    model_name="case",
                    name="exempt_category",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        to="intake.exemptcategory",
                    ),
                ),
                migrations.AlterField(
                    model_name="historicalcase",
                    name="exempt_category",
                    field=models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="intake.exemptcategory",
                    ),
                ),
                migrations.RemoveField(
                    model_name="report",
                    name="pollutant_categories",
                ),
                migrations.RemoveField(
                    model_name="report",
                    name="case",
                ),
                migrations.RemoveField(
                    model_name="report",
                    name="entered_by",
                ),
                migrations.RemoveField(
                    model_name="reportphoto",
                    name="report",
                ),
                migrations.RemoveField(
                    model_name="reportnotification",
                    name="report",
                ),
                migrations.AlterField(
                    model_name="case",
                    name="pollutant_categories",
                    field=models.ManyToManyField(
                        blank=True, to="intake.pollutantcategory"
                    ),
                ),
                migrations.DeleteModel(
                    name="ApiKey",
                ),
                migrations.DeleteModel(
                    name="ExemptCategory",
                ),
                migrations.DeleteModel(
                    name="PollutantCategory",
                ),
                migrations.DeleteModel(
                    name="ReportPhoto",
                ),
                migrations.DeleteModel(
                    name="Report",
                ),
                migrations.DeleteModel(
                    name="ReportNotification",
                ),
            ],
            database_operations=[],
        ),
    ]
