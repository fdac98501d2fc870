"""One registry of document kinds (documents.registry), keyed by kind: each
app owns the facts, builders and samples of its documents; cases only holds the
generic machinery. The fine tiers are enforcement.penalties' only."""

import ast
from decimal import Decimal
from pathlib import Path

import pytest

from documents import registry
from documents.contracts import (
    FactsInvalid,
    document_kind_values,
    validate_facts,
)
from documents.render import render
from enforcement import penalties
from enforcement.document_kinds import EnforcementDocument
from enforcement.documents.notice import Fine, sample_notice_of_violation
from inspections.document_kinds import InspectionDocument

from .conftest import pdf_text

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
APPS = ("cases", "enforcement", "inspections", "poquott_ms4", "control", "bench")

OWNERS = {
    EnforcementDocument.NOTICE_OF_VIOLATION: ("enforcement", "noticeofviolation"),
    EnforcementDocument.EMERGENCY_SUSPENSION: ("enforcement", "accesssuspension"),
    EnforcementDocument.PROPOSED_TERMINATION: ("enforcement", "accesstermination"),
    EnforcementDocument.TERMINATION_DECISION: ("enforcement", "accesstermination"),
    EnforcementDocument.ACCESS_REQUEST: ("enforcement", "correctiveaction"),
    EnforcementDocument.APPEAL_DECISION: ("enforcement", "appeal"),
    # The invoice of costs: of corrective measures and of a summary abatement.
    EnforcementDocument.CORRECTIVE_INVOICE: (
        "enforcement",
        ("correctiveaction", "nuisanceabatement"),
    ),
    InspectionDocument.INSPECTION_REPORT: ("inspections", "inspection"),
    InspectionDocument.WARRANT_COVER_SHEET: ("inspections", "warrantapplication"),
}


# enforcement's letters: one module each (issue 30).
DOCUMENT_MODULES = sorted((ROOT / "enforcement" / "documents").glob("*.py"))


def _of_documents(module: str, app: str) -> bool:
    """`module` is the app's documents module, or one of its documents package."""
    return module == f"{app}.documents" or module.startswith(f"{app}.documents.")


def test_every_kind_is_registered_once_by_the_app_that_owns_it():
    assert set(registry.registered_kinds()) == set(document_kind_values())
    for kind, (app, models) in OWNERS.items():
        models = (models,) if isinstance(models, str) else models
        entry = registry.document_type(kind)
        assert entry.facts.kind == kind
        assert _of_documents(entry.facts.__module__, app), kind
        assert list(entry.builders) == [f"{app}.{m}" for m in models], kind
        for model in models:
            builder = entry.builders[f"{app}.{model}"]
            assert _of_documents(builder.__module__, app)
            assert kind in registry.kinds_for(f"{app}.{model}")
        assert _of_documents(entry.sample.__module__, app), kind
        assert isinstance(entry.sample(), entry.facts)


def test_an_unknown_kind_or_record_is_refused_in_words():
    with pytest.raises(FactsInvalid, match="unknown document kind"):
        registry.document_type("nope")
    with pytest.raises(FactsInvalid, match="unknown document kind"):
        validate_facts("nope", sample_notice_of_violation())
    assert (
        registry.builder_for(EnforcementDocument.NOTICE_OF_VIOLATION, "cases.case")
        is None
    )


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def test_the_generic_machinery_imports_no_other_app():
    paths = sorted((ROOT / "documents").glob("*.py"))
    assert len(paths) > 8  # the pipeline's modules are read
    for path in paths:
        for module in _imports(path):
            assert not module.startswith(("cases", "enforcement", "inspections")), (
                path.name,
                module,
            )


def test_the_dead_and_duplicate_places_are_gone():
    assert not (ROOT / "documents" / "builders.py").exists()
    assert not (ROOT / "enforcement" / "facts.py").exists()
    for path in (ROOT / "inspections" / "documents.py", *DOCUMENT_MODULES):
        source = path.read_text()
        assert "BUILDERS" not in source and "KINDS_BY_MODEL" not in source


