"""An inspector's day without signal (issue 31), in headless Chromium at phone
and desktop size, by clicking only what the pages show: from the dashboard,
take the day's work offline; without signal record a visit with a sample and an
outfall screening, each with a photo (made smaller on the phone), reload the page (the service worker serves it) and find them
still waiting; back online they are sent, each stored once, the photos after their record
and placed on the inspection and the screening, even when the
office's first answer is lost on the way. A visit for an inspection the office
cancelled meanwhile comes back "kept for the SMO"; signing out with a record
unsent asks first, then deletes what the phone kept."""

import datetime as dt
import io
import re

import pytest
from django.utils import timezone
from PIL import Image
from playwright.sync_api import expect

from fieldwork.models import FieldPhoto, FieldRecord
from inspections import services as inspection_svc
from inspections.models import (
    Inspection,
    InspectionPhoto,
    InspectionStatus,
    OutfallScreening,
    Sample,
    ScreeningPhoto,
)
from kernel.roles import Role
from tests.conftest import background_sync, browser_sign_in, eventually, make_user
from tests.enforcement.test_browser_remedies import labelled, nav

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture
def inspector(db):
    return make_user("smo", Role.SMO, last_name="Officer")


@pytest.fixture
def todays(inspector, premises):
    return inspection_svc.inspection_schedule(
        actor=inspector,
        kind=Inspection.Kind.ROUTINE,
        premises=premises,
        officer=inspector,
        scheduled_for=timezone.now() + dt.timedelta(hours=1),
        purpose="Floor drain",
    )


def wall_clock(ago: dt.timedelta) -> str:
    return f"{timezone.localtime(timezone.now() - ago):%Y-%m-%dT%H:%M}"


def camera_photo(name: str, size=(3000, 2000)) -> dict:
    """A photo as a phone's camera makes it (larger than the office keeps)."""
    out = io.BytesIO()
    Image.new("RGB", size, (90, 120, 60)).save(out, format="JPEG")
    return {"name": name, "mimeType": "image/jpeg", "buffer": out.getvalue()}


def open_the_day(page, size):
    """Sign in, then from the dashboard to the field-work page, kept for offline
    use, with the day's work downloaded."""
    page.set_viewport_size(size)
    browser_sign_in(page, "smo")
    page.get_by_test_id("fieldwork-queue").get_by_role(
        "link", name="Take today's work offline"
    ).click()
    expect(page.locator("#fieldwork[data-offline-ready=yes]")).to_have_count(1)
    page.get_by_role("button", name="Take today's work offline").click()
    expect(page.get_by_test_id("fw-downloaded")).to_contain_text("Downloaded")


def record_visit(page, inspection, *, sample=True, photo=None):
    card = page.get_by_test_id(f"fw-inspection-{inspection.pk}")
    card.get_by_role("button", name="Record the visit").click()
    form = page.locator("#fw-visit")
    form.get_by_label(labelled("When the visit took place")).fill(
        wall_clock(dt.timedelta(minutes=30))
    )
    form.get_by_label(labelled("Who went")).fill("S. Officer")
    form.get_by_label(labelled("Access")).select_option(label="Access granted")
    form.get_by_label(labelled("Findings")).fill("Floor drain piped to the street.")
    if sample:
        form.get_by_role("button", name="Add a sample").click()
        form.get_by_label("What is tested").fill("E. coli")
        form.get_by_label("Bottle id (chain of custody)").fill("B-0142")
    if photo:
        form.get_by_label("Photos").set_input_files(photo)
    form.get_by_role("button", name="Save on this phone").click()


def record_screening(page, outfall, *, photo=None):
    card = page.get_by_test_id(f"fw-outfall-{outfall.pk}")
    card.get_by_role("button", name="Record a screening").click()
    form = page.locator("#fw-screening")
    form.get_by_label(labelled("Screened at")).fill(
        wall_clock(dt.timedelta(minutes=10))
    )
    form.get_by_label(labelled("Flow present")).check()
    form.get_by_label(labelled("Flow rate")).select_option(label="Trickle")
    form.get_by_label(labelled("Colour"), exact=True).select_option(
        label="Faint / slight"
    )
    form.get_by_label(labelled("Overall severity")).select_option(
        label="Potential (indicators present)"
    )
    if photo:
        form.get_by_label("Photos").set_input_files(photo)
    form.get_by_role("button", name="Save on this phone").click()


def outbox(page, state=None):
    """The records listed on the phone (those in `state`: waiting, sending, sent,
    attention, refused); each shows its state in words."""
    records = page.get_by_test_id("fw-outbox").get_by_test_id("fw-record")
    return (
        records
        if state is None
        else records.and_(page.locator(f"[data-state={state}]"))
    )


