"""Finding a case by number, address, tax map number, party name or tracking code;
filters by status, kind, officer and date range; pagination."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from cases.selectors import case_search

from .factories import CaseFactory, PremisesFactory, ReportFactory, name_party

pytestmark = pytest.mark.django_db


@pytest.fixture
def cases(smo_user):
    premises = PremisesFactory(
        address="14 Tyler Avenue", tax_map_number="0200-005.00-02.00-014.000"
    )
    a = CaseFactory(
        number="MS4-2026-0042", premises=premises, assigned_officer=smo_user
    )
    b = CaseFactory(kind="spill", resolved=True)
    name_party(b, role="operator").__class__.objects.filter(case_roles__case=b).update(
        name="Harbor Auto Detailing LLC"
    )
    c = CaseFactory(opened_at=timezone.now() - dt.timedelta(days=60))
    report = ReportFactory(case=c)
    return a, b, c, report


def test_search_by_case_number_even_without_leading_zeros(cases):
    a = cases[0]
    assert list(case_search(q="MS4-2026-0042")) == [a]
    assert list(case_search(q="ms4-2026-42")) == [a]


def test_search_by_address_tax_map_party_and_tracking_code(cases):
    a, b, c, report = cases
    assert list(case_search(q="tyler ave")) == [a]
    assert list(case_search(q="005.00-02.00-014")) == [a]
    assert list(case_search(q="harbor auto")) == [b]
    assert list(case_search(q=report.tracking_code.lower())) == [c]


def test_filters_status_kind_officer_dates(cases, smo_user):
    a, b, c, _ = cases
    assert set(case_search(status="open")) == {a, c}
    assert list(case_search(status="resolved")) == [b]
    assert list(case_search(kind="spill")) == [b]
    assert list(case_search(officer=smo_user)) == [a]
    week_ago = timezone.localdate() - dt.timedelta(days=7)
    assert set(case_search(opened_from=week_ago)) == {a, b}
    assert list(case_search(opened_to=week_ago)) == [c]


def test_list_page_searches_and_paginates(smo_client, cases):
    for _ in range(30):
        CaseFactory()
    html = smo_client.get(reverse("cases:list"), {"q": "Tyler"}).content.decode()
    assert "MS4-2026-0042" in html and "1 case." in html
    page1 = smo_client.get(reverse("cases:list"), {"status": "open"}).content
    assert b"Page 1 of 2" in page1 and b"status=open&amp;page=2" in page1


def test_list_page_bad_dates_keep_input_and_say_why(smo_client, cases):
    response = smo_client.get(
        reverse("cases:list"), {"opened_from": "2026-05-01", "opened_to": "2026-04-01"}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "end date is before the start date" in html
    assert 'value="2026-05-01"' in html


def test_search_by_summary_location_and_responsible_party(cases, db):
    from cases.models import Party

    a, b, c, _ = cases
    owner = Party.objects.create(name="Quintessa Marsh")
    type(a).objects.filter(pk=a.pk).update(
        summary="Grey water from a Laundromat", responsible_party=owner
    )
    type(c).objects.filter(pk=c.pk).update(location_description="Behind the Gazebo")
    assert list(case_search(q="laundromat")) == [a]
    assert list(case_search(q="gazebo")) == [c]
    assert list(case_search(q="quintessa")) == [a]
    assert list(case_search(q="no such text anywhere")) == []


def test_postgresql_has_the_trigram_indexes_the_search_uses(db):
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("pg_trgm indexes exist only on PostgreSQL")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE indexname IN "
            "('case_summary_trgm', 'premises_address_trgm', 'party_name_trgm', "
            "'report_tracking_code_upper')"
        )
        found = dict(cursor.fetchall())
    assert set(found) == {
        "case_summary_trgm",
        "premises_address_trgm",
        "party_name_trgm",
        "report_tracking_code_upper",
    }
    assert "gin_trgm_ops" in found["case_summary_trgm"]
    assert "upper" in found["premises_address_trgm"].lower()


def numbers_on(html: str) -> list[str]:
    import re

    return list(dict.fromkeys(re.findall(r"MS4-2020-\d{4}", html)))  # link + text


def test_pages_read_ids_first_show_every_case_once_newest_first(smo_client, db):
    """kernel.paging.IdsFirstPaginator: each page is the next 25 of the list's
    order; the query count is the same on the first and the last page."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    start = timezone.now()
    made = [
        CaseFactory(opened_at=start - dt.timedelta(hours=i)) for i in range(60)
    ]  # newest first
    seen = []
    counts = []
    for page in (1, 2, 3):
        with CaptureQueriesContext(connection) as ctx:
            html = smo_client.get(reverse("cases:list"), {"page": page}).content
        counts.append(len(ctx))
        seen += numbers_on(html.decode())
        assert f"Page {page} of 3".encode() in html
    assert seen == [c.number for c in made]
    assert len(set(counts)) == 1