# --- the fine tiers: enforcement.penalties only ------------------------------------


def test_the_fine_tiers_are_defined_only_in_penalties():
    """No other module types a tier's bounds (350, 700, 1000 dollars)."""
    offenders = []
    code = [ROOT / d for d in APPS]
    for path in (p for folder in code for p in folder.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        if path == ROOT / "enforcement" / "penalties.py":
            continue
        text = path.read_text()
        if 'Decimal("350")' in text or 'Decimal("700")' in text:
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


@pytest.mark.parametrize("tier", penalties.TIERS, ids=lambda t: t.rule_id)
def test_the_notice_checks_a_fine_against_the_penalties_tier(tier, monkeypatch):
    changes = {"amount": tier.maximum, "tier": tier.number}
    validate_facts(
        EnforcementDocument.NOTICE_OF_VIOLATION,
        sample_notice_of_violation(fine=Fine(**changes)),
    )
    over = tier.maximum + Decimal("0.01")
    with pytest.raises(FactsInvalid, match=f"outside the range.*{tier.rule_id}"):
        validate_facts(
            EnforcementDocument.NOTICE_OF_VIOLATION,
            sample_notice_of_violation(fine=Fine(amount=over, tier=tier.number)),
        )
    # The notice follows the one definition: move the bound there, it moves here.
    moved = penalties.Tier(
        tier.number,
        tier.rule_id,
        tier.minimum,
        over,
        tier.name,
        tier.printed,
    )
    monkeypatch.setattr(
        penalties,
        "TIERS",
        tuple(moved if t.number == tier.number else t for t in penalties.TIERS),
    )
    validate_facts(
        EnforcementDocument.NOTICE_OF_VIOLATION,
        sample_notice_of_violation(fine=Fine(amount=over, tier=tier.number)),
    )


@pytest.mark.parametrize("tier", penalties.TIERS, ids=lambda t: t.rule_id)
def test_the_notice_prints_the_offense_as_penalties_names_it(tier):
    amount = max(tier.minimum, Decimal("1"))
    facts = sample_notice_of_violation(fine=Fine(amount=amount, tier=tier.number))
    text = pdf_text(render(EnforcementDocument.NOTICE_OF_VIOLATION, facts).pdf)
    assert tier.printed in text


def test_who_may_issue_a_kind_is_registered_by_the_app_that_owns_it():
    """No second role table in the pipeline (issue 30): each kind's issuers come
    with its registration; the Board's papers are its clerk's (R-APL-2, R-APL-3)."""
    from kernel.roles import Role

    assert registry.issuers_of(EnforcementDocument.HEARING_NOTICE) == (Role.CLERK,)
    assert registry.issuers_of(EnforcementDocument.MEETING_AGENDA) == (Role.CLERK,)
    assert registry.issuers_of(EnforcementDocument.APPEAL_DECISION) == (
        Role.CLERK,
        Role.SMO,
    )
    assert registry.issuers_of(EnforcementDocument.NOTICE_OF_VIOLATION) == (Role.SMO,)
    assert registry.issuers_of("nope") == ()
    assert all(registry.issuers_of(kind) for kind in registry.registered_kinds())
    source = (ROOT / "documents" / "services.py").read_text()
    assert "ISSUERS" not in source


def test_each_app_declares_its_own_kinds_of_document():
    """The pipeline names no kind: the apps that issue them declare them."""
    from documents.contracts import document_kinds
    from enforcement.document_kinds import EnforcementDocument
    from inspections.document_kinds import InspectionDocument
    from ledger.document_kinds import LedgerDocument
    from reporting.document_kinds import ReportingDocument

    declared = [
        *InspectionDocument.choices,
        *EnforcementDocument.choices,
        *LedgerDocument.choices,
        *ReportingDocument.choices,
    ]
    assert sorted(document_kinds()) == sorted(declared)
    assert len(dict(document_kinds())) == len(declared)  # no value twice
