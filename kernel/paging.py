"""Reading a page of a long list in two steps: first the page's ids (the filter
and the sort alone, no joined tables), then those rows with their relations.

One query reading rows with their joined tables at OFFSET n makes PostgreSQL join
every row it skips: page 200 of the case list joined 4,000 cases' premises and
officers to show 20 (bench/NOTES.md)."""

from django.core.paginator import Paginator
from django.db import connections
from django.db.models import F, Func, QuerySet, Subquery


def count_beside(qs: QuerySet) -> Subquery:
    """How many rows `qs` has, as a subquery to annotate a head of it with (the
    dashboard's newest reports, its charges past due): computed once, not per
    row. COUNT as a plain function, so that the subquery is not grouped; a
    window count before the LIMIT made PostgreSQL read every row's relations."""
    counted = qs.order_by().annotate(n=Func(F("pk"), function="COUNT"))
    return Subquery(counted.values("n"))


def query_without_page(request) -> str:
    """The list's query string (its filters) without the page number: for its
    pages' links, its exports and a return to it."""
    query = request.GET.copy()
    query.pop("page", None)
    return query.urlencode()


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


class OnePassPaginator(IdsFirstPaginator):
    """IdsFirstPaginator for a list whose filter is costly to evaluate (the case
    list's search text: trigram matches over five tables). Its COUNT and its
    page's ids would each evaluate the filter; here the matches are evaluated
    once, as a materialized CTE, and the page's ids come with their total
    (``COUNT(*) OVER ()``). For a plain status filter the two index-served
    queries stay cheaper, so the caller chooses (bench/NOTES.md). The list is
    ordered by field names (as ``order_by("-opened_at", "-id")``)."""

    def get_page(self, number):
        try:
            number = max(int(number), 1)
        except (TypeError, ValueError):
            number = 1
        bottom = (number - 1) * self.per_page
        ids, count = self._ids_and_count(bottom, self.per_page + self.orphans)
        if count is not None:
            self.__dict__["count"] = count  # Paginator.count is a cached_property
        if count is None or number > self.num_pages:
            return super().get_page(number)  # past the end: the last page
        if bottom + len(ids) < count:  # not the tail: no orphans to take in
            ids = ids[: self.per_page]
        return self._get_page(rows_by_ids(self.rows, ids), number, self)

    def _ids_and_count(self, offset: int, limit: int) -> tuple[list, int | None]:
        """The ids of the list's rows offset..offset+limit, in its order, and how
        many rows it has in all; ([], None) when it has none from `offset` on."""
        order = list(self.object_list.query.order_by) or ["pk"]
        fields = [name.removeprefix("-") for name in order]
        matches = self.object_list.values_list("pk", *fields).order_by()
        sql, params = matches.query.get_compiler(using=matches.db).as_sql()
        columns = ", ".join(["k", *(f"o{i}" for i in range(len(order)))])
        sort = ", ".join(
            f"o{i} {'DESC' if name.startswith('-') else 'ASC'}"
            for i, name in enumerate(order)
        )
        with connections[matches.db].cursor() as cursor:
            cursor.execute(
                f"WITH matches ({columns}) AS MATERIALIZED ({sql}) "
                f"SELECT k, COUNT(*) OVER () FROM matches ORDER BY {sort} "
                "LIMIT %s OFFSET %s",
                [*params, limit, offset],
            )
            found = cursor.fetchall()
        if not found:
            return [], (0 if offset == 0 else None)
        return [pk for pk, _ in found], found[0][1]
