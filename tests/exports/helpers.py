"""Reading an export as a spreadsheet would: the CSV with the csv module (after
checking its byte-order mark), the XLSX with openpyxl."""

import codecs
import csv
import io

import openpyxl

# Text a resident (or anyone) can type that a spreadsheet would run as a formula.
HOSTILE = (
    '=HYPERLINK("http://evil")',
    "+1",
    "-2+3",
    "@SUM(A1)",
    "\tTab first",
    "\r\nCR LF first",
)


def neutralised(value: str) -> str:
    """How a CSV writes text a spreadsheet would run: with a leading quote."""
    return "'" + value


class XlsxRows(list):
    """Rows read from an XLSX export: there, such text is a text cell, as typed."""


def body(response) -> bytes:
    return b"".join(response.streaming_content)


def read_csv(response) -> list[dict]:
    """The CSV export's rows as {heading: text}; asserts the download and BOM."""
    assert response.status_code == 200, response
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith("attachment;")
    data = body(response)
    assert data.startswith(codecs.BOM_UTF8)
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    return [dict(zip(rows[0], row, strict=True)) for row in rows[1:]], rows[0]


def read_xlsx(response) -> list[dict]:
    """The XLSX export's rows as {heading: value} ("" for an empty cell); asserts
    that no cell holds a formula."""
    assert response.status_code == 200, response
    assert response["Content-Type"].startswith(
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )
    book = openpyxl.load_workbook(io.BytesIO(body(response)))
    sheet = book.worksheets[0]
    cells = list(sheet.iter_rows())
    assert all(cell.data_type != "f" for row in cells for cell in row)
    rows = [["" if c.value is None else c.value for c in row] for row in cells]
    return XlsxRows(dict(zip(rows[0], row, strict=True)) for row in rows[1:]), rows[0]


def both(client, url_name: str, query: str = ""):
    """(CSV rows, XLSX rows, headings) of one list's export with `query`."""
    from django.urls import reverse

    suffix = f"?{query}" if query else ""
    csv_rows, csv_head = read_csv(client.get(reverse(f"{url_name}_csv") + suffix))
    xlsx_rows, xlsx_head = read_xlsx(client.get(reverse(f"{url_name}_xlsx") + suffix))
    assert csv_head == xlsx_head
    return csv_rows, xlsx_rows, csv_head


def assert_neutralised(rows, column: str) -> None:
    """Every hostile text is in `column`, never to be run: in a CSV with its
    leading quote; in an XLSX as typed, in a text cell (read_xlsx has checked
    that no cell is a formula). An XLSX reader may give CR LF back as LF."""
    found = {str(row[column]).replace("\r\n", "\n") for row in rows}
    as_text = isinstance(rows, XlsxRows)
    for text in HOSTILE:
        written = text if as_text else neutralised(text)
        assert written.replace("\r\n", "\n") in found, text
    if not as_text:
        for text in HOSTILE:
            assert text.replace("\r\n", "\n") not in found, text
