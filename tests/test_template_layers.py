"""The apps' layers hold for templates too (issue 30): an app renders,
includes and extends only the templates of its own app, of the apps below it
and the project's own (the base page, the error pages), as `lint-imports`
holds it for imports. A lower app that needs an upper app's words takes them
from a registry, not from the upper app's template folder."""

import re
import tomllib

from tests.project import APPS, ROOT, templates

with (ROOT / "pyproject.toml").open("rb") as handle:
    _CONTRACT = tomllib.load(handle)["tool"]["importlinter"]["contracts"][0]
# Each app's floor: 0 at the bottom (the kernel).
FLOOR = {
    app.strip(): floor
    for floor, layer in enumerate(reversed(_CONTRACT["layers"]))
    for app in layer.split("|")
}
# A template named in code or in another template ("cases/case_detail.html").
NAMED = re.compile(r"""["']([\w./-]+\.(?:html|txt))["']""")


def _owners() -> dict[str, str]:
    """Template name -> the app whose templates/ folder holds it ("" for the
    project's own templates/)."""
    owners = {}
    for name, path in templates():
        folder = path.relative_to(ROOT).parts[0]
        owners[name] = "" if folder == "templates" else folder
    return owners


def _uses(owners):
    """(app, file, template name) of each template an app's code or templates name."""
    for app in APPS:
        files = [*(ROOT / app).rglob("*.py"), *(ROOT / app / "templates").rglob("*")]
        for path in files:
            if not path.is_file() or "migrations" in path.parts:
                continue
            for name in NAMED.findall(path.read_text(encoding="utf-8")):
                if name in owners:
                    yield app, path.relative_to(ROOT).as_posix(), name


def test_every_app_is_on_a_floor():
    assert set(APPS) <= set(FLOOR)


def test_no_app_uses_a_template_of_an_app_above_it():
    owners = _owners()
    uses = list(_uses(owners))
    assert len(uses) > 200  # the scan finds the templates the apps name
    upward = sorted(
        f"{file} names {name} ({owners[name]})"
        for app, file, name in uses
        if owners[name] and FLOOR[owners[name]] > FLOOR[app]
    )
    assert upward == []
