"""No date is computed in a template or a view (issue 16; STYLE.md "Dates and the
law"): every due date a page shows, and every date a letter states, is the one the
deadline engine (deadlines/engine.py) computed and stored, or a model's own
date. Templates print dates (human_tags); views bind forms and call services.

The scan reads the files as text: a new `|add:` on a date, a `timeuntil`, a
`{% now %}` used to work out a day, or a `timedelta(` in a view fails here with
the file and line. A line that must stay says why, in ALLOWED."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.project import templates

ROOT = Path(__file__).resolve().parent.parent

# A word that names a date or a time in a template variable.
_DATEISH = r"[\w.]*(?:date|day|_on|_at|_for|_by|today|now|due|deadline|when)\w*"

TEMPLATE_RULES = (
    (
        re.compile(r"\b" + _DATEISH + r"\s*\|\s*add\s*:"),
        "adds to a date in a template (|add:)",
    ),
    (
        re.compile(r"\|\s*add\s*:\s*[\"']?-?\d+[\"']?\s*(?:\||\}\}|%\})"),
        "adds a number of days in a template (|add:N)",
    ),
    (re.compile(r"\btimeuntil\b"), "counts down to a date in a template"),
    (re.compile(r"\btimesince\b"), "counts from a date in a template"),
    (re.compile(r"\{%\s*now\b"), "takes today's date in a template"),
)

CODE_RULES = (
    (re.compile(r"\btimedelta\s*\("), "date arithmetic (timedelta)"),
    (re.compile(r"\brelativedelta\b"), "date arithmetic (relativedelta)"),
    (re.compile(r"business_days\b"), "business-day arithmetic"),
)

# (file, the line's text as it stands) -> why it stays. Keep it short and each
# reason true: a date shown to anyone, or a legal date, never belongs here.
ALLOWED: dict[tuple[str, str], str] = {
    (
        "outbox/templates/outbox/_rows.html",
        '<td data-label="Age">{{ row.created_at|human_datetime }} '
        '<span class="small text-muted">'
        "({{ row.created_at|timesince:now }} ago)</span></td>",
    ): "how long a queued e-mail has waited (its age beside its date), not a due "
    "date: no rule of the ordinance counts from it",
    (
        "intake/views/public.py",
        "expires = (timezone.now() + timezone.timedelta(days=365)).replace("
        "microsecond=0)",
    ): "the Expires field RFC 9116 requires in /.well-known/security.txt: the "
    "file's own validity, not a date of the ordinance or of a case",
    (
        "intake/open311/views.py",
        "window = timezone.timedelta(days=DEFAULT_WINDOW_DAYS)",
    ): "the GeoReport v2 default search window (which reports a query returns), "
    "not a date shown to anyone",
    (
        "intake/open311/views.py",
        "if start and end and end - start > timezone.timedelta(days=MAX_WINDOW_DAYS):",
    ): "the GeoReport v2 limit on a query's span (90 days), a bound on what one "
    "request may ask for, not a date shown to anyone",
}


def _lines(text: str) -> list[tuple[int, str]]:
    """(line number, stripped text) per line; the allow-list quotes one line."""
    return [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1)]


def _templates() -> list[Path]:
    return [path for _, path in templates(".html", ".txt")]


def _view_modules() -> list[Path]:
    found = set()
    for path in ROOT.rglob("*.py"):
        rel = path.relative_to(ROOT)
        if (
            rel.parts[0] in {".venv", "tests", "node_modules"}
            or "migrations" in rel.parts
        ):
            continue
        if path.name == "views.py" or "views" in rel.parts[:-1]:
            found.add(path)
    return sorted(found)


def _document_builders() -> list[Path]:
    """The facts builders every letter's dates come from: an app's documents.py,
    or its documents/ package of one module per letter (enforcement)."""
    return sorted(
        p
        for pattern in ("*/documents.py", "enforcement/documents/*.py")
        for p in ROOT.glob(pattern)
        if p.relative_to(ROOT).parts[0] not in {".venv", "tests"}
    )


def _findings(paths, rules) -> list[tuple[str, int, str, str]]:
    out = []
    for path in paths:
        rel = str(path.relative_to(ROOT))
        for n, line in _lines(path.read_text(encoding="utf-8")):
            if line.startswith(("#", "{#")):
                continue
            for pattern, what in rules:
                if pattern.search(line):
                    out.append((rel, n, line, what))
    return out


def _unexplained(findings):
    return [
        f"{rel}:{n}: {what}: {line}"
        for rel, n, line, what in findings
        if (rel, line) not in ALLOWED
    ]


def test_the_scan_sees_the_files_it_is_about():
    """A scan that reads nothing passes everything: it must find the pages."""
    found = {str(p.relative_to(ROOT)) for p in _templates()}
    assert "deadlines/templates/deadlines/_case_panel.html" in found
    assert "enforcement/templates/enforcement/notice_detail.html" in found
    assert "templates/base.html" in found
    views = {str(p.relative_to(ROOT)) for p in _view_modules()}
    assert "cases/views/staff.py" in views
    assert "deadlines/views.py" in views
    assert "enforcement/views/appeals.py" in views
    builders = {str(p.relative_to(ROOT)) for p in _document_builders()}
    assert {"enforcement/documents/notice.py", "inspections/documents.py"} <= builders


@pytest.mark.parametrize(
    "line",
    [
        '{{ notice.issued_on|add:"15" }}',
        "{{ d.due_date|add:days }}",
        "{{ deadline.due_date|timeuntil }}",
        "{{ appeal.filed_on|timesince }}",
        '{% now "Y-m-d" as today %}',
        "{{ 14|add:3 }}",
    ],
)
def test_the_template_scan_catches_date_arithmetic(line):
    assert any(p.search(line) for p, _ in TEMPLATE_RULES), line


@pytest.mark.parametrize(
    "line",
    [
        "due = issued_on + dt.timedelta(days=15)",
        "last = add_business_days(decided_on, 5)",
        "from dateutil.relativedelta import relativedelta",
        "engine.compute(rule, start, business_days=5)",
    ],
)
def test_the_code_scan_catches_date_arithmetic(line):
    assert any(p.search(line) for p, _ in CODE_RULES), line


def test_string_joins_and_plain_dates_are_not_date_arithmetic():
    for line in (
        '{% with action_base=here|add:"step/" %}',
        "{{ d.due_date|human_date }}",
        "{{ forloop.counter }}",
    ):
        assert not any(p.search(line) for p, _ in TEMPLATE_RULES), line


def test_no_template_computes_a_date():
    assert _unexplained(_findings(_templates(), TEMPLATE_RULES)) == []


def test_no_view_computes_a_date():
    assert _unexplained(_findings(_view_modules(), CODE_RULES)) == []


def test_letters_take_their_dates_from_the_engine_not_arithmetic():
    """The facts builders (enforcement/documents/, inspections/documents.py)
    state the stored deadlines (or the engine's compute_due for a draft's
    preview), never a date worked out beside them."""
    assert _unexplained(_findings(_document_builders(), CODE_RULES)) == []


def test_every_allowed_line_is_still_there_and_says_why():
    """A stale entry would hide the next line written in its place."""
    found = {
        (rel, line)
        for rel, _, line, _ in _findings(_templates(), TEMPLATE_RULES)
        + _findings(_view_modules(), CODE_RULES)
    }
    for key, why in ALLOWED.items():
        assert key in found, f"not found any more, remove it from ALLOWED: {key}"
        assert len(why.split()) >= 8, f"say why {key} stays"
