"""The law in one place (issue 14): every section a user reads comes from the
citation table (kernel.Citation), by rule id; none is typed into the code."""

import ast
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from cases.forms import CaseDetailsForm, CloseExemptForm
from cases.models import Case
from kernel.citations import cite, cited, section_of
from kernel.models import Citation
from kernel.workflow import guard
from tests.project import APPS as PROJECT_APPS
from tests.project import templates

ROOT = Path(settings.BASE_DIR)
APPS = (*PROJECT_APPS, "poquott_ms4")
TYPED = re.compile(r"§\s*132-")
# Where a typed section is the point: the seed of the table itself, the migrations
# that wrote it, and the demo data's sample findings.
ALLOWED_FILES = {"reference_data.py", "demo.py"}
# (path, text): the table's own field says what a section looks like.
ALLOWED_TEXTS = {("kernel/models.py", "e.g. § 132-14")}


def typed_in(source: str) -> list[tuple[int, str]]:
    """(line, text) of each string literal of `source` (f-string parts too) that
    types "§ 132-", leaving out docstrings (comments are not in the tree)."""
    tree = ast.parse(source)
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(
            node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
        ):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and TYPED.search(node.value)
    ]


def typed_sections() -> list[str]:
    found = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts or path.name in ALLOWED_FILES:
                continue
            rel = path.relative_to(ROOT).as_posix()
            for line, text in typed_in(path.read_text(encoding="utf-8")):
                if (rel, text) not in ALLOWED_TEXTS:
                    found.append(f"{rel}:{line}: {text!r}")
    return found


def test_no_section_of_chapter_132_is_typed_into_the_code():
    found = typed_sections()
    assert not found, (
        "Read sections from the citation table by rule id (kernel.citations."
        "section_of / cite, a guard's {section}, {% section %}):\n" + "\n".join(found)
    )


def test_the_scan_sees_strings_and_fstrings_but_not_docstrings_or_comments():
    source = (
        '"""§ 132-3 in a docstring."""\n'
        "# § 132-3 in a comment\n"
        "def f():\n"
        '    """§ 132-3 again."""\n'
        '    return f"{1} § 132-3", "§132-4"\n'
    )
    assert sorted(typed_in(source)) == [(5, " § 132-3"), (5, "§132-4")]


def test_no_page_template_types_a_section():
    found = [
        str(path.relative_to(ROOT))
        for _, path in templates(".html")
        if TYPED.search(path.read_text(encoding="utf-8"))
    ]
    assert not found


@pytest.mark.django_db
def test_cite_reads_the_table_when_shown_not_when_written(
    django_assert_num_queries,
):
    with django_assert_num_queries(0):
        words = cite("R-NOV-1", "Choose at least one requirement of {section}.")
    assert str(words) == "Choose at least one requirement of § 132-13 A."
    Citation.objects.filter(rule_id="R-NOV-1").update(section="§ 132-13 A (amended)")
    assert str(words) == "Choose at least one requirement of § 132-13 A (amended)."
    assert str(cite("R-PRO-2")) == "§ 132-6 A(1)"


@pytest.mark.django_db
def test_a_missing_row_shows_the_rule_id_instead_of_failing():
    Citation.objects.filter(rule_id="R-DEF-1").delete()
    assert section_of("R-DEF-1") == "R-DEF-1"
    assert cited("R-DEF-1", "{section} pollutants") == "R-DEF-1 pollutants"
    assert "R-DEF-1 pollutants" in CaseDetailsForm().as_div()


def test_a_guard_naming_a_section_must_name_its_rule():
    with pytest.raises(ValueError):
        guard("choose at least one requirement of {section}")


@pytest.mark.django_db
def test_case_forms_show_sections_from_the_table():
    assert str(CaseDetailsForm().fields["pollutant_categories"].help_text) == (
        "§ 132-3 pollutants (R-DEF-1)."
    )
    form = CloseExemptForm(case=Case(status="new", version=1), transition="x")
    assert (
        str(form.fields["exempt_category"].label) == "Exempt category of § 132-6 A(1)"
    )
    labels = {
        value: str(label) for value, label in form.fields["exemption_basis"].choices
    }
    assert labels["category"] == "Exempt category of § 132-6 A(1) (R-PRO-2)"
    assert labels["smo_approval"] == "SMO written approval in force (R-PRO-3)"


@pytest.mark.django_db
def test_admin_pollutant_form_shows_the_section_of_hazardous_materials(admin_client):
    response = admin_client.get(reverse("admin:intake_pollutantcategory_add"))
    assert response.status_code == 200
    assert "A hazardous material (§ 132-3)" in response.content.decode()