@pytest.mark.browser
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_day_recorded_without_signal_is_sent_once_when_the_signal_returns(
    browser_page, size, inspector, todays, outfall
):
    page = browser_page
    open_the_day(page, size)

    page.context.set_offline(True)
    record_visit(page, todays, photo=camera_photo("drain.jpg"))
    expect(outbox(page, "waiting")).to_have_count(1)
    record_screening(page, outfall, photo=camera_photo("pipe-end.jpg"))
    expect(outbox(page, "waiting")).to_have_count(2)
    expect(
        page.get_by_test_id("fw-photo").and_(page.locator("[data-state=waiting]"))
    ).to_have_count(2)

    # The page opens again without signal: the service worker keeps it.
    page.reload()
    expect(outbox(page, "waiting")).to_have_count(2)
    expect(outbox(page, "waiting").first).to_contain_text("waiting to send")
    expect(page.get_by_test_id(f"fw-inspection-{todays.pk}")).to_be_visible()
    assert not FieldRecord.objects.exists()

    # The office's first answer to the visit is lost on the way back: the phone
    # keeps it waiting and sends it again; it is stored once.
    lost = []

    def lose_first_answer(route):
        if not lost and '"kind":"visit"' in (route.request.post_data or ""):
            route.fetch()  # the office stores it…
            lost.append(True)
            route.abort()  # …and the answer never reaches the phone
        else:
            route.continue_()

    page.route(re.compile(r"/staff/fieldwork/records/$"), lose_first_answer)
    page.context.set_offline(False)
    expect(outbox(page, "sent")).to_have_count(1, timeout=15000)  # the screening
    assert lost
    page.get_by_role("button", name="Send now").click()
    # Photos are re-encoded in the office: seconds on a busy machine.
    expect(outbox(page, "sent")).to_have_count(2, timeout=15000)
    photos = page.get_by_test_id("fw-photo")
    expect(photos.and_(page.locator("[data-state=sent]"))).to_have_count(
        2, timeout=15000
    )
    expect(photos.first).to_contain_text("sent, added to the")

    assert FieldRecord.objects.count() == 2
    # Each photo once, placed where the office looks for it, made smaller on
    # the phone (3000 × 2000 taken, 1600 wide kept).
    assert FieldPhoto.objects.exclude(placed_at=None).count() == 2
    inspection_photo = InspectionPhoto.objects.get(inspection=todays)
    assert (inspection_photo.width, inspection_photo.height) == (1600, 1067)
    assert ScreeningPhoto.objects.get().original_name == "pipe-end.jpg"
    assert Inspection.objects.get(pk=todays.pk).status == InspectionStatus.RECORDED
    assert [s.chain_of_custody_number for s in Sample.objects.all()] == ["B-0142"]
    screening = OutfallScreening.objects.get()
    assert (screening.flow_rate, screening.colour) == ("trickle", "faint")


@pytest.mark.browser
def test_a_visit_for_an_inspection_cancelled_meanwhile_comes_back_kept(
    browser_page, inspector, todays
):
    page = browser_page
    page.context.grant_permissions(["geolocation"])
    page.context.set_geolocation({"latitude": 40.9523, "longitude": -73.0887})
    open_the_day(page, PHONE)
    page.context.set_offline(True)
    record_visit(
        page, todays, sample=False, photo=camera_photo("drain.jpg", (800, 600))
    )
    inspection_svc.inspection_cancel(
        actor=inspector, inspection=todays, reason="Owner asked for another day."
    )
    page.context.set_offline(False)
    kept = outbox(page, "attention")
    expect(kept).to_contain_text("kept for the SMO")
    expect(kept).to_contain_text("cancelled in the office after the download")
    assert Inspection.objects.get(pk=todays.pk).status == InspectionStatus.CANCELLED
    kept_record = FieldRecord.objects.get()
    assert kept_record.state == FieldRecord.State.NEEDS_ATTENTION
    assert round(kept_record.fields["position"]["latitude"], 4) == 40.9523
    # Its photo came after it and waits with it, not on the cancelled inspection.
    expect(page.get_by_test_id("fw-photo")).to_contain_text(
        "kept with the record for the SMO"
    )
    assert FieldPhoto.objects.get().record == kept_record
    assert not InspectionPhoto.objects.exists()

    # The SMO, from the dashboard: reads what was sent and sets it aside.
    nav(page, "Dashboard")
    page.get_by_role("link", name="Decide on field work kept for you").click()
    waiting = page.get_by_test_id("kept-waiting")
    expect(waiting).to_contain_text("Floor drain piped to the street.")
    expect(waiting).to_contain_text("cancelled in the office after the download")
    expect(waiting.get_by_test_id("kept-photos").get_by_role("img")).to_have_count(1)
    waiting.get_by_label("Why set it aside").fill("Visit again on the new date.")
    waiting.get_by_role("button", name="Set it aside").click()
    expect(page.get_by_role("main")).to_contain_text("Set aside; it stays listed")
    expect(page.get_by_test_id("kept-decided")).to_contain_text(
        "Visit again on the new date."
    )
    assert FieldRecord.objects.get().state == FieldRecord.State.SET_ASIDE


