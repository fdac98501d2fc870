"""Print § 132-13 B on notices word for word (the first seed paraphrased it and left
out "in addition to or as an alternative to any penalty" and the misdemeanor
sentence)."""

from django.db import migrations

from cases.reference_data import PENALTY_TEXT


def forward(apps, schema_editor):
    apps.get_model("cases", "Citation").objects.filter(rule_id="R-PEN-1").update(
        notice_text=PENALTY_TEXT
    )


class Migration(migrations.Migration):
    dependencies = [("cases", "0009_caseevent_append_only_trigger")]
    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
