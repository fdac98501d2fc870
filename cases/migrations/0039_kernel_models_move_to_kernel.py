"""The chronology, the delegations and the citation table now live in kernel (its
0001): cases lets go of their state; their tables stay as they are."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("cases", "0038_respondent_page_moves_to_portal"),
        ("kernel", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name="caseevent",
                    name="actor",
                ),
                migrations.RemoveField(
                    model_name="caseevent",
                    name="case",
                ),
                migrations.RemoveField(
                    model_name="caseevent",
                    name="content_type",
                ),
                migrations.RemoveField(
                    model_name="caseevent",
                    name="delegation",
                ),
                migrations.RemoveField(
                    model_name="caseevent",
                    name="premises",
                ),
                migrations.DeleteModel(
                    name="Citation",
                ),
                migrations.RemoveField(
                    model_name="delegation",
                    name="delegate",
                ),
                migrations.RemoveField(
                    model_name="delegation",
                    name="ended_by",
                ),
                migrations.RemoveField(
                    model_name="delegation",
                    name="granted_by",
                ),
                migrations.DeleteModel(
                    name="CaseEvent",
                ),
                migrations.DeleteModel(
                    name="Delegation",
                ),
            ],
            database_operations=[],
        ),
    ]
