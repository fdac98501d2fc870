"""Trigram (pg_trgm) GIN indexes for the case search's `icontains` columns.

Django writes `icontains` on PostgreSQL as `UPPER(col::text) LIKE UPPER(%s)`; a
b-tree cannot serve a pattern with a leading %, a GIN index over
`upper(col) gin_trgm_ops` can (bench/: case list filtered with text). PostgreSQL
only: on SQLite (and any other backend) this migration does nothing."""

from django.db import migrations

# (index name, table, column)
INDEXES = [
    ("case_number_trgm", "cases_case", "number"),
    ("case_summary_trgm", "cases_case", "summary"),
    ("case_location_trgm", "cases_case", "location_description"),
    ("premises_address_trgm", "cases_premises", "address"),
    ("premises_taxmap_trgm", "cases_premises", "tax_map_number"),
    ("party_name_trgm", "cases_party", "name"),
]


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    for name, table, column in INDEXES:
        schema_editor.execute(
            f'CREATE INDEX IF NOT EXISTS "{name}" ON "{table}" '
            f'USING gin ((UPPER("{column}"::text)) gin_trgm_ops)'
        )
    # `tracking_code__iexact` = UPPER(tracking_code::text) = UPPER(%s): a b-tree.
    schema_editor.execute(
        'CREATE INDEX IF NOT EXISTS "report_tracking_code_upper" ON "cases_report" '
        '((UPPER("tracking_code"::text)))'
    )
    # The planner's row estimates for an expression come from ANALYZE.
    for table in sorted({table for _, table, _ in INDEXES} | {"cases_report"}):
        schema_editor.execute(f'ANALYZE "{table}"')


def drop(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name in [name for name, _, _ in INDEXES] + ["report_tracking_code_upper"]:
        schema_editor.execute(f'DROP INDEX IF EXISTS "{name}"')


class Migration(migrations.Migration):
    dependencies = [("cases", "0011_case_number_upper_index")]

    operations = [migrations.RunPython(create, drop)]
