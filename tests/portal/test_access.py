"""Access codes of the respondent's page (issue 18): printed on the party's
notice, the one key to that party's own records; wrong codes say nothing about
what exists, are throttled and logged; a revoked code opens nothing."""

import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from enforcement.document_kinds import EnforcementDocument
from enforcement.services import notices as notice_services
from kernel.models import CaseEvent
from kernel.workflow import Refused
from portal import codes
from portal.models import PortalAccess
from portal.services import live_access, portal_issue, portal_revoke
from tests.enforcement.conftest import draft
from tests.visible import visible_text

from .conftest import enter

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_throttle():
    cache.clear()
    yield
    cache.clear()


def _answer(response) -> str:
    """The page as the visitor reads it, without the per-request CSRF token."""
    return re.sub(
        r'name="csrfmiddlewaretoken" value="[^"]+"', "", response.content.decode()
    )


def test_a_code_is_random_typeable_and_grouped():
    drawn = {codes.new_code() for _ in range(200)}
    assert len(drawn) == 200
    for code in drawn:
        assert codes.is_well_formed(code)
        assert not set(code) & set("01OIL")
    assert codes.grouped("K7Q4MZ8P3HXRT9WD") == "K7Q4-MZ8P-3HXR-T9WD"
    assert codes.normalize(" k7q4 mz8p-3hxr–t9wd ") == "K7Q4MZ8P3HXRT9WD"


def test_the_notice_prints_the_address_and_the_owners_code(
    notice_document, confirmed_case, owner, agent
):
    access = live_access(confirmed_case, owner)
    assert access is not None and access.code not in confirmed_case.number
    html = notice_document.html
    assert access.printed in html
    assert "/respond/" in html and "Your page for this case" in html
    # one code per party per case: the agent was not sent this notice
    assert live_access(confirmed_case, agent) is None
    issued = CaseEvent.objects.filter(case=confirmed_case, kind="portal")
    assert issued.filter(summary__contains="issued to Pat Owner").exists()


def test_the_qr_code_in_the_pdf_decodes_to_the_printed_address(notice_document):
    """Each page drawn (pypdfium2) and read by a QR decoder (zxing-cpp): one QR
    code in the whole notice, and it reads as the address the text prints."""
    import io

    import pypdfium2
    import zxingcpp
    from pypdf import PdfReader

    data = notice_document.pdf.open("rb").read()
    found = []
    pdf = pypdfium2.PdfDocument(data)
    for page in pdf:
        image = page.render(scale=150 / 72).to_pil()
        found += [
            r.text for r in zxingcpp.read_barcodes(image) if r.format.name == "QRCode"
        ]
    address = notice_document.facts["online"]["address"]
    assert found == [address]
    text = " ".join(
        " ".join(page.extract_text().split())
        for page in PdfReader(io.BytesIO(data)).pages
    )
    assert address in text
    assert notice_document.facts["online"]["code"] in text


def test_the_right_code_opens_the_owners_page_with_their_dates(
    client, owner_code, issued_notice, confirmed_case
):
    page = enter(
        client, owner_code.lower().replace("-", " "), REMOTE_ADDR="198.51.100.7"
    )
    assert page.status_code == 302 and page.url == reverse("portal:home")
    home = client.get(reverse("portal:home"))
    text = visible_text(home)
    assert f"Case {confirmed_case.number}" in text
    assert f"Notice of violation NOV-{issued_notice.pk}" in text
    for deadline in issued_notice.deadlines().filter(responsible="discharger"):
        assert deadline.label in text
        assert " ".join(deadline.people_explanation.split()) in text
    event = CaseEvent.objects.filter(case=confirmed_case, kind="portal").last()
    assert "opened the respondent's page" in event.summary
    assert "198.51.100.7" in event.summary
    access = live_access(confirmed_case, issued_notice.recipient)
    assert access.status == "used" and access.last_used_from == "198.51.100.7"


