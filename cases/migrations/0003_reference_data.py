"""Seed the reference data of cases/reference_data.py: pollutant categories (§ 132-3,
R-DEF-1), exempt discharges (§ 132-6 A(1), R-PRO-2) and the citation table."""

from django.db import migrations

from cases.reference_data import seed_rows


def seed(apps, schema_editor):
    seed_rows(
        apps.get_model("cases", "PollutantCategory"),
        apps.get_model("cases", "ExemptCategory"),
        apps.get_model("cases", "Citation"),
        overwrite=True,
    )


class Migration(migrations.Migration):
    dependencies = [("cases", "0002_roles")]
    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
