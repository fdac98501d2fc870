"""Every kind of chronology entry the code writes has its words, registered by
the app that writes it (kernel.models.event_kinds, issue 30): the kernel names
only its own."""

import re

import pytest
from django.core.management import call_command

from kernel.models import CaseEvent, event_kinds
from tests.project import APPS, ROOT

WRITTEN = re.compile(r"""\b(?:event_)?kind\s*=\s*["']([a-z_]+)["']""")


def _kinds_given_to_the_chronology() -> set[str]:
    """The literal kinds of record_event(...) and of a step's event_kind=."""
    found = set()
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            text = path.read_text(encoding="utf-8")
            for call in re.finditer(r"record_event\((.*?)\n\s*\)", text, re.S):
                found.update(WRITTEN.findall(call.group(1)))
            found.update(re.findall(r"""\bevent_kind\s*=\s*["']([a-z_]+)["']""", text))
    return found


def test_every_kind_the_code_gives_has_its_words():
    given = _kinds_given_to_the_chronology()
    assert {"inspection", "notice", "appeal", "portal", "document"} <= given
    assert sorted(given - dict(event_kinds()).keys()) == []


@pytest.mark.django_db
def test_every_entry_of_the_demo_cases_reads_in_words():
    call_command("load_demo_data", verbosity=0)
    labels = dict(event_kinds())
    kinds = set(CaseEvent.objects.values_list("kind", flat=True))
    assert len(kinds) >= 8  # the demo cases go through most of the chronology
    assert sorted(kinds - labels.keys()) == []
    entry = CaseEvent.objects.filter(kind="opened").first()
    assert entry.get_kind_display() == "Case opened"


def test_the_kernel_names_only_its_own_kind():
    assert CaseEvent.Kind.choices == [("transition", "Status change")]
    values = [value for value, _ in event_kinds()]
    assert len(values) == len(set(values)) == 19
