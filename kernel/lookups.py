"""Lookups the ORM lacks, usable in filter() as expressions."""

import json

from django.db.models import Lookup


def ids_parameter(ids) -> str:
    """A list of ids as SQLite reads it in `AnyOf` (a JSON array for json_each)."""
    return json.dumps(list(ids))


class AnyOf(Lookup):
    """``AnyOf(F("pk"), ids)``: the column is one of `ids` (integers), for a list
    of hundreds. The list is one parameter whatever its length, so the SQL is the
    same for every list (kernel.compiled can compile it once). On PostgreSQL an
    array (``= ANY(%s)``) instead of an ``IN`` of one parameter each, which Django
    and psycopg write out and the server parses one by one: the dashboard's 470
    due deadlines, 4.6 -> 3.2 ms (bench/NOTES.md). On SQLite a JSON array read by
    ``json_each``."""

    lookup_name = "any_of"
    prepare_rhs = False

    def as_sql(self, compiler, connection):
        lhs, params = self.process_lhs(compiler, connection)
        return (
            f"{lhs} IN (SELECT value FROM json_each(%s))",
            (*params, ids_parameter(self.rhs)),
        )

    def as_postgresql(self, compiler, connection):
        lhs, params = self.process_lhs(compiler, connection)
        return f"{lhs} = ANY(%s)", (*params, list(self.rhs))