def test_a_wrong_code_and_a_code_of_no_case_get_the_same_answer(client, owner_code):
    wrong_char = owner_code[:-1] + ("2" if owner_code[-1] != "2" else "3")
    answers = {
        _answer(enter(client, wrong_char)),  # one character off a real code
        _answer(enter(client, codes.grouped(codes.new_code()))),  # no such code
        _answer(enter(client, "not a code at all")),
    }
    assert len(answers) == 1
    assert "That code does not open a page" in answers.pop()
    assert client.get(reverse("portal:home")).status_code == 302  # nothing opened


def test_wrong_codes_are_logged_without_the_code(client, owner_code, caplog):
    with caplog.at_level("WARNING", logger="poquott.portal"):
        enter(client, "ABCD-EFGH-JKMN-PQRS", REMOTE_ADDR="203.0.113.9")
    assert "203.0.113.9" in caplog.text and "'ABCD'" in caplog.text
    assert "EFGH" not in caplog.text


def test_wrong_codes_from_one_address_are_throttled_then_even_the_right_one_waits(
    client, owner_code, settings
):
    settings.PORTAL_THROTTLE_PER_IP = 3
    for _ in range(3):
        assert enter(client, codes.grouped(codes.new_code())).status_code == 200
    refused = enter(client, owner_code)
    assert refused.status_code == 429
    assert "Too many codes were tried" in visible_text(refused)
    other = enter(client, owner_code, REMOTE_ADDR="192.0.2.50")
    assert other.status_code == 302  # another address is not held back


def test_strangers_guessing_a_codes_first_characters_do_not_lock_its_holder_out(
    client, owner_code
):
    """Ten addresses each try a wrong code that starts like the owner's: the
    owner, from a fresh address, still gets in (no lock per code, issue 28)."""
    prefix = owner_code[:4]
    for n in range(10):
        guess = prefix + "-" + codes.grouped(codes.new_code())[5:]
        wrong = enter(client, guess, REMOTE_ADDR=f"192.0.2.{n + 1}")
        assert "That code does not open a page" in visible_text(wrong)
    assert enter(client, owner_code, REMOTE_ADDR="198.51.100.99").status_code == 302


def test_wrong_codes_are_still_throttled_while_redis_is_down(
    client, owner_code, settings, dead_cache
):
    settings.PORTAL_THROTTLE_PER_IP = 10
    answers = [enter(client, codes.grouped(codes.new_code())) for _ in range(40)]
    assert [a.status_code for a in answers[:10]] == [200] * 10
    assert {a.status_code for a in answers[10:]} == {429}
    assert "Too many codes were tried" in visible_text(answers[-1])
    assert enter(client, owner_code).status_code == 429  # this address waits
    assert enter(client, owner_code, REMOTE_ADDR="192.0.2.70").status_code == 302


def test_addresses_of_one_ipv6_64_share_the_wrong_code_limit(
    client, owner_code, settings
):
    settings.PORTAL_THROTTLE_PER_IP = 3
    for address in ("2001:db8:7:1::1", "2001:db8:7:1::2", "2001:db8:7:1:ffff::f0"):
        enter(client, codes.grouped(codes.new_code()), REMOTE_ADDR=address)
    same_64 = enter(client, owner_code, REMOTE_ADDR="2001:db8:7:1:abcd::9")
    assert same_64.status_code == 429
    next_64 = enter(client, owner_code, REMOTE_ADDR="2001:db8:7:2::1")
    assert next_64.status_code == 302


def test_a_revoked_code_opens_nothing_and_ends_its_session(
    client, owner_code, confirmed_case, owner, smo_user
):
    assert enter(client, owner_code).status_code == 302
    assert client.get(reverse("portal:home")).status_code == 200
    access = live_access(confirmed_case, owner)
    portal_revoke(access=access, actor=smo_user, reason="Letter lost in the mail")
    ended = client.get(reverse("portal:home"), follow=True)
    assert "Your session has ended" in visible_text(ended)
    again = enter(client, owner_code)
    assert "That code does not open a page" in visible_text(again)
    new = portal_issue(case=confirmed_case, party=owner, actor=smo_user)
    assert new.code != access.code and new.is_live
    assert PortalAccess.objects.get(pk=access.pk).status == "revoked"


