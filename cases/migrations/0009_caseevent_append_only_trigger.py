"""The timeline is append-only in the database too: on PostgreSQL a trigger refuses
any UPDATE or DELETE of a cases_caseevent row, whoever runs it (the ORM, a raw
query, a psql session). Other databases rely on the model's guard."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION cases_caseevent_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'cases_caseevent is append-only: % refused', TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS cases_caseevent_append_only ON cases_caseevent;
CREATE TRIGGER cases_caseevent_append_only
    BEFORE UPDATE OR DELETE ON cases_caseevent
    FOR EACH ROW EXECUTE FUNCTION cases_caseevent_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS cases_caseevent_append_only ON cases_caseevent;
DROP FUNCTION IF EXISTS cases_caseevent_append_only();
"""


def create_trigger(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def drop_trigger(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("cases", "0008_case_version")]
    operations = [migrations.RunPython(create_trigger, drop_trigger)]