def test_a_page_past_the_end_is_the_last_one_and_nonsense_is_the_first(smo_client, db):
    start = timezone.now()
    made = [CaseFactory(opened_at=start - dt.timedelta(hours=i)) for i in range(30)]
    html = smo_client.get(reverse("cases:list"), {"page": 99}).content.decode()
    assert "Page 2 of 2" in html
    assert numbers_on(html) == [c.number for c in made[25:]]
    html = smo_client.get(reverse("cases:list"), {"page": "two"}).content.decode()
    assert "Page 1 of 2" in html
    assert numbers_on(html) == [c.number for c in made[:25]]


def test_a_search_counts_and_pages_its_matches_in_one_query(smo_client, db):
    """kernel.paging.OnePassPaginator: with search text the count and the page's
    ids come from one evaluation of the matches, and the pages are the same as
    the two-query pages of a plain filter (order, count, last page, nonsense)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    start = timezone.now()
    made = [
        CaseFactory(
            summary=f"Suds at the harbor outfall {i}",
            opened_at=start - dt.timedelta(hours=i),
        )
        for i in range(30)
    ]  # newest first
    CaseFactory(summary="Oil sheen on Tyler Avenue", opened_at=start)
    url = reverse("cases:list")
    with CaptureQueriesContext(connection) as ctx:
        html = smo_client.get(url, {"q": "Harbor"}).content.decode()
    assert "<p>30 cases.</p>" in html and "Page 1 of 2" in html
    assert numbers_on(html) == [c.number for c in made[:25]]
    searching = [q["sql"] for q in ctx.captured_queries if "HARBOR" in q["sql"].upper()]
    assert len(searching) == 1, searching
    html = smo_client.get(url, {"q": "Harbor", "page": 2}).content.decode()
    assert "Page 2 of 2" in html and numbers_on(html) == [c.number for c in made[25:]]
    html = smo_client.get(url, {"q": "Harbor", "page": 99}).content.decode()
    assert "Page 2 of 2" in html and numbers_on(html) == [c.number for c in made[25:]]
    html = smo_client.get(url, {"q": "Harbor", "page": "two"}).content.decode()
    assert "Page 1 of 2" in html and numbers_on(html) == [c.number for c in made[:25]]
    html = smo_client.get(url, {"q": "Nothing like it"}).content.decode()
    assert "<p>0 cases.</p>" in html and "No case matches." in html


def test_a_short_tail_joins_the_last_page_when_the_list_allows_orphans(db):
    from cases.models import Case
    from kernel.paging import OnePassPaginator

    start = timezone.now()
    made = [CaseFactory(opened_at=start - dt.timedelta(hours=i)) for i in range(12)]
    ordered = Case.objects.order_by("-opened_at", "-id")
    pages = OnePassPaginator(ordered, 5, orphans=2)
    assert [c.pk for c in pages.get_page(1)] == [c.pk for c in made[:5]]
    assert [c.pk for c in pages.get_page(2)] == [c.pk for c in made[5:]]
    assert OnePassPaginator(ordered, 5, orphans=2).get_page(3).number == 2
