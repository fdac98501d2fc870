"""The respondent's requests are decided through their state machines (issue
30): a proof of correction accepted or not, a change of contact details
confirmed or declined. A decision on a request already decided is refused in
words and changes nothing (R-COR-1: the notice's dates run on)."""

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from cases.models import Party
from enforcement.models import NoticeStatus
from kernel.models import CaseEvent
from kernel.workflow import Refused
from portal.corrections import correction_accept, correction_reject
from portal.models import ContactChangeRequest, CorrectionSubmission
from portal.services import contact_request_confirm, contact_request_decline

from .conftest import enter
from .test_proof_of_correction import send_proof, signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_throttle():
    cache.clear()


def _portal_events(case) -> list[str]:
    return list(
        CaseEvent.objects.filter(case=case, kind="portal")
        .order_by("id")
        .values_list("summary", flat=True)
    )


def test_accepting_a_proof_already_refused_is_refused_and_changes_nothing(
    owner_code, issued_notice, smo_user
):
    send_proof(signed_in(owner_code), issued_notice)
    submission = CorrectionSubmission.objects.get()
    correction_reject(submission=submission, actor=smo_user, reason="Wrong drain.")
    before = _portal_events(issued_notice.case)

    with pytest.raises(Refused, match="was reviewed already"):
        correction_accept(submission=submission, actor=smo_user, record_compliance=True)

    submission.refresh_from_db()
    issued_notice.refresh_from_db()
    assert (submission.status, submission.reason) == ("rejected", "Wrong drain.")
    assert issued_notice.status == NoticeStatus.ISSUED
    assert _portal_events(issued_notice.case) == before
    assert before[-1].endswith("not accepted: Wrong drain.")
    event = CaseEvent.objects.filter(kind="portal", object_id=submission.pk).last()
    assert (event.from_status, event.to_status, event.actor) == (
        "pending",
        "rejected",
        smo_user,
    )


def test_only_the_smo_decides_on_a_proof(owner_code, issued_notice, clerk_user):
    send_proof(signed_in(owner_code), issued_notice)
    submission = CorrectionSubmission.objects.get()
    with pytest.raises(Refused):
        correction_accept(submission=submission, actor=clerk_user)
    submission.refresh_from_db()
    assert submission.is_pending


def test_confirming_a_change_already_declined_is_refused_and_changes_nothing(
    owner_code, owner, smo_user
):
    respondent = Client()
    enter(respondent, owner_code, REMOTE_ADDR="198.51.100.20")
    respondent.post(reverse("portal:contact"), {"email": "pat@example.org"})
    change = ContactChangeRequest.objects.get()
    contact_request_decline(request=change, actor=smo_user, reason="Call us first")
    case = change.access.case
    before = _portal_events(case)

    with pytest.raises(Refused, match="dealt with already"):
        contact_request_confirm(request=change, actor=smo_user)

    change.refresh_from_db()
    assert (change.status, change.reason) == ("declined", "Call us first")
    assert Party.objects.get(pk=owner.pk).email == ""
    assert _portal_events(case) == before


def test_a_confirmed_change_is_on_the_chronology(owner_code, owner, smo_user):
    respondent = Client()
    enter(respondent, owner_code, REMOTE_ADDR="198.51.100.20")
    respondent.post(reverse("portal:contact"), {"email": "pat@example.org"})
    change = ContactChangeRequest.objects.get()

    contact_request_confirm(request=change, actor=smo_user)

    assert Party.objects.get(pk=owner.pk).email == "pat@example.org"
    assert _portal_events(change.access.case)[-1] == (
        f"Change of contact details asked by {owner.name} confirmed"
    )
