"""The deadlines now live in their own app (deadlines 0001): cases lets go of
their state; the tables stay as they are."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("cases", "0041_outbox_moves_to_outbox"),
        ("deadlines", "0001_initial"),
        ("inspections", "0003_spill_deadlines_point_at_deadlines"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="deadline",
                    name="assigned_to",
                ),
                migrations.RemoveField(
                    model_name="deadline",
                    name="case",
                ),
                migrations.RemoveField(
                    model_name="deadline",
                    name="closed_by",
                ),
                migrations.RemoveField(
                    model_name="deadline",
                    name="content_type",
                ),
                migrations.RemoveField(
                    model_name="deadline",
                    name="created_by",
                ),
                migrations.RemoveField(
                    model_name="deadline",
                    name="replaced_by",
                ),
                migrations.RemoveField(
                    model_name="reminder",
                    name="deadline",
                ),
                migrations.RemoveField(
                    model_name="officeclosure",
                    name="created_by",
                ),
                migrations.RemoveField(
                    model_name="reminder",
                    name="recipient_user",
                ),
                migrations.RemoveField(
                    model_name="staffdigest",
                    name="user",
                ),
                migrations.DeleteModel(
                    name="CalendarFeedToken",
                ),
                migrations.DeleteModel(
                    name="Deadline",
                ),
                migrations.DeleteModel(
                    name="OfficeClosure",
                ),
                migrations.DeleteModel(
                    name="Reminder",
                ),
                migrations.DeleteModel(
                    name="StaffDigest",
                ),
            ],
            database_operations=[],
        ),
    ]
