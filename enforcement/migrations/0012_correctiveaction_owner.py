"""The owner a request for access is addressed to (issue 25, § 132-15 A): a
request recorded before gets the owner named on its case, if one is."""

import django.db.models.deletion
from django.db import migrations, models


def owners_of_earlier_requests(apps, schema_editor):
    CorrectiveAction = apps.get_model("enforcement", "CorrectiveAction")
    CaseParty = apps.get_model("cases", "CaseParty")
    for action in CorrectiveAction.objects.filter(owner__isnull=True):
        named = (
            CaseParty.objects.filter(case_id=action.case_id, role="owner")
            .order_by("added_at", "id")
            .first()
        )
        if named is not None:
            action.owner_id = named.party_id
            action.save(update_fields=["owner"])


class Migration(migrations.Migration):
    dependencies = [
        ("cases", "0029_decision_filing_text"),
        ("enforcement", "0011_clock_table"),
    ]

    operations = [
        migrations.AddField(
            model_name="correctiveaction",
            name="owner",
            field=models.ForeignKey(
                blank=True,
                help_text="The owner of the premises whose permission for access is asked.",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="cases.party",
            ),
        ),
        migrations.RunPython(owners_of_earlier_requests, migrations.RunPython.noop),
    ]
