"""The committed transition diagram is current; the admin opens; demo data loads
twice without change and leaves a report in triage and a long timeline."""

import pytest
from django.core.management import call_command

from cases.clocks import clocks_markdown
from cases.management.commands.transitions_doc import (
    CLOCKS_PATH,
    DOC_PATH,
    fsm_fields,
    transitions_markdown,
)
from cases.models import Case, CaseStatus
from intake.models import Report

pytestmark = pytest.mark.django_db


def test_committed_transition_diagram_is_current():
    assert DOC_PATH.exists(), "run: make docs"
    assert DOC_PATH.read_text(encoding="utf-8") == transitions_markdown(), (
        "docs/transitions.md is stale: run make docs"
    )


def test_committed_clock_table_page_is_current():
    assert CLOCKS_PATH.read_text(encoding="utf-8") == clocks_markdown(), (
        "docs/clocks.md is stale: run make docs"
    )


def test_diagram_names_every_transition_of_every_state_machine():
    text = transitions_markdown()
    models = {model for model, _field in fsm_fields()}
    assert Case in models and len(models) >= 6  # cases, inspections, enforcement
    for model, field in fsm_fields():
        for t in field.get_all_transitions(model):
            assert f"({t.name})" in text


@pytest.mark.parametrize(
    "model",
    [
        "cases/case",
        "cases/premises",
        "cases/party",
        "cases/outfall",
        "intake/exemptcategory",
        "intake/pollutantcategory",
        "intake/report",
        "intake/apikey",
        "kernel/caseevent",
        "kernel/delegation",
        "kernel/citation",
        "documents/issueddocument",
        "outbox/outgoingmessage",
        "deadlines/deadline",
        "deadlines/reminder",
        "deadlines/officeclosure",
    ],
)
def test_admin_pages_open(client, superuser, model):
    client.force_login(superuser)
    assert client.get(f"/admin/{model}/").status_code == 200


def test_demo_cases_are_idempotent_and_cover_the_states():
    call_command("load_demo_data", verbosity=0)
    counts = (Case.objects.count(), Report.objects.count())
    call_command("load_demo_data", verbosity=0)
    assert (Case.objects.count(), Report.objects.count()) == counts
    statuses = set(Case.objects.values_list("status", flat=True))
    assert {CaseStatus.NEW, CaseStatus.INVESTIGATING, CaseStatus.REFERRED} <= statuses
    assert Report.objects.filter(case__isnull=True).count() >= 2
    longest = max(c.events.count() for c in Case.objects.all())
    assert longest >= 10


def test_each_app_registers_its_demo_records_lower_apps_first():
    """kernel.demo: named by the apps that own them, loaded bottom-up, the
    respondent's page last (it prints the codes of the documents above)."""
    import importlib

    from kernel import demo

    assert demo.modules() == [
        "kernel.demo_users",
        "intake.demo",
        "cases.demo_cases",
        "inspections.demo",
        "enforcement.demo_clocks",
        "enforcement.demo",
        "ledger.demo",
        "fieldwork.demo",
        "portal.demo",
    ]
    assert all(callable(importlib.import_module(m).load) for m in demo.modules())
