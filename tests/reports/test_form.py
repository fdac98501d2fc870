"""The resident's report form, end to end (web channel)."""

import hashlib
import re
from pathlib import Path

import pytest
from django.core import mail
from django.urls import reverse
from PIL import Image

from intake.models import Report, ReportPhoto
from kernel.uploads import MAX_FILE_BYTES
from tests.outbox.helpers import deliver_queued

from .helpers import (
    HTML_TRAILER,
    category,
    jpeg_with_gps,
    png_bytes,
    upload,
    valid_post,
)

pytestmark = pytest.mark.django_db
URL = reverse("public:report")


def post(client, data, files=()):
    payload = dict(data)
    if files:
        payload["photos"] = list(files)
    return client.post(URL, payload)


def test_form_page_shows_the_911_banner_before_the_form(client):
    html = client.get(URL).content.decode()
    assert "Call 911 first" in html
    assert html.index("Call 911 first") < html.index('id="report-form"')
    assert 'name="latitude"' in html and 'type="hidden"' in html
    assert "report-form.js" in html and "<script>" not in html


def test_categories_are_offered_in_plain_words_with_hazard_flags(client):
    html = client.get(URL).content.decode()
    assert category("oil-fuel").plain_name in html
    assert 'data-hazardous="true"' in html


def test_anonymous_report_is_saved_and_the_code_shown(client):
    response = post(client, valid_post())
    assert response.status_code == 302
    assert response.url == reverse("public:report_done")
    report = Report.objects.get()
    assert report.channel == Report.Channel.WEB
    assert report.in_triage_queue
    assert report.reporter_email == "" and report.entered_by is None
    assert report.suds and report.flow == "dry" and report.colour == "grey"
    assert list(report.pollutant_categories.all()) == [category("wash-water")]
    done = client.get(response.url).content.decode()
    assert report.tracking_code in done
    assert "What happens next" in done
    assert len(mail.outbox) == 0


def test_done_page_without_a_report_sends_you_to_the_form(client):
    response = client.get(reverse("public:report_done"))
    assert response.status_code == 302 and response.url == URL


