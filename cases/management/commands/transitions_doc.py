"""Write docs/transitions.md: every state machine of the project (each model with an
FSMField) as a Mermaid diagram and a table, generated from the FSMs themselves.
A test fails when the committed file is stale."""

from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.core.management.base import BaseCommand
from django_fsm import FSMFieldMixin

DOC_PATH = Path(settings.BASE_DIR) / "docs" / "transitions.md"
PROJECT_APPS = ("cases", "inspections", "enforcement")


def fsm_fields():
    """(model, field) for every FSM field of the project's apps, in a stable order."""
    found = []
    for model in apps.get_models():
        if model._meta.app_label not in PROJECT_APPS:
            continue
        for field in model._meta.concrete_fields:
            if isinstance(field, FSMFieldMixin):
                found.append((model, field))
    return sorted(found, key=lambda mf: (mf[0]._meta.label, mf[1].name))


def _section(model, field) -> list[str]:
    transitions = list(field.get_all_transitions(model))
    edges = sorted(
        {
            (str(t.source), str(t.target), t.name, t.custom.get("label", t.name))
            for t in transitions
        }
    )
    by_name = {t.name: t for t in transitions}
    lines = [
        f"## {model._meta.verbose_name.capitalize()} (`{model._meta.label}.{field.name}`)",
        "",
        "```mermaid",
        "stateDiagram-v2",
    ]
    for value, label in field.choices or ():
        lines.append(f"    {value} : {label}")
    if field.default is not None and not callable(field.default):
        lines.append(f"    [*] --> {field.default}")
    for source, target, name, label in edges:
        lines.append(f"    {source} --> {target} : {label} ({name})")
    lines += ["```", "", "| transition | from | to | conditions | rule |"]
    lines.append("|---|---|---|---|---|")
    for source, target, name, _label in edges:
        t = by_name[name]
        guards = ", ".join(f"`{c.__name__}`" for c in t.conditions) or "—"
        rule = t.custom.get("rule_id", "") or "—"
        lines.append(f"| `{name}` | {source} | {target} | {guards} | {rule} |")
    return [*lines, ""]


def transitions_markdown() -> str:
    lines = [
        "# State machines",
        "",
        "Generated from the models by `manage.py transitions_doc` (`make docs`); "
        "do not edit by hand.",
        "",
    ]
    for model, field in fsm_fields():
        lines += _section(model, field)
    return "\n".join(lines).rstrip() + "\n"


class Command(BaseCommand):
    help = "Write docs/transitions.md from every FSM of the project."

    def handle(self, *args, **options):
        DOC_PATH.parent.mkdir(parents=True, exist_ok=True)
        DOC_PATH.write_text(transitions_markdown(), encoding="utf-8")
        self.stdout.write(f"Wrote {DOC_PATH}")
