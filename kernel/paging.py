"""Reading a page of a long list in two steps: first the page's ids (the filter
and the sort alone, no joined tables), then those rows with their relations.

One query reading rows with their joined tables at OFFSET n makes PostgreSQL join
every row it skips: page 200 of the case list joined 4,000 cases' premises and
officers to show 20 (bench/NOTES.md)."""

from django.core.paginator import Paginator
from django.db.models import QuerySet


def rows_by_ids(rows: QuerySet, ids: list) -> list:
    """The rows of `rows` with these primary keys, in the order of `ids`."""
    if not ids:
        return []
    by_pk = {row.pk: row for row in rows.filter(pk__in=ids).order_by()}
    return [by_pk[pk] for pk in ids if pk in by_pk]


class IdsFirstPaginator(Paginator):
    """Django's Paginator over an ordered queryset, reading each page as its ids,
    then the rows from `rows`: a queryset of the same model with the relations
    to show (select_related, prefetch_related) and no filter to evaluate again;
    by default the list itself."""

    def __init__(self, object_list, per_page, *, rows: QuerySet | None = None, **kw):
        super().__init__(object_list, per_page, **kw)
        self.rows = object_list if rows is None else rows

    def page(self, number):
        number = self.validate_number(number)
        bottom = (number - 1) * self.per_page
        top = bottom + self.per_page
        if top + self.orphans >= self.count:
            top = self.count
        ids = list(self.object_list.values_list("pk", flat=True)[bottom:top])
        return self._get_page(rows_by_ids(self.rows, ids), number, self)
