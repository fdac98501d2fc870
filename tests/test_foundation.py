"""The foundation: public pages, sign-in and its throttle, roles, health, settings."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings
from django.urls import reverse

from intake.models import ExemptCategory, PollutantCategory
from kernel.models import Citation
from kernel.roles import Role, has_role

pytestmark = pytest.mark.django_db


def test_home_puts_report_first_and_warns_about_hazardous_spills(client):
    response = client.get("/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Call 911 first" in html  # R-SPL-2
    main = html[html.index('id="main"') :]  # the nav bar links the form too
    assert main.index("Call 911 first") < main.index("Report a discharge</a>")
    assert "Basement or crawl-space sump pumps" in html  # § 132-6 A(1)


def test_home_drops_an_exempt_category_marked_substantial_contributor(client):
    ExemptCategory.objects.filter(code="sump-pumps").update(
        substantial_contributor=True
    )
    assert "Basement or crawl-space sump pumps" not in client.get("/").content.decode()


def test_pages_use_our_own_static_files_never_a_cdn(client):
    html = client.get("/").content.decode()
    assert "/static/vendor/bootstrap/bootstrap.min.css" in html
    assert "cdn" not in html.lower()
    assert "https://" not in html.split("<body")[0]


def test_security_txt_names_a_contact_and_expiry(client):
    response = client.get("/.well-known/security.txt")
    body = response.content.decode()
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    assert "Contact: mailto:" in body and "Expires: " in body


def test_healthz_reports_each_service(client):
    response = client.get("/healthz")
    data = response.json()
    assert response.status_code == 200
    assert data["database"] == "ok"
    assert data["cache"] == "ok"
    assert "broker" in data


def test_healthz_is_503_when_the_database_does_not_answer(client, monkeypatch):
    from operations import health

    def broken():
        raise ConnectionError("database down")

    monkeypatch.setattr(health, "_check_database", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["status"] == "down"


def test_role_groups_exist_with_permissions():
    from django.contrib.auth.models import Group

    smo = Group.objects.get(name=Role.SMO.value)
    clerk = Group.objects.get(name=Role.CLERK.value)
    assert smo.permissions.filter(codename="change_case").exists()
    assert clerk.permissions.filter(codename="view_case").exists()
    assert not clerk.permissions.filter(codename="change_case").exists()
    assert {g.name for g in Group.objects.all()} >= {r.value for r in Role}


def test_reference_data_is_seeded():
    assert PollutantCategory.objects.filter(code="sewage").exists()
    assert ExemptCategory.objects.count() == 16
    assert Citation.objects.get(rule_id="R-APL-1").section == "§ 132-14"


def test_superuser_holds_every_role(superuser, no_role_user):
    assert all(has_role(superuser, role) for role in Role)
    assert not has_role(no_role_user, *Role)


def test_sign_in_reaches_the_dashboard(client, smo_user):
    response = client.post(
        reverse("login"), {"username": "smo", "password": "demo-password"}, follow=True
    )
    assert response.redirect_chain[-1][0] == reverse("cases:dashboard")
    assert "Dashboard" in response.content.decode()


@override_settings(LOGIN_THROTTLE_PER_USER=3, LOGIN_THROTTLE_COOLOFF_SECONDS=600)
def test_failed_sign_ins_cool_off_that_user_but_not_the_whole_address(
    client, smo_user, clerk_user
):
    from django.core.cache import cache

    cache.clear()
    for _ in range(3):
        response = client.post(reverse("login"), {"username": "smo", "password": "x"})
        assert "Please enter a correct username" in response.content.decode()
    # Even the right password is refused during the cool-off, with a clear message.
    response = client.post(
        reverse("login"), {"username": "smo", "password": "demo-password"}
    )
    assert response.status_code == 200
    assert "Too many failed sign-ins" in response.content.decode()
    assert "10 minutes" in response.content.decode()
    # A colleague at the same village-hall address can still sign in.
    response = client.post(
        reverse("login"), {"username": "clerk", "password": "demo-password"}
    )
    assert response.status_code == 302


def test_demo_data_is_idempotent_and_refused_in_production():
    from django.contrib.auth import get_user_model

    call_command("load_demo_data", verbosity=0)
    count = get_user_model().objects.count()
    call_command("load_demo_data", verbosity=0)
    assert get_user_model().objects.count() == count
    smo = get_user_model().objects.get(username="smo")
    assert smo.check_password("demo-password") and has_role(smo, Role.SMO)
    with override_settings(DEMO_DATA_ALLOWED=False), pytest.raises(CommandError):
        call_command("load_demo_data", verbosity=0)


def test_navigation_shows_each_role_only_its_pages(client_as):
    html = client_as("clerk").get(reverse("cases:dashboard")).content.decode()
    assert "Dashboard" in html
    assert ">Triage<" not in html  # SMO only


def test_penalties_printed_on_notices_are_section_132_13_b_word_for_word():
    from pathlib import Path

    chapter = Path(__file__).resolve().parents[2] / "shared/ordinance/chapter-132.txt"
    if not chapter.exists():
        pytest.skip("the ordinance text (../shared) is not beside this checkout")
    printed = Citation.objects.get(rule_id="R-PEN-1").notice_text
    as_adopted = printed.removeprefix("Village Code § 132-13 B: ").replace(
        "Chapter 132", "this article"
    )
    assert as_adopted in chapter.read_text()
    assert "deemed misdemeanors" in printed


def test_section_numbers_on_pages_come_from_the_citation_table(client_as):
    client = client_as("attorney")
    url = reverse("enforcement:signoff_list")
    assert "§ 132-17 A:" in client.get(url).content.decode()
    Citation.objects.filter(rule_id="R-ALT-1").update(section="§ 132-17(A)")
    assert "§ 132-17(A):" in client.get(url).content.decode()


def test_the_site_has_a_favicon_and_answers_favicon_ico(client):
    from django.contrib.staticfiles import finders

    page = client.get("/").content.decode()
    icons = re.findall(r'<link rel="icon" href="([^"]+)"', page)
    assert len(icons) == 2 and any(i.endswith(".svg") for i in icons)
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    target = response["Location"]
    assert target in icons  # the same file the pages link
    name = target.removeprefix(settings.STATIC_URL)
    found = finders.find(name)
    assert found and Path(found).read_bytes()[:4] == b"\x00\x00\x01\x00"  # an ICO
    for icon in icons:
        assert finders.find(icon.removeprefix(settings.STATIC_URL))
