"""Write docs/transitions.md: every state machine of the project (each model with an
FSMField) as a Mermaid diagram and a table, generated from the FSMs themselves.
A test fails when the committed file is stale."""

import sysconfig
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.core.management.base import BaseCommand
from django_fsm import FSMFieldMixin

from cases.clocks import clocks_markdown

DOC_PATH = Path(settings.BASE_DIR) / "docs" / "transitions.md"
CLOCKS_PATH = Path(settings.BASE_DIR) / "docs" / "clocks.md"


def project_apps() -> set[str]:
    """The labels of this checkout's own apps (not those installed from PyPI)."""
    installed = Path(sysconfig.get_paths()["purelib"]).resolve()
    return {
        config.label
        for config in apps.get_app_configs()
        if not Path(config.path).resolve().is_relative_to(installed)
    }


def fsm_fields():
    """(model, field) for every FSM field of the project's apps, in a stable order."""
    found = []
    ours = project_apps()
    for model in apps.get_models():
        if model._meta.app_label not in ours:
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
    lines += [
        "```",
        "",
        "| transition | from | to | who | guards (what it says when it fails) | rule |",
        "|---|---|---|---|---|---|",
    ]
    for source, target, name, _label in edges:
        t = next(t for t in transitions if t.name == name and str(t.source) == source)
        lines.append(
            f"| `{name}` | {source} | {target} | {_who(t)} | {_guards(t)} | "
            f"{t.custom.get('rule_id', '') or '—'} |"
        )
    return [*lines, ""]


def _who(t) -> str:
    if t.custom.get("hidden"):
        return "system (another workflow's step)"
    words = getattr(t.permission, "words", None)
    if words:
        return words
    roles = getattr(t.permission, "roles", None)
    return ", ".join(roles) if roles else "anyone"


def _guards(t) -> str:
    """Each guard, its words, and whether the step's own form supplies it
    ("form") or something must be done first ("first")."""
    if not t.conditions:
        return "—"
    parts = []
    for c in t.conditions:
        where = "form" if getattr(c, "supplied_by_form", True) else "first"
        words = getattr(c, "refusal", c.__name__.replace("_", " "))
        # a section is read from the citation table when the reason is given
        words = words.replace("{section}", f"[§ of {getattr(c, 'rule_id', '')}]")
        parts.append(f"`{c.__name__}` ({where}): {words}")
    return "<br>".join(parts)


def transitions_markdown() -> str:
    lines = [
        "# State machines",
        "",
        "Generated from the models by `manage.py transitions_doc` (`make docs`); "
        "do not edit by hand.",
        "",
        "Every step runs through `kernel.workflow.run`. A guard marked *form* is "
        "supplied by the step's own form and checked on submit; one marked *first* "
        "must be satisfied before the step is offered (the button is shown disabled "
        "with its words and, where there is one, a link).",
        "",
    ]
    for model, field in fsm_fields():
        lines += _section(model, field)
    return "\n".join(lines).rstrip() + "\n"


class Command(BaseCommand):
    help = (
        "Write docs/transitions.md from every FSM of the project and "
        "docs/clocks.md from the clock table."
    )

    def handle(self, *args, **options):
        DOC_PATH.parent.mkdir(parents=True, exist_ok=True)
        DOC_PATH.write_text(transitions_markdown(), encoding="utf-8")
        CLOCKS_PATH.write_text(clocks_markdown(), encoding="utf-8")
        self.stdout.write(f"Wrote {DOC_PATH} and {CLOCKS_PATH}")
