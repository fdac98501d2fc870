"""The clock table (cases.clocks, issue 25) is the one place a step opens, meets,
replaces or ends a legal clock: a grep of the apps for the deadline services'
calls, and a check that every row of the table names a real step and real
attributes of its record."""

import re
from pathlib import Path

import pytest
from django.apps import apps

from cases.clocks import TABLE, End, Meet, Replace, Start, sentences
from kernel.workflow import transitions_of
from tests.project import APPS

ROOT = Path(__file__).resolve().parent.parent
CALL = re.compile(
    r"\b(open_deadline|meet_deadline|waive_deadline|end_deadline|replace_deadline)\("
)
# Where the deadline services live, and the table that calls them.
HOME = ("deadlines/services.py", "cases/clocks.py")
# Files that still open or close clocks by hand, each to move into the table
# (issue 25: the field-work and remedy clocks are next). The list only shrinks:
# a file here that no longer calls them fails the test below.
NOT_YET_IN_THE_TABLE = {
    # The SMO's own "Record met" / "Waive" on the deadline page: a person's act
    # on one clock, with a reason, not a step's consequence.
    "deadlines/views.py",
}
# Steps that are not state changes of their record, applied by their service
# with `cases.clocks.apply`.
RECORDED_STEPS = {
    ("cases.outfall", "save"),
    ("enforcement.accesssuspension", "start"),
    ("inspections.calibration", "record"),
    ("inspections.bmprequirement", "require"),
    ("inspections.bmprequirement", "verify"),
    ("inspections.bmprequirement", "satisfy_by_permit"),
    ("inspections.spillnotification", "record"),
    ("enforcement.appeal", "file"),
    ("enforcement.appeal", "record_filing"),
    ("enforcement.appeal", "record_mailing"),
}


def _callers() -> dict[str, list[str]]:
    found = {}
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            name = str(path.relative_to(ROOT))
            if name in HOME or "/migrations/" in name:
                continue
            lines = [
                f"{name}:{n}: {line.strip()}"
                for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
                if CALL.search(line) and not line.lstrip().startswith(("def ", "#"))
            ]
            if lines:
                found[name] = lines
    return found


def test_no_service_opens_or_closes_a_clock_outside_the_table():
    offences = [
        line
        for name, lines in _callers().items()
        if name not in NOT_YET_IN_THE_TABLE
        for line in lines
    ]
    assert not offences, "put it in cases/clocks.py:\n" + "\n".join(offences)


def test_the_list_of_files_not_yet_in_the_table_only_shrinks():
    assert set(_callers()) == NOT_YET_IN_THE_TABLE


def test_the_grep_finds_a_call():
    assert CALL.search("        open_deadline(rule_id='R-APL-1',")
    assert CALL.search("    meet_deadline(deadline, on=on, actor=actor)")


@pytest.mark.parametrize("row", TABLE, ids=lambda r: f"{r.record}.{r.step}")
def test_each_row_names_a_real_step_and_real_attributes(row):
    model = apps.get_model(row.record)
    if (row.record, row.step) not in RECORDED_STEPS:
        assert row.step in transitions_of(model), row.step
    names = [row.when] if row.when else []
    for change in row.does:
        if isinstance(change, Start):
            names += [change.counts_from, change.period, change.each, change.when]
        elif isinstance(change, Meet):
            names.append(change.on)
        elif isinstance(change, Replace):
            names.append(change.by.counts_from)
        names.append(getattr(change, "of", ""))
    for name in filter(None, names):
        assert hasattr(model, name) or name in {
            f.name for f in model._meta.get_fields()
        }, f"{row.record} has no {name}"
    assert all(isinstance(c, Start | Meet | Replace | End) for c in row.does)


def test_the_table_reads_as_sentences():
    words = sentences()
    assert len(words) == len(TABLE)
    assert any(
        s.startswith(
            "Issuing a notice of violation starts the 15-calendar-day clock "
            "“Appeal to the Board of Trustees” (R-APL-1)"
        )
        for s in words
    )
    assert any(
        "Recording a case resolved ends every open clock of the case except R-APL-3"
        in s
        for s in words
    )
