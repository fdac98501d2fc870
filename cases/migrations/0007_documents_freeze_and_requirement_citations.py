"""Issued documents are frozen in the database too (PostgreSQL trigger), and the
six requirements a notice of violation may carry (§ 132-13 A(1)-(6), R-NOV-1) get
their own rows in the citation table, so their printed words are data."""

from django.db import migrations

TRIGGER_SQL = """
CREATE OR REPLACE FUNCTION cases_issueddocument_frozen() RETURNS trigger AS $$
BEGIN
    IF OLD.status = 'issued' THEN
        RAISE EXCEPTION 'issued document % is frozen: % refused', OLD.id, TG_OP
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER cases_issueddocument_frozen
    BEFORE UPDATE OR DELETE ON cases_issueddocument
    FOR EACH ROW EXECUTE FUNCTION cases_issueddocument_frozen();
"""

DROP_SQL = """
DROP TRIGGER IF EXISTS cases_issueddocument_frozen ON cases_issueddocument;
DROP FUNCTION IF EXISTS cases_issueddocument_frozen();
"""

from cases.reference_data import REQUIREMENT_CITATIONS as REQUIREMENTS  # noqa: E402


def trigger_on(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(TRIGGER_SQL, params=None)


def trigger_off(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP_SQL, params=None)


def seed(apps, schema_editor):
    Citation = apps.get_model("cases", "Citation")
    for rule_id, section, heading, summary, notice_text in REQUIREMENTS:
        Citation.objects.update_or_create(
            rule_id=rule_id,
            defaults={
                "section": section,
                "heading": heading,
                "summary": summary,
                "notice_text": notice_text,
            },
        )


def unseed(apps, schema_editor):
    Citation = apps.get_model("cases", "Citation")
    Citation.objects.filter(rule_id__in=[r[0] for r in REQUIREMENTS]).delete()


class Migration(migrations.Migration):
    dependencies = [("cases", "0006_issued_documents")]
    operations = [
        migrations.RunPython(trigger_on, trigger_off),
        migrations.RunPython(seed, unseed),
    ]
