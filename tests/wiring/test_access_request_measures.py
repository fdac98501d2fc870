"""Issue 19, § 132-15 A: the SMO requests "the owner's permission for access to
the subject private property to take any and all measures reasonably necessary
to abate the violation and/or restore the property". The access-request letter
lists those measures from the notice's requirements: the elimination of the
illicit connection or discharge (1) and the abatement and restoration (3);
never the fine, the order to cease and desist, monitoring or BMPs, which are
the violator's to do, not measures the Village takes on the property.

Built through the services and the record's page; read in the PDF's text."""

import datetime as dt

import pytest
from django.urls import reverse

from documents.contracts import FactsInvalid
from documents.selectors import documents_of
from documents.services import document_render, issue_for
from enforcement.document_kinds import EnforcementDocument
from enforcement.documents.corrective import access_request_contract
from enforcement.models import CorrectiveAction, RequirementKind
from enforcement.services import notices as notice_svc
from enforcement.services import remedies as remedy_svc
from enforcement.services.flow import Refused
from tests.documents.conftest import pdf_text
from tests.enforcement.conftest import FINE, draft

pytestmark = pytest.mark.django_db

ELIMINATE = "Cap the laundry drain at the lot line."
STOP = "Stop pumping pool water to the street."
ABATE = "Clean the catch basin in front of no. 12."
MONITOR = "Sample the outfall weekly and report to the SMO."
PAY = "Pay the fine to the Village Clerk."
BMPS = "Cover the salt pile."


def not_complied(case, smo_user, requirements, **values):
    notice = draft(case, smo_user, requirements=requirements, **values)
    notice = notice_svc.notice_issue(
        notice=notice, actor=smo_user, issued_on=dt.date(2026, 3, 3)
    )
    return notice_svc.notice_record_noncompliance(notice=notice, actor=smo_user)


@pytest.fixture
def every_requirement(confirmed_case, smo_user):
    return not_complied(
        confirmed_case,
        smo_user,
        [
            (RequirementKind.ELIMINATION, ELIMINATE),
            (RequirementKind.CEASE_DESIST, STOP),
            (RequirementKind.ABATEMENT, ABATE),
            (RequirementKind.MONITORING, MONITOR),
            (RequirementKind.FINE, PAY),
            (RequirementKind.BMPS, BMPS),
        ],
        remediation_days=10,
        proposed_fine=FINE,
    )


def test_the_letter_lists_only_the_measures_to_abate_or_restore(
    every_requirement, smo_user
):
    action = remedy_svc.corrective_request_access(
        notice=every_requirement, actor=smo_user, request_letter_on=dt.date(2026, 3, 20)
    )
    document = issue_for(
        kind=EnforcementDocument.ACCESS_REQUEST, source=action, actor=smo_user
    )
    text = pdf_text(document_render(document_id=document.pk).pdf.read())
    measures = text[text.index("Measures the Village proposes to take") :]
    measures = measures[: measures.index("Your answer")]
    assert f"(1) {ELIMINATE}" in measures
    assert f"(3) {ABATE}" in measures
    for absent in (STOP, PAY, MONITOR, BMPS, "$300"):
        assert absent not in text


def test_the_letter_issued_from_the_record_page_says_the_same(
    every_requirement, smo_user, client_as
):
    action = remedy_svc.corrective_request_access(
        notice=every_requirement, actor=smo_user, request_letter_on=dt.date(2026, 3, 20)
    )
    client = client_as("smo")
    page = client.post(
        reverse(
            "enforcement:document_issue",
            args=["corrective", action.pk, EnforcementDocument.ACCESS_REQUEST],
        ),
        follow=True,
    )
    assert page.status_code == 200
    document = documents_of(action, EnforcementDocument.ACCESS_REQUEST).get()
    text = pdf_text(document_render(document_id=document.pk).pdf.read())
    assert ABATE in text and ELIMINATE in text
    assert STOP not in text and PAY not in text


def test_a_notice_with_nothing_to_abate_or_restore_gets_no_access_request(
    confirmed_case, smo_user
):
    notice = not_complied(
        confirmed_case,
        smo_user,
        [(RequirementKind.CEASE_DESIST, STOP), (RequirementKind.FINE, PAY)],
        remediation_days=None,
        proposed_fine=FINE,
    )
    with pytest.raises(Refused, match="requires no measure to abate"):
        remedy_svc.corrective_request_access(
            notice=notice, actor=smo_user, request_letter_on=dt.date(2026, 3, 20)
        )
    assert not CorrectiveAction.objects.exists()


def test_the_letter_refuses_a_notice_with_nothing_to_abate_or_restore(
    confirmed_case, smo_user
):
    # A record made before this rule: its letter still cannot list the fine.
    notice = not_complied(
        confirmed_case,
        smo_user,
        [(RequirementKind.CEASE_DESIST, STOP)],
        remediation_days=None,
    )
    action = CorrectiveAction.objects.create(
        case=notice.case,
        notice=notice,
        request_letter_on=dt.date(2026, 3, 20),
        created_by=smo_user,
    )
    with pytest.raises(FactsInvalid, match="requires no measure to abate"):
        access_request_contract(action)
