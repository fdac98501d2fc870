"""Querysets compiled once per process (issue 28).

Django builds a queryset and compiles its SQL again on every request. For the
dashboard's panels that costs more of the CPU than PostgreSQL spends answering
them (1-3 ms of Python a query on the bench, bench/NOTES.md). A
`CompiledQuery` builds its queryset once per process and database, for stand-in
values of its parameters; it keeps the SQL and the compiler's reading of the
columns (which make which model, relation and annotation), and runs that SQL
with the real values in the stand-ins' places. The rows are read by Django's
own iterables, so they are the same instances, relations and annotations as the
queryset's.

Only for a query whose SQL has the same shape for every value of its
parameters: dates, ids, a list of ids through `kernel.lookups.AnyOf` (one
parameter whatever its length), a limit fixed in the code; not a list through
``__in`` (its length is in the SQL), nor a value that may be None (IS NULL). Under
the test settings (`COMPILED_QUERY_CHECK`) every run also builds the queryset
for the real values and checks it compiles to the same SQL and parameters, so
the suite proves the shape holds wherever a compiled query is used."""

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS
from django.db.models import QuerySet
from django.db.models.sql import Query

from kernel.lookups import ids_parameter

# Values no real parameter takes: a stand-in found among the compiled query's
# parameters is the parameter of that name.
STAND_IN_ID = -2_000_000_017
STAND_IN_DATE = dt.date(1901, 2, 3)
# A list of ids, given to kernel.lookups.AnyOf.
STAND_IN_IDS = (-2_000_000_019, -2_000_000_023)


@dataclass(frozen=True)
class _Slot:
    position: int
    name: str
    # The value as the backend takes it: itself, as text (SQLite's dates), as a
    # list or as SQLite's JSON array (a list of ids, kernel.lookups.AnyOf).
    form: Callable


def _forms(stand_in) -> tuple:
    """(the stand-in as the compiled parameters may hold it, how to give a
    real value the same form)."""
    if isinstance(stand_in, tuple):
        return ((list(stand_in), list), (ids_parameter(stand_in), ids_parameter))
    return ((stand_in, _itself), (str(stand_in), str))


def _itself(value):
    return value


@dataclass
class _Compiled:
    template: QuerySet
    sql: str
    params: tuple
    slots: tuple[_Slot, ...]
    reading: dict  # the compiler's attributes that read the rows

    def params_for(self, values: dict) -> tuple:
        params = list(self.params)
        for slot in self.slots:
            value = values[slot.name]
            params[slot.position] = slot.form(value)
        return tuple(params)


# What SQLCompiler.as_sql leaves on the compiler that reading the rows uses
# (ModelIterable, ValuesListIterable, results_iter): django/db/models/sql/compiler.py.
_READING = (
    "select",
    "klass_info",
    "annotation_col_map",
    "col_count",
    "has_extra_select",
)


class _ReadyQuery(Query):
    """A clone of a compiled query whose compiler returns the SQL compiled
    already, with this run's parameters."""

    compiled: _Compiled
    run_params: tuple

    def get_compiler(self, using=None, connection=None, elide_empty=True):
        compiler = super().get_compiler(using, connection, elide_empty)
        for name, value in self.compiled.reading.items():
            setattr(compiler, name, value)
        sql, params = self.compiled.sql, self.run_params
        compiler.as_sql = lambda *args, **kwargs: (sql, params)
        return compiler


class CompiledQuery:
    """`build(**stand_ins)` compiled once; `rows(**values)` runs it for `values`
    (the same names as the stand-ins) and returns the list of its rows."""

    def __init__(self, build: Callable[..., QuerySet], **stand_ins):
        self.build = build
        self.stand_ins = stand_ins
        self._by_db: dict[str, _Compiled] = {}

    def _compiled(self, using: str) -> _Compiled:
        found = self._by_db.get(using)
        if found is None:
            found = self._by_db[using] = self._compile(using)
        return found

    def _compile(self, using: str) -> _Compiled:
        template = self.build(**self.stand_ins).using(using)
        compiler = template.query.get_compiler(using)
        sql, params = compiler.as_sql()
        slots = []
        for position, param in enumerate(params):
            for name, stand_in in self.stand_ins.items():
                for held, form in _forms(stand_in):
                    if type(param) is type(held) and param == held:
                        slots.append(_Slot(position, name, form))
                        break
        missing = set(self.stand_ins) - {slot.name for slot in slots}
        if missing:
            raise ValueError(f"the query does not use {sorted(missing)}")
        reading = {name: getattr(compiler, name) for name in _READING}
        return _Compiled(template, sql, tuple(params), tuple(slots), reading)

    def rows(self, using: str = DEFAULT_DB_ALIAS, **values) -> list:
        if set(values) != set(self.stand_ins):
            raise TypeError(f"expected the values of {sorted(self.stand_ins)}")
        compiled = self._compiled(using)
        run_params = compiled.params_for(values)
        if getattr(settings, "COMPILED_QUERY_CHECK", False):
            self._check(using, compiled.sql, run_params, values)
        qs = compiled.template._chain()
        qs.query.__class__ = _ReadyQuery
        qs.query.compiled = compiled
        qs.query.run_params = run_params
        return list(qs)

    def _check(self, using, sql, run_params, values):
        built = self.build(**values).using(using)
        expected = built.query.get_compiler(using).as_sql()
        if (sql, run_params) != (expected[0], tuple(expected[1])):
            raise AssertionError(
                "a compiled query's shape changed with its values: "
                f"{self.build.__module__}.{self.build.__qualname__}"
            )
