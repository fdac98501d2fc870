"""The respondent's page's models now live in portal (its 0001): cases lets go of
their state; their tables stay as they are."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("cases", "0037_annual_report_moves_to_reporting"),
        ("portal", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="correctionfile",
                    name="submission",
                ),
                migrations.RemoveField(
                    model_name="correctionsubmission",
                    name="access",
                ),
                migrations.RemoveField(
                    model_name="correctionsubmission",
                    name="decided_by",
                ),
                migrations.RemoveField(
                    model_name="correctionsubmission",
                    name="notice",
                ),
                migrations.RemoveField(
                    model_name="portalaccess",
                    name="case",
                ),
                migrations.RemoveField(
                    model_name="portalaccess",
                    name="issued_by",
                ),
                migrations.RemoveField(
                    model_name="portalaccess",
                    name="party",
                ),
                migrations.RemoveField(
                    model_name="portalaccess",
                    name="revoked_by",
                ),
                migrations.DeleteModel(
                    name="ContactChangeRequest",
                ),
                migrations.DeleteModel(
                    name="CorrectionFile",
                ),
                migrations.DeleteModel(
                    name="CorrectionSubmission",
                ),
                migrations.DeleteModel(
                    name="PortalAccess",
                ),
            ],
            database_operations=[],
        ),
    ]
