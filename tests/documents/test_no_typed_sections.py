"""The words users read in the documents, reports and Open311 modules cite the
Village Code from the citation table (kernel.citations.citation("R-…")), never a
"§ 132-…" typed by hand (docstrings and comments may name sections)."""

import ast
from pathlib import Path

from tests.project import templates

ROOT = Path(__file__).resolve().parents[2]
MODULES = [
    *sorted((ROOT / "documents").glob("*.py")),
    *sorted((ROOT / "cases" / "reports").glob("*.py")),
    *sorted((ROOT / "cases" / "open311").glob("*.py")),
    *sorted((ROOT / "enforcement" / "documents").glob("*.py")),
    ROOT / "enforcement" / "penalties.py",
    ROOT / "inspections" / "documents.py",
]


def _docstrings(tree) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(
            node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
        ):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
            ):
                ids.add(id(body[0].value))
    return ids


def typed_sections(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    skip = _docstrings(tree)
    return [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skip
        and "§ 132" in node.value
    ]


def test_no_user_facing_string_types_a_section():
    found = [hit for path in MODULES for hit in typed_sections(path)]
    assert found == []


def test_no_document_template_types_a_section():
    found = [
        str(p.relative_to(ROOT))
        for name, p in templates(".html")
        if name.startswith("documents/") and "§ 132" in p.read_text()
    ]
    assert found == []
