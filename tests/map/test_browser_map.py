"""The maps in headless Chromium, without tiles (the default, offline): the SMO
opens the staff map from the navigation, sees the points of every layer,
clicks a case and follows its popup to the case; a resident's report form shows
the village outline and street names at its default zoom (issues 16 and 17)."""

import pytest
from playwright.sync_api import expect

from tests.conftest import browser_sign_in


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_smo_opens_the_map_sees_the_points_and_follows_one_to_its_case(
    browser_page, smo_user, places
):
    page = browser_page
    browser_sign_in(page, "smo")
    page.wait_for_url("**/staff/")
    page.get_by_role("link", name="Map", exact=True).click()
    page.wait_for_url("**/staff/map/")
    assert page.get_by_role("heading", name="Map of the village").is_visible()

    # (Locators, not wait_for_function: the page's CSP forbids string eval.)
    page.locator("#village-map[data-loaded='4']").wait_for()
    points = page.locator("#village-map .map-point")
    # 2 open cases, 1 report of the last 90 days, 2 outfalls, 1 inspection due.
    assert points.count() == 6
    assert page.locator(".map-point-cases").count() == 2
    assert page.locator(".map-point-outfalls").count() == 2
    # The layer control names each layer with its count.
    control = page.locator(".leaflet-control-layers")
    assert "Cases (2)" in control.inner_text()
    assert "Inspections due (1)" in control.inner_text()
    # Without tiles the village outline and street names are the landmarks.
    assert page.locator("#village-map .map-outline").count() == 1
    assert page.locator(".map-label-street").filter(has_text="Birchwood").count() == 1

    # Unticking a layer hides its points.
    control.get_by_label("Outfalls by latest screening (2)").uncheck()
    assert page.locator(".map-point-outfalls").count() == 0
    control.get_by_label("Outfalls by latest screening (2)").check()
    assert page.locator(".map-point-outfalls").count() == 2

    # The case at the premises it shares with an inspection due: the case is
    # on top, and its popup links to the case.
    case = places["open_at_premises"]
    popup = page.locator(".leaflet-popup-content").filter(has_text=case.number)
    for i in range(2):
        page.locator(".map-point-cases").nth(i).click()
        if popup.count():
            break
        page.keyboard.press("Escape")
        page.locator(".leaflet-popup").wait_for(state="detached")
    assert "Illicit connection" in popup.inner_text()
    assert "30 Washington Street" in popup.inner_text()
    popup.get_by_role("link", name=f"Open case {case.number}").click()
    page.wait_for_url(f"**/staff/cases/{case.number}/")
    assert case.number in page.get_by_role("heading", level=1).inner_text()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_public_map_shows_reports_at_street_level(browser_page, places):
    page = browser_page
    page.goto("/map/")
    page.locator("#village-map[data-loaded='1']").wait_for()
    assert page.locator("#village-map .map-point-public").count() == 1
    page.locator(".map-point-public").click()
    popup = page.locator(".leaflet-popup-content").inner_text()
    assert "Birchwood Avenue" in popup
    assert "12 Birchwood" not in popup
    assert "Rita" not in page.content()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_report_form_without_tiles_shows_the_outline_and_street_names(
    browser_page,
):
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/report/")
    map_box = page.locator("#report-map")
    map_box.scroll_into_view_if_needed()
    labels = page.locator("#report-map .map-label-street")
    labels.first.wait_for()
    assert page.locator("#report-map .map-outline").count() == 1
    box = map_box.bounding_box()
    seen = []
    for i in range(labels.count()):
        label = labels.nth(i).bounding_box()
        if (
            label
            and box["x"] <= label["x"]
            and label["x"] + label["width"] <= box["x"] + box["width"]
            and box["y"] <= label["y"]
            and label["y"] + label["height"] <= box["y"] + box["height"]
        ):
            seen.append(labels.nth(i).inner_text())
    # At the default zoom, some street names are readable inside the map box.
    assert seen, "no street name inside the map at its default zoom"
    assert "Birchwood Avenue" in seen
    # The pin still drops where the resident taps (labels do not catch the tap).
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(page.locator("input[name=latitude]")).not_to_have_value("")
    assert "Pin set at" in page.locator("#pin-status").inner_text()