def test_tracking_code_is_emailed_when_an_address_is_given(
    client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        post(
            client,
            valid_post(
                reporter_email="ann@example.org",
                reporter_name="Ann",
                wants_updates="on",
            ),
        )
    report = Report.objects.get()
    assert report.wants_updates
    assert mail.outbox == []  # queued in the request, sent by the worker
    assert deliver_queued() == 1
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["ann@example.org"]
    assert report.tracking_code in message.subject
    assert f"?code={report.tracking_code}" in message.body


def test_map_pin_alone_is_enough_for_where(client):
    response = post(
        client, valid_post(address="", latitude="40.952300", longitude="-73.088700")
    )
    assert response.status_code == 302
    report = Report.objects.get()
    assert str(report.latitude) == "40.952300" and report.address == ""


def test_report_with_photos_keeps_originals_and_clean_display_copies(client):
    gps_jpeg = jpeg_with_gps()
    response = post(
        client,
        valid_post(),
        files=[upload("a.png"), upload("b.jpg", gps_jpeg, "image/jpeg")],
    )
    assert response.status_code == 302
    photos = list(ReportPhoto.objects.order_by("pk"))
    assert len(photos) == 2
    jpeg_photo = photos[1]
    assert jpeg_photo.original_sha256 == hashlib.sha256(gps_jpeg).hexdigest()
    assert jpeg_photo.original.read() == gps_jpeg
    with Image.open(jpeg_photo.display) as shown:
        assert shown.format == "JPEG"
        assert not shown.getexif()
    # Never the resident's file name on disk, never a public path.
    assert re.fullmatch(r"[0-9a-f]{32}\.jpg", Path(jpeg_photo.display.name).name)
    assert jpeg_photo.display.name.startswith("private/")


def test_png_with_an_html_trailer_is_accepted_without_the_trailer(client):
    data = png_bytes(trailer=HTML_TRAILER)
    response = post(client, valid_post(), files=[upload("x.png", data)])
    assert response.status_code == 302
    photo = ReportPhoto.objects.get()
    assert photo.original_sha256 == hashlib.sha256(data).hexdigest()
    display = photo.display.read()
    assert b"<script>" not in display and b"<html>" not in display
    assert display.startswith(b"\xff\xd8")  # a fresh JPEG


# --- invalid input: nothing saved, input kept, clear message ----------------------
INVALID = [
    (
        "nothing seen",
        {
            "pollutant_categories": [],
            "description": "",
            "colour": "",
            "odour": "",
            "suds": None,
            "flow": "",
        },
        "Tell us what you saw",
    ),
    ("no location", {"address": ""}, "Tell us where"),
    (
        "pin far away",
        {"address": "", "latitude": "40.712800", "longitude": "-74.006000"},
        "outside the Village of Poquott",
    ),
    ("half a pin", {"latitude": "40.952300"}, "pin was incomplete"),
    (
        "pin not a number",
        {"latitude": "north", "longitude": "west"},
        "pin could not be read",
    ),
    ("future time", {"observed_at": "2999-01-01T10:00"}, "in the future"),
    ("bad time", {"observed_at": "yesterday-ish"}, "Enter a valid date/time"),
    ("long description", {"description": "x" * 4001}, "at most 4000 characters"),
    ("bad email", {"reporter_email": "not-an-email"}, "Enter a valid email address"),
    ("updates without email", {"wants_updates": "on"}, "so we can send you updates"),
    ("bad phone", {"reporter_phone": "call me maybe"}, "Please give a phone number"),
    ("unknown category", {"pollutant_categories": ["999999"]}, "Select a valid choice"),
    ("unknown colour", {"colour": "purple-ish"}, "Select a valid choice"),
    ("unknown flow", {"flow": "sideways"}, "Select a valid choice"),
    ("honeypot filled", {"website": "http://spam.example"}, "could not be accepted"),
]


@pytest.mark.parametrize(
    ("why", "changes", "message"), INVALID, ids=[i[0] for i in INVALID]
)
def test_invalid_field_is_refused_with_input_kept(client, why, changes, message):
    data = valid_post(reporter_name="Kept Name", **changes)
    if data.get("address") is not None and "address" not in changes:
        data["address"] = "Kept Street 9"
    response = post(client, data)
    assert response.status_code == 400
    html = response.content.decode()
    assert message in html
    assert "Kept Name" in html
    if "address" not in changes:
        assert "Kept Street 9" in html
    assert "photos must be chosen again" in html
    assert Report.objects.count() == 0 and ReportPhoto.objects.count() == 0


def test_oversize_photo_is_refused_and_nothing_saved(client):
    big = png_bytes() + b"\0" * MAX_FILE_BYTES
    response = post(client, valid_post(), files=[upload("big.png", big)])
    assert response.status_code == 400
    assert "larger than 10 MB" in response.content.decode()
    assert Report.objects.count() == 0 and ReportPhoto.objects.count() == 0


def test_non_image_with_an_image_extension_is_refused(client):
    fake = b"<?php system($_GET['c']); ?>\n" * 20
    response = post(
        client,
        valid_post(),
        files=[upload("a.png"), upload("evil.jpg", fake, "image/jpeg")],
    )
    assert response.status_code == 400
    assert "is not a photo we can read" in response.content.decode()
    assert Report.objects.count() == 0 and ReportPhoto.objects.count() == 0


def test_more_than_five_photos_are_refused(client):
    files = [upload(f"p{i}.png") for i in range(6)]
    response = post(client, valid_post(), files=files)
    assert response.status_code == 400
    assert "at most 5 photos" in response.content.decode()
    assert Report.objects.count() == 0


def test_hazardous_category_repeats_the_911_warning_on_re_render(client):
    data = valid_post(pollutant_categories=[str(category("oil-fuel").pk)], address="")
    html = post(client, data).content.decode()
    start = html.index('id="hazard-repeat"')
    tag = html[html.rindex("<div", 0, start) : html.index(">", start)]
    assert "d-none" not in tag
    safe = post(client, valid_post(address="")).content.decode()
    start = safe.index('id="hazard-repeat"')
    tag = safe[safe.rindex("<div", 0, start) : safe.index(">", start)]
    assert "d-none" in tag


def test_html_in_fields_is_shown_as_text(client, smo_client):
    post(client, valid_post(description="<b>bold</b><script>alert(1)</script>"))
    report = Report.objects.get()
    html = smo_client.get(reverse("reports:detail", args=[report.pk])).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<script>alert(1)" not in html


def test_rate_limit_refuses_the_eleventh_report_from_one_address(client):
    for _ in range(10):
        assert post(client, valid_post()).status_code == 302
    response = post(client, valid_post(reporter_name="Still Here"))
    assert response.status_code == 429
    html = response.content.decode()
    assert "Too many reports" in html
    assert "Still Here" in html
    assert Report.objects.count() == 10


def test_rate_limit_is_per_address(client):
    for _ in range(10):
        post(client, valid_post())
    other = client.post(URL, valid_post(), REMOTE_ADDR="10.0.0.7")
    assert other.status_code == 302


def test_the_description_carries_its_limit_and_the_counter_script(client):
    html = client.get(URL).content.decode()
    textarea = re.search(r"<textarea[^>]*name=\"description\"[^>]*>", html).group(0)
    assert 'maxlength="4000"' in textarea and "data-char-counter" in textarea
    # from our own static files, by src (the strict CSP runs no inline script)
    assert re.search(r'<script src="[^"]*/static/js/char-counter\.js"', html)
    assert not re.search(r"<script(?![^>]*\b(src=|type=\"application/json))", html)
