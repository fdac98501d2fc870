"""Write docs/case-transitions.md: the case state machine as a Mermaid diagram,
generated from the FSM itself (tests fail when the committed file is stale)."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

DOC_PATH = Path(settings.BASE_DIR) / "docs" / "case-transitions.md"


def case_transitions_markdown() -> str:
    from cases.models import Case, CaseStatus

    field = Case._meta.get_field("status")
    edges = sorted(
        {
            (str(t.source), str(t.target), t.name, t.custom.get("label", t.name))
            for t in field.get_all_transitions(Case)
        }
    )
    lines = [
        "# Case status transitions",
        "",
        "Generated from `cases.models.Case` by "
        "`manage.py case_transitions_doc`; do not edit by hand.",
        "",
        "```mermaid",
        "stateDiagram-v2",
    ]
    for status in CaseStatus:
        lines.append(f"    {status.value} : {status.label}")
    lines.append(f"    [*] --> {CaseStatus.NEW.value}")
    for source, target, name, label in edges:
        lines.append(f"    {source} --> {target} : {label} ({name})")
    lines += [
        "```",
        "",
        "| transition | from | to | conditions | rule |",
        "|---|---|---|---|---|",
    ]
    meta = {t.name: t for t in field.get_all_transitions(Case)}
    for source, target, name, _label in edges:
        t = meta[name]
        guards = ", ".join(f"`{c.__name__}`" for c in t.conditions) or "—"
        rule = t.custom.get("rule_id", "") or "—"
        lines.append(f"| `{name}` | {source} | {target} | {guards} | {rule} |")
    return "\n".join(lines) + "\n"


class Command(BaseCommand):
    help = "Write docs/case-transitions.md from the case FSM."

    def handle(self, *args, **options):
        DOC_PATH.parent.mkdir(parents=True, exist_ok=True)
        DOC_PATH.write_text(case_transitions_markdown(), encoding="utf-8")
        self.stdout.write(f"Wrote {DOC_PATH}")
