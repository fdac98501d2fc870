"""A page's child rows read inside their parents' query (issue 28).

`prefetch_related("reminders")` reads a deadline's reminders with a second query;
on the case page every such set was one more query (~1.5-2 ms of the ORM's CPU
each, bench/NOTES.md). `with_inline(qs, Inline("reminders", ("created_at",)))`
reads them in the parents' own query instead: a correlated subquery gives each
parent its children as one JSON array (PostgreSQL json_agg, SQLite
json_group_array), turned back into model instances with the field types the
ORM gives (dates, aware datetimes, decimals at their places) and stored where
`prefetch_related` stores them, so `deadline.reminders.all` in a template reads
no more. For a few children per parent (a case's reminders, a report's photos);
not for large sets, nor children with relations of their own to read."""

import datetime as dt
import json
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.db import connections
from django.db.models import (
    Aggregate,
    DateTimeField,
    DecimalField,
    Expression,
    F,
    JSONField,
    ManyToManyField,
    ManyToOneRel,
    OuterRef,
    QuerySet,
    Subquery,
    TextField,
)
from django.db.models.functions import JSONObject
from django.utils.dateparse import parse_datetime


class _JSONRows(Aggregate):
    """The group's rows as one JSON array, as text."""

    function = "JSON_AGG"
    template = "%(function)s(%(expressions)s)::text"
    output_field = TextField()

    def as_sqlite(self, compiler, connection, **extra_context):
        return super().as_sql(
            compiler,
            connection,
            function="JSON_GROUP_ARRAY",
            template="%(function)s(%(expressions)s)",
            **extra_context,
        )


@dataclass(frozen=True)
class Inline:
    """The children under `accessor` (a reverse foreign key or a many-to-many
    field of the parent), in the order of `order_by` (field names, "-" for
    descending), as their own prefetch would order them."""

    accessor: str
    order_by: tuple[str, ...] = ()


def _relation(model, accessor: str):
    """(child model, lookup from the child to its parent, prefetch cache name,
    the child's foreign key to the parent or None)."""
    field = model._meta.get_field(accessor)
    if isinstance(field, ManyToOneRel):
        return field.related_model, field.field.name, field.cache_name, field.field
    if isinstance(field, ManyToManyField):
        return field.related_model, field.related_query_name(), field.name, None
    raise TypeError(f"{model.__name__}.{accessor}: not a set of children")


def _annotation(accessor: str) -> str:
    return f"_inline_{accessor}"


class _WholeRow(Expression):
    """The subquery's row as one value (PostgreSQL: its table's alias), which
    JSON_AGG writes as an object keyed by column name. Building the same object
    with JSONObject cost ~0.6 ms of the ORM's CPU per set of children, every
    request (bench/NOTES.md)."""

    output_field = TextField()

    def as_sql(self, compiler, connection):
        return compiler.quote_name_unless_alias(compiler.query.base_table), []


def _subquery(model, spec: Inline, vendor: str) -> Subquery:
    child, to_parent, _, _ = _relation(model, spec.accessor)
    if vendor == "postgresql":
        row = _WholeRow()
    else:
        row = JSONObject(
            **{f.column: F(f.attname) for f in child._meta.concrete_fields}
        )
    rows = (
        child._base_manager.filter(**{to_parent: OuterRef("pk")})
        .order_by()
        .values(to_parent)
        .annotate(_rows=_JSONRows(row))
        .values("_rows")
    )
    return Subquery(rows, output_field=TextField())


def _value(field, raw, vendor: str):
    """A JSON value as the ORM reads the column."""
    if raw is None:
        return None
    if isinstance(field, DateTimeField):
        at = parse_datetime(raw)
        if settings.USE_TZ and at.tzinfo is None:  # SQLite keeps UTC, naive
            at = at.replace(tzinfo=dt.UTC)
        return at
    if isinstance(field, DecimalField):
        return Decimal(str(raw)).quantize(Decimal(1).scaleb(-field.decimal_places))
    if isinstance(field, JSONField):
        return json.loads(raw) if vendor == "sqlite" else raw
    return field.to_python(raw)


def _sort(rows: list, order_by: tuple[str, ...]) -> list:
    for name in reversed(order_by):
        attr = name.lstrip("-")
        rows.sort(key=lambda row, a=attr: getattr(row, a), reverse=name[0] == "-")
    return rows


def with_inline(qs: QuerySet, *specs: Inline) -> list:
    """The rows of `qs`, each with the children of `specs` read in the same
    query (see the module's text)."""
    return attach_inline(list(inline_annotated(qs, *specs)), qs.db, *specs)


def inline_annotated(qs: QuerySet, *specs: Inline) -> QuerySet:
    """`qs` with the children of `specs` as annotations; `attach_inline` turns
    its rows' annotations into their children (with_inline does both; a query
    compiled once, kernel.compiled, runs the first and then the second)."""
    vendor = connections[qs.db].vendor
    return qs.annotate(
        **{_annotation(s.accessor): _subquery(qs.model, s, vendor) for s in specs}
    )


def attach_inline(rows: list, db: str, *specs: Inline) -> list:
    """Each row of `inline_annotated` with its children where prefetch_related
    keeps them; returns `rows`."""
    if not rows:
        return rows
    model = type(rows[0])
    vendor = connections[db].vendor
    for spec in specs:
        child, _, cache_name, fk = _relation(model, spec.accessor)
        fields = child._meta.concrete_fields
        names = [f.attname for f in fields]
        for parent in rows:
            found = json.loads(
                getattr(parent, _annotation(spec.accessor)) or "[]",
                parse_float=Decimal,
            )
            children = []
            for item in found:
                instance = child.from_db(
                    db, names, [_value(f, item[f.column], vendor) for f in fields]
                )
                if fk is not None:
                    fk.set_cached_value(instance, parent)
                children.append(instance)
            # The relation's own queryset, as prefetch_related stores it: a
            # filter or count chained on it asks about this parent's rows only.
            cached = getattr(parent, spec.accessor).get_queryset()
            cached._result_cache = _sort(children, spec.order_by)
            cached._prefetch_done = True
            if not hasattr(parent, "_prefetched_objects_cache"):
                parent._prefetched_objects_cache = {}
            parent._prefetched_objects_cache[cache_name] = cached
            delattr(parent, _annotation(spec.accessor))
    return rows
