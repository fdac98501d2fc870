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

# rule_id, section, heading (the law's words), summary, notice_text
REQUIREMENTS = [
    (
        "R-NOV-1(1)",
        "§ 132-13 A(1)",
        "The elimination of illicit connections or discharges",
        "A notice of violation may require the elimination of illicit connections or discharges.",
        "You are required to eliminate the illicit connections or discharges identified below.",
    ),
    (
        "R-NOV-1(2)",
        "§ 132-13 A(2)",
        "That violating discharges, practices, or operations shall cease and desist",
        "A notice of violation may require that violating discharges, practices or operations cease and desist.",
        "The violating discharges, practices or operations identified below shall cease and desist.",
    ),
    (
        "R-NOV-1(3)",
        "§ 132-13 A(3)",
        "The abatement or remediation of stormwater pollution or contamination hazards and the restoration of any affected property",
        "A notice of violation may require abatement or remediation and restoration; the notice then sets a deadline (R-NOV-2).",
        "You are required to abate or remediate the stormwater pollution or contamination hazards and to restore the affected property as described below.",
    ),
    (
        "R-NOV-1(4)",
        "§ 132-13 A(4)",
        "The performance of monitoring, analyses, and reporting",
        "A notice of violation may require monitoring, analyses and reporting.",
        "You are required to perform the monitoring, analyses and reporting described below.",
    ),
    (
        "R-NOV-1(5)",
        "§ 132-13 A(5)",
        "Payment of a fine",
        "A notice of violation may require payment of a fine (tiers of § 132-13 B).",
        "You are required to pay the fine stated below.",
    ),
    (
        "R-NOV-1(6)",
        "§ 132-13 A(6)",
        "The implementation of source control or treatment BMPs",
        "A notice of violation may require source control or treatment best management practices.",
        "You are required to implement the source control or treatment best management practices described below.",
    ),
]


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
    dependencies = [("cases", "0004_issued_documents")]
    operations = [
        migrations.RunPython(trigger_on, trigger_off),
        migrations.RunPython(seed, unseed),
    ]
