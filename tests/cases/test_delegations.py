"""The SMO's written delegations (§ 132-5, R-ADM-1): a staff page listing them
(who, which powers, from–to, instrument, granted by; current / ended / future),
the SMO's form to record one and to end one early, and — while one is in force —
its delegate acts as the SMO, every chronology entry saying so. An expired
delegation gives no such power."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from cases.models import EventKind
from kernel.humanize import human_date
from kernel.models import CaseEvent, Delegation
from kernel.roles import Role, acting_delegation, has_role
from tests.conftest import make_user

from .factories import CaseFactory

pytestmark = pytest.mark.django_db

PAGE = "cases:delegations"
INSTRUMENT = "Letter of the SMO, Nov 30, 2026"


def _today():
    return timezone.localdate()


def _delegate(clerk_user, smo_user, *, starts=-1, ends=10):
    return Delegation.objects.create(
        delegate=clerk_user,
        powers="Record notes and inspections while the SMO is on leave.",
        starts_on=_today() + dt.timedelta(days=starts),
        ends_on=_today() + dt.timedelta(days=ends) if ends is not None else None,
        instrument=INSTRUMENT,
        granted_by=smo_user,
    )


def _form(who, **more):
    return {
        "delegate": who.pk,
        "powers": "Issue notices of violation",
        "starts_on": _today().isoformat(),
        "ends_on": (_today() + dt.timedelta(days=14)).isoformat(),
        "instrument": INSTRUMENT,
        **more,
    }


@pytest.mark.parametrize(
    "role,status,form",
    [
        ("anonymous", 302, False),
        ("no_role", 403, False),
        ("smo", 200, True),
        ("clerk", 200, False),
        ("attorney", 200, False),
        ("inspector", 200, False),
    ],
)
def test_the_page_by_role(client_as, role, status, form, smo_user, clerk_user):
    _delegate(clerk_user, smo_user)
    page = client_as(role).get(reverse(PAGE))
    assert page.status_code == status
    if status == 200:
        body = page.content.decode()
        assert INSTRUMENT in body and "In force" in body
        assert ("Record a written delegation" in body) is form


def test_the_staff_navigation_links_to_it(client_as):
    body = client_as("clerk").get(reverse("cases:dashboard")).content.decode()
    assert f'href="{reverse(PAGE)}"' in body


def test_the_page_lists_current_ended_and_future(smo_client, smo_user, clerk_user):
    attorney = make_user("atty", Role.ATTORNEY)
    _delegate(clerk_user, smo_user)
    _delegate(attorney, smo_user, starts=-30, ends=-2)
    _delegate(attorney, smo_user, starts=5, ends=None)
    body = smo_client.get(reverse(PAGE)).content.decode()
    for words in ("In force", "Ended", "Not yet in force", "until ended"):
        assert words in body
    assert human_date(_today() - dt.timedelta(days=30)) in body


def test_the_smo_records_a_delegation(smo_client, clerk_user):
    page = smo_client.post(reverse(PAGE), _form(clerk_user), follow=True)
    body = page.content.decode()
    made = Delegation.objects.get()
    assert made.delegate == clerk_user and made.granted_by.username == "smo"
    assert "Delegation recorded" in body and "may act for the SMO" in body
    event = CaseEvent.objects.get(rule_id="R-ADM-1")
    assert "Delegation of the SMO's powers to" in event.summary


@pytest.mark.parametrize(
    "changes,error",
    [
        (
            {"ends_on": (timezone.localdate() - dt.timedelta(days=400)).isoformat()},
            "The end cannot be before the start.",
        ),
        ({"instrument": ""}, "This field is required."),
        ({"starts_on": "31/12/2026"}, "Enter a valid date."),
        ({"delegate": "999999"}, "Select a valid choice."),
    ],
)
def test_bad_input_saves_nothing_and_keeps_the_input(
    smo_client, clerk_user, changes, error
):
    data = _form(clerk_user, **changes)
    page = smo_client.post(reverse(PAGE), data)
    assert page.status_code == 200
    body = page.content.decode().replace("&#x27;", "'")
    assert error in body
    assert "Issue notices of violation" in body
    assert not Delegation.objects.exists()


def test_only_the_smo_in_person_records_or_ends_one(client_as, clerk_user, smo_user):
    delegation = _delegate(clerk_user, smo_user)
    # The clerk, acting for the SMO under it, still may not delegate further.
    clerk = client_as("clerk")
    assert clerk.post(reverse(PAGE), _form(clerk_user)).status_code == 403
    end = reverse("cases:delegation_end", args=[delegation.pk])
    assert clerk.post(end, {f"end-{delegation.pk}-ends_on": "x"}).status_code == 403
    assert Delegation.objects.count() == 1


def test_the_smo_ends_a_delegation_early(smo_client, clerk_user, smo_user):
    delegation = _delegate(clerk_user, smo_user)
    end = reverse("cases:delegation_end", args=[delegation.pk])
    field = f"end-{delegation.pk}-ends_on"
    too_early = (delegation.starts_on - dt.timedelta(days=1)).isoformat()
    page = smo_client.post(end, {field: too_early})
    assert page.status_code == 200
    assert "The end cannot be before the start." in page.content.decode()
    page = smo_client.post(end, {field: "not a date"})
    assert "Enter a valid date." in page.content.decode()
    delegation.refresh_from_db()
    assert delegation.ends_on == _today() + dt.timedelta(days=10)

    page = smo_client.post(end, {field: _today().isoformat()}, follow=True)
    assert "ended early" in page.content.decode()
    delegation.refresh_from_db()
    assert delegation.ends_on == _today() and delegation.ended_by == smo_user


def test_an_act_under_a_delegation_shows_it_in_the_case_chronology(
    client, clerk_user, smo_user
):
    case = CaseFactory(investigating=True)
    delegation = _delegate(clerk_user, smo_user)
    client.force_login(clerk_user)
    page = client.post(
        reverse("cases:note_add", args=[case.number]),
        {"text": "Spoke with the owner on site."},
        follow=True,
    )
    assert page.status_code == 200
    event = CaseEvent.objects.get(case=case, kind=EventKind.NOTE)
    assert event.delegation == delegation
    words = (
        f"acting for the SMO under the delegation of "
        f"{human_date(delegation.starts_on)} ({INSTRUMENT})"
    )
    assert words in event.summary
    timeline = client.get(case.get_absolute_url()).content.decode()
    assert words in timeline
    # The SMO's own entries say nothing of the kind.
    client.force_login(smo_user)
    client.post(reverse("cases:note_add", args=[case.number]), {"text": "Reviewed."})
    own = CaseEvent.objects.filter(case=case, kind=EventKind.NOTE).last()
    assert own.delegation is None and "acting for the SMO" not in own.summary


def test_an_expired_or_future_delegation_gives_no_power(client, clerk_user, smo_user):
    case = CaseFactory(investigating=True)
    _delegate(clerk_user, smo_user, starts=-30, ends=-1)
    _delegate(clerk_user, smo_user, starts=2, ends=9)
    client.force_login(clerk_user)
    page = client.post(
        reverse("cases:note_add", args=[case.number]), {"text": "Not mine to add."}
    )
    assert page.status_code == 403
    assert not CaseEvent.objects.filter(case=case, kind=EventKind.NOTE).exists()
    fresh = type(clerk_user).objects.get(pk=clerk_user.pk)
    assert acting_delegation(fresh) is None
    assert not has_role(fresh, Role.SMO)
