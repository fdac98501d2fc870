"""Print the Board's duty after deciding an appeal in the words of § 132-14 on the
decision letter (issue 25): the R-APL-3 row gets its notice text."""

from django.db import migrations

from cases.reference_data import DECISION_FILING_TEXT


def forward(apps, schema_editor):
    apps.get_model("cases", "Citation").objects.filter(rule_id="R-APL-3").update(
        notice_text=DECISION_FILING_TEXT
    )


class Migration(migrations.Migration):
    dependencies = [("cases", "0028_clock_table")]
    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
