import pytest

from tests.conftest import browser_sign_in


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_smo_signs_in_and_reaches_the_dashboard(browser_page, smo_user):
    browser_sign_in(browser_page, "smo")
    browser_page.wait_for_url("**/staff/")
    assert browser_page.get_by_role("heading", name="Dashboard").is_visible()
