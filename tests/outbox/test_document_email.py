"""E-mailing a document to a party from its page: queued through the outbox,
sent with its PDF, listed on the page; only those who may issue it may send it."""

import pytest
from django.core import mail
from django.urls import reverse

from cases.models import CaseParty, Party
from cases.services import case_open
from outbox.models import OutgoingMessage

from .helpers import deliver_queued, issued_document

pytestmark = pytest.mark.django_db


@pytest.fixture
def document(smo_user):
    case = case_open(actor=smo_user, source="phone", summary="Oil at the outfall")
    owner = Party.objects.create(name="Harbor Boatyard", email="office@boatyard.org")
    CaseParty.objects.create(case=case, party=owner, role=CaseParty.Role.OWNER)
    return issued_document(case, smo_user)


def _detail(client, document):
    return client.get(reverse("documents:detail", args=[document.pk])).content.decode()


def _email(client, document, recipient):
    return client.post(
        reverse("outbox:document_email", args=[document.pk]),
        {"recipient": recipient},
        follow=True,
    )


def test_the_smo_emails_a_document_to_a_party_with_its_pdf(smo_client, document):
    html = _detail(smo_client, document)
    assert "E-mail to a party" in html
    assert '<option value="office@boatyard.org">Harbor Boatyard (Owner)' in html

    response = _email(smo_client, document, "office@boatyard.org")
    page = response.content.decode()
    assert "will be e-mailed to office@boatyard.org" in page
    message = OutgoingMessage.objects.get(kind="document")
    assert message.is_pending and message.case == document.case
    assert mail.outbox == []  # queued, not sent in the request
    assert "office@boatyard.org · Waiting to be sent" in page

    assert deliver_queued() == 1
    [email] = mail.outbox
    assert email.to == ["office@boatyard.org"]
    assert email.attachments[0][2] == "application/pdf"
    assert "office@boatyard.org · Sent" in _detail(smo_client, document)


def test_a_reader_who_may_not_issue_it_sees_no_form_and_is_refused(
    clerk_client, document
):
    assert "E-mail to a party" not in _detail(clerk_client, document)
    response = _email(clerk_client, document, "office@boatyard.org")
    assert "Your role may not send this document." in response.content.decode()
    assert not OutgoingMessage.objects.exists()


def test_other_roles_get_403_and_a_bad_address_is_refused(
    client_as, document, settings
):
    url = reverse("outbox:document_email", args=[document.pk])
    assert client_as("attorney").post(url, {"recipient": "a@b.org"}).status_code == 403
    response = _email(client_as("smo"), document, "not an address")
    assert "Give the e-mail address" in response.content.decode()
    assert not OutgoingMessage.objects.exists()