def test_only_the_smo_issues_or_revokes(confirmed_case, owner, clerk_user, owner_code):
    with pytest.raises(Refused):
        portal_issue(case=confirmed_case, party=owner, actor=clerk_user)
    with pytest.raises(Refused):
        portal_revoke(
            access=live_access(confirmed_case, owner), actor=clerk_user, reason="x"
        )


def test_one_partys_code_never_shows_another_partys_records(
    client, owner_code, confirmed_case, agent, smo_user, issued_notice
):
    to_agent = notice_services.notice_issue(
        notice=draft(confirmed_case, smo_user, recipient=agent),
        actor=smo_user,
        issued_on=issued_notice.issued_on,
    )
    from documents.selectors import latest_document

    agent_doc = latest_document(to_agent, EnforcementDocument.NOTICE_OF_VIOLATION)
    assert live_access(confirmed_case, agent).printed in agent_doc.html
    assert live_access(confirmed_case, agent).code != codes.normalize(owner_code)
    enter(client, owner_code)
    home = client.get(reverse("portal:home"))
    text = visible_text(home)
    assert f"NOV-{issued_notice.pk}" in text
    assert f"NOV-{to_agent.pk}" not in text
    assert "Agent LLC" not in text
    # nor the agent's document by its number
    other = client.get(reverse("portal:document", args=[agent_doc.pk]))
    assert other.status_code == 404


def test_the_page_never_names_the_reporter_nor_shows_internal_notes(
    client, owner_code, confirmed_case, smo_user
):
    from cases.services import note_add

    note_add(
        case=confirmed_case, actor=smo_user, text="Neighbour Jane Doe called it in"
    )
    enter(client, owner_code)
    assert "Jane Doe" not in client.get(reverse("portal:home")).content.decode()


def test_the_smo_sees_the_code_status_on_the_case_page(
    client_as, owner_code, confirmed_case, client
):
    page = client_as("smo").get(reverse("cases:detail", args=[confirmed_case.number]))
    text = visible_text(page)
    assert "Respondent's page" in text
    assert f"Pat Owner: code ending …{codes.normalize(owner_code)[-4:]} issued" in text
    enter(client, owner_code)
    page = client_as("smo").get(reverse("cases:detail", args=[confirmed_case.number]))
    assert "used" in visible_text(page)


def test_the_boards_decision_prints_the_same_code_and_a_new_code_after_revoking(
    owner_code, confirmed_case, owner, smo_user, clerk_user
):
    """One code per party per case: the decision letter prints the owner's live
    code; after the SMO replaces it, the next letter prints the new one."""
    from documents.services import issue_for
    from enforcement.models import Decision
    from tests.enforcement.conftest import schedule_hearing
    from tests.enforcement.test_modified_decision import DECIDED, decide, letter_text

    notice = confirmed_case.notices.get()
    from enforcement.services import appeals as appeal_svc
    from tests.enforcement.conftest import aware

    appeal = appeal_svc.appeal_file(
        notice=notice,
        actor=clerk_user,
        appellant=owner,
        filed_on=notice.issued_on,
        grounds="Rain water.",
    )
    appeal, _ = schedule_hearing(appeal, clerk_user, aware(2026, 3, 24))
    decided = decide(appeal, clerk_user, Decision.UPHELD)
    assert decided.decided_on == DECIDED
    first = " ".join(letter_text(decided, clerk_user).split())
    assert owner_code in first
    new = portal_issue(case=confirmed_case, party=owner, actor=smo_user, reason="lost")
    again = issue_for(
        kind=EnforcementDocument.APPEAL_DECISION, source=decided, actor=clerk_user
    )
    assert new.printed in again.html and owner_code not in again.html
