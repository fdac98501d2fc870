"""Pages never decide what to show by comparing a status or a role name (issue 14):
buttons come from the state machine (`kernel.workflow.actions`), other state-dependent
parts from a model or selector predicate with a name, role-dependent parts from
`kernel.roles` through the view. A grep over the templates and the views."""

import re
from pathlib import Path

from tests.project import templates, view_modules

ROOT = Path(__file__).resolve().parent.parent
ROLE_NAMES = ("SMO staff", "Board clerk", "Municipal attorney", "Building inspector")
PATTERNS = [
    re.compile(r"\.status\s*(==|!=)"),
    re.compile(r"\.status\s+(not\s+)?in\b"),
    re.compile(r"\bstatus\s*(==|!=)\s*['\"]"),
    re.compile(r"\buser_roles\b"),
    re.compile("|".join(re.escape(f'"{n}"') for n in ROLE_NAMES)),
    re.compile("|".join(re.escape(f"'{n}'") for n in ROLE_NAMES)),
]
# (file, fragment of the line) allowed to compare a status or a role name: none.
# Issue 14 emptied it; a page that needs a state-dependent part asks a predicate.
ALLOWED: list[tuple[str, str]] = []


def _offences():
    found = []
    for path in [*(path for _, path in templates()), *view_modules()]:
        if path.suffix not in (".html", ".py", ".txt"):
            continue
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if any(p.search(line) for p in PATTERNS):
                name = str(path.relative_to(ROOT))
                if not any(f == name and bit in line for f, bit in ALLOWED):
                    found.append(f"{name}:{number}: {line.strip()[:120]}")
    return found


def test_no_template_or_view_compares_a_status_or_role_name():
    offences = _offences()
    assert not offences, "decide by a predicate, not a status test:\n" + "\n".join(
        offences
    )


def test_the_allow_list_stays_empty():
    assert ALLOWED == []


def test_the_grep_finds_what_it_must():
    line = "{% if notice.status == 'draft' %}"
    assert any(p.search(line) for p in PATTERNS)
    assert any(p.search('{% if "SMO staff" in user_roles %}') for p in PATTERNS)
    assert not any(p.search("{% if notice.is_frozen %}") for p in PATTERNS)
