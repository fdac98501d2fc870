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


def template_dirs() -> list[Path]:
    """The project's templates/ (the base page, the error pages) and each app's
    own templates/ folder."""
    return [ROOT / "templates"] + [
        ROOT / app / "templates" for app in APPS if (ROOT / app / "templates").is_dir()
    ]


def templates(*suffixes: str) -> list[tuple[str, Path]]:
    """(template name, path) of every template of the project (each app's and
    the project's), whose suffix is one of `suffixes` (every file if none)."""
    found = []
    for folder in template_dirs():
        for path in sorted(folder.rglob("*")):
            if path.is_file() and (not suffixes or path.suffix in suffixes):
                found.append((path.relative_to(folder).as_posix(), path))
    return found
