"""Issue 17: `jobs.exports.neutralise` (OWASP CSV injection) and the cell values:
text that a spreadsheet would run gets a leading quote, numbers stay numbers."""

import datetime as dt
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from jobs.exports import neutralise, plain

from .helpers import HOSTILE


@pytest.mark.parametrize("text", HOSTILE)
def test_text_a_spreadsheet_would_run_gets_a_leading_quote(text):
    assert neutralise(text) == "'" + text


@pytest.mark.parametrize("text", ["Oil sheen", "", "1+1=2", "'quoted", " =spaced"])
def test_other_text_is_unchanged(text):
    assert neutralise(text) == text


@pytest.mark.parametrize("number", [-2, -2.5, Decimal("-300.00"), 0, 7])
def test_a_negative_number_is_a_number_not_text(number):
    assert neutralise(number) == number
    assert plain(number) == number


def test_moments_are_in_the_village_time_zone_and_booleans_read_yes_or_no():
    moment = dt.datetime(2026, 3, 10, 4, 30, 15, 999, tzinfo=dt.UTC)
    local = plain(moment)
    assert local.tzinfo == ZoneInfo("America/New_York")
    assert local.isoformat() == "2026-03-10T00:30:15-04:00"  # EDT from March 8
    assert plain(dt.date(2026, 3, 9)) == dt.date(2026, 3, 9)
    assert plain(True) == "yes" and plain(False) == "no" and plain(None) == ""


def test_control_characters_xml_cannot_hold_are_dropped_from_the_xlsx_only():
    import csv
    import io

    import openpyxl

    from jobs.exports import Column, csv_lines, write_xlsx

    columns = (Column("Description", lambda r: r), Column("Amount", lambda r: -2))
    rows = ["Bell\x07 and\x00 null", "=1+1"]
    out = io.BytesIO()
    write_xlsx(columns, rows, str, out, title="Test")
    sheet = openpyxl.load_workbook(out).worksheets[0]
    values = [[c.value for c in row] for row in sheet.iter_rows()]
    assert values == [
        ["Description", "Amount"],
        ["Bell and null", -2],
        ["=1+1", -2],  # as typed, in a text cell (issue 29)
    ]
    assert [c.data_type for c in list(sheet.iter_rows())[2]] == ["s", "n"]
    text = "".join(csv_lines(columns, rows, str)).removeprefix("\ufeff")
    assert list(csv.reader(io.StringIO(text, newline=""))) == [
        ["Description", "Amount"],
        ["Bell\x07 and\x00 null", "-2"],
        ["'=1+1", "-2"],
    ]
