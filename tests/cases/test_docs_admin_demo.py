"""The committed transition diagram is current; the admin opens; demo data loads
twice without change and leaves a report in triage and a long timeline."""

import pytest
from django.core.management import call_command

from cases.management.commands.case_transitions_doc import (
    DOC_PATH,
    case_transitions_markdown,
)
from cases.models import Case, CaseStatus, Report

pytestmark = pytest.mark.django_db


def test_committed_transition_diagram_is_current():
    assert DOC_PATH.exists(), "run: manage.py case_transitions_doc"
    assert DOC_PATH.read_text(encoding="utf-8") == case_transitions_markdown(), (
        "docs/case-transitions.md is stale: run manage.py case_transitions_doc"
    )


def test_diagram_names_every_transition():
    text = case_transitions_markdown()
    for t in Case._meta.get_field("status").get_all_transitions(Case):
        assert f"({t.name})" in text


@pytest.mark.parametrize(
    "model", ["case", "premises", "party", "outfall", "caseevent", "exemptcategory"]
)
def test_admin_pages_open(client, superuser, model):
    client.force_login(superuser)
    assert client.get(f"/admin/cases/{model}/").status_code == 200


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