@pytest.mark.browser
def test_a_refused_record_is_corrected_on_the_phone_and_sent(
    browser_page, inspector, todays
):
    page = browser_page
    open_the_day(page, DESKTOP)
    card = page.get_by_test_id(f"fw-inspection-{todays.pk}")
    card.get_by_role("button", name="Record the visit").click()
    form = page.locator("#fw-visit")
    # A visit "tomorrow" (the phone's clock or a slip of the finger).
    form.get_by_label(labelled("When the visit took place")).fill(
        wall_clock(-dt.timedelta(days=1))
    )
    form.get_by_label(labelled("Who went")).fill("S. Officer")
    form.get_by_label(labelled("Access")).select_option(label="Access granted")
    form.get_by_role("button", name="Save on this phone").click()
    refused = outbox(page, "refused")
    expect(refused).to_contain_text("needs attention")
    expect(refused).to_contain_text("in the future")
    assert not FieldRecord.objects.exists()

    refused.get_by_role("button", name="Correct it").click()
    expect(form.get_by_label(labelled("Who went"))).to_have_value("S. Officer")
    form.get_by_label(labelled("When the visit took place")).fill(
        wall_clock(dt.timedelta(minutes=5))
    )
    # With it, a file that only looks like a photo.
    form.get_by_label("Photos").set_input_files(
        {"name": "notes.jpg", "mimeType": "image/jpeg", "buffer": b"not a photo"}
    )
    form.get_by_role("button", name="Save on this phone").click()
    expect(outbox(page, "sent")).to_have_count(1)
    assert Inspection.objects.get(pk=todays.pk).status == InspectionStatus.RECORDED
    # The record is in; the file is refused beside it, and can be let go.
    refused_photo = page.get_by_test_id("fw-photo")
    expect(refused_photo).to_have_attribute("data-state", "refused")
    expect(refused_photo).to_contain_text("is not a photo we can read")
    assert not FieldPhoto.objects.exists()
    refused_photo.get_by_role("button", name="Remove it").click()
    expect(page.get_by_test_id("fw-photo")).to_have_count(0)


@pytest.mark.browser
def test_signing_out_with_a_record_unsent_asks_first_then_clears_the_phone(
    browser_page, inspector, todays
):
    page = browser_page
    open_the_day(page, PHONE)
    page.context.set_offline(True)
    record_visit(page, todays, sample=False)
    expect(outbox(page, "waiting")).to_have_count(1)
    # Back online, but the office does not answer: the record stays unsent.
    # (Its service worker's sending too: the context's route sees both.)
    page.context.route(re.compile(r"/staff/fieldwork/records/$"), lambda r: r.abort())
    page.context.set_offline(False)

    def sign_out():
        toggler = page.get_by_role("button", name="Toggle navigation")
        if toggler.is_visible():
            toggler.click()
        page.get_by_role("button", name="Sign out").click()

    asked = []

    def decline(dialog):
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", decline)
    sign_out()
    expect(outbox(page)).to_have_count(1)  # still here, still signed in
    assert "1 record(s) made on this phone are not sent yet" in asked[0]

    page.once("dialog", lambda dialog: dialog.accept())
    sign_out()
    expect(page.get_by_role("button", name="Sign out")).to_have_count(0)
    page.context.unroute(re.compile(r"/staff/fieldwork/records/$"))

    browser_sign_in(page, "smo")
    page.get_by_test_id("fieldwork-queue").get_by_role(
        "link", name="Take today's work offline"
    ).click()
    expect(page.get_by_test_id("fw-downloaded")).to_have_text(
        "Nothing downloaded on this phone yet."
    )
    expect(outbox(page)).to_have_count(0)
    assert not FieldRecord.objects.exists()


@pytest.mark.browser
def test_records_made_without_signal_are_sent_with_the_page_closed(
    browser_page, inspector, todays, outfall
):
    page = browser_page
    context = page.context
    open_the_day(page, PHONE)
    context.set_offline(True)
    record_visit(
        page, todays, sample=False, photo=camera_photo("drain.jpg", (800, 600))
    )
    expect(outbox(page, "waiting")).to_have_count(1)
    record_screening(page, outfall)
    expect(outbox(page, "waiting")).to_have_count(2)

    # The inspector puts the phone away; the signal comes back later.
    page.close()
    context.set_offline(False)
    background_sync(context, "/staff/fieldwork/", "fieldwork-send")

    eventually(lambda: FieldRecord.objects.count() == 2)
    eventually(lambda: InspectionPhoto.objects.filter(inspection=todays).exists())
    assert Inspection.objects.get(pk=todays.pk).status == InspectionStatus.RECORDED
    assert OutfallScreening.objects.count() == 1

    # Opened again, the page shows what was sent meanwhile, and sends nothing twice.
    page = context.new_page()
    page.goto("/accounts/login/")  # the app's bookmark: still signed in, it goes on
    page.get_by_test_id("fieldwork-queue").get_by_role(
        "link", name="Take today's work offline"
    ).click()
    expect(outbox(page, "sent")).to_have_count(2)
    expect(page.get_by_test_id("fw-photo")).to_have_attribute("data-state", "sent")
    assert FieldRecord.objects.count() == 2
    assert InspectionPhoto.objects.count() == 1
