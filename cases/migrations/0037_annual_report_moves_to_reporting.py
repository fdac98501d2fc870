"""The annual report's models now live in reporting (its 0001): cases lets go
of their state; their tables stay as they are."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("cases", "0036_portal_request_machines"),
        ("reporting", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="annualreportcomment",
                    name="report",
                ),
                migrations.RemoveField(
                    model_name="annualreportcomment",
                    name="recorded_by",
                ),
                migrations.DeleteModel(
                    name="AnnualReport",
                ),
                migrations.DeleteModel(
                    name="AnnualReportComment",
                ),
            ],
            database_operations=[],
        ),
    ]
