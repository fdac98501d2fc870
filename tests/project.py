"""The project's own apps, for the tests that read the source: the packages of
the layers contract (pyproject.toml, [tool.importlinter]), so an app added there
is read here too."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
with (ROOT / "pyproject.toml").open("rb") as handle:
    APPS: tuple[str, ...] = tuple(
        tomllib.load(handle)["tool"]["importlinter"]["root_packages"]
    )


def view_modules() -> list[Path]:
    """Every app's views: its views/ package and any views*.py module."""
    found = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if path.parent.name == "views" or path.name.startswith("views"):
                found.append(path)
    return found
