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
    return "'" + value


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
    return [dict(zip(rows[0], row, strict=True)) for row in rows[1:]], rows[0]


def both(client, url_name: str, query: str = ""):
    """(CSV rows, XLSX rows, headings) of one list's export with `query`."""
    from django.urls import reverse

    suffix = f"?{query}" if query else ""
    csv_rows, csv_head = read_csv(client.get(reverse(f"{url_name}_csv") + suffix))
    xlsx_rows, xlsx_head = read_xlsx(client.get(reverse(f"{url_name}_xlsx") + suffix))
    assert csv_head == xlsx_head
    return csv_rows, xlsx_rows, csv_head


def assert_neutralised(values) -> None:
    """Every hostile text is there, with its leading quote (an XLSX reader may
    give CR LF back as LF)."""
    found = {str(v).replace("\r\n", "\n") for v in values}
    for text in HOSTILE:
        assert neutralised(text).replace("\r\n", "\n") in found, text
    for text in HOSTILE:
        assert text.replace("\r\n", "\n") not in found, text
