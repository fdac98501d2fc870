"""Staff entry of phone / walk-in / e-mail reports, the staff report pages and
the photo views; the URL × role table of every page of this area."""

import pytest
from django.urls import reverse

from intake.models import Report, ReportPhoto
from intake.services import report_submit
from kernel.uploads import process_image_upload
from tests.api_keys import known_key

from .helpers import HTML_TRAILER, category, png_bytes, upload, valid_post

pytestmark = pytest.mark.django_db


@pytest.fixture
def report_with_photo(db):
    photo = process_image_upload(upload("x.png", png_bytes(trailer=HTML_TRAILER)))
    return report_submit(
        channel=Report.Channel.WEB,
        fields={"description": "Oil in the drain", "address": "Washington Street"},
        pollutant_categories=[category("oil-fuel")],
        photos=[photo],
    )


def _urls(report):
    photo = report.photos.get()
    return {
        "public:home": (reverse("public:home"), "all"),
        "public:report": (reverse("public:report"), "all"),
        "public:status": (reverse("public:status"), "all"),
        "reports:list": (reverse("reports:list"), "smo"),
        "reports:new": (reverse("reports:new"), "smo"),
        "reports:detail": (reverse("reports:detail", args=[report.pk]), "readers"),
        "reports:photo": (reverse("reports:photo", args=[photo.pk]), "readers"),
        "reports:photo_original": (
            reverse("reports:photo_original", args=[photo.pk]),
            "smo",
        ),
    }


ALLOWED = {
    "all": {
        "anonymous",
        "no_role",
        "smo",
        "clerk",
        "attorney",
        "inspector",
        "superuser",
    },
    "smo": {"smo", "superuser"},
    "readers": {"smo", "clerk", "superuser"},
}
ROLES = ["anonymous", "no_role", "smo", "clerk", "attorney", "inspector", "superuser"]
PAGES = [
    "public:home",
    "public:report",
    "public:status",
    "reports:list",
    "reports:new",
    "reports:detail",
    "reports:photo",
    "reports:photo_original",
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("page", PAGES)
def test_url_role_table(client_as, report_with_photo, page, role):
    url, who = _urls(report_with_photo)[page]
    response = client_as(role).get(url)
    if role in ALLOWED[who]:
        assert response.status_code == 200
    elif role == "anonymous":
        assert response.status_code == 302
        assert response.url.startswith(reverse("login"))
    else:
        assert response.status_code == 403


def test_staff_entry_marks_channel_and_who_entered_it(smo_client, smo_user):
    data = valid_post(
        channel="phone", reporter_name="Caller", reporter_phone="631 555 0100"
    )
    data.pop("website")
    response = smo_client.post(reverse("reports:new"), data)
    report = Report.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("reports:detail", args=[report.pk])
    assert report.channel == Report.Channel.PHONE
    assert report.entered_by == smo_user
    page = smo_client.get(response.url).content.decode()
    assert "Telephone (entered by staff)" in page and report.tracking_code in page


def test_staff_entry_walk_in_with_photo(smo_client, smo_user):
    data = valid_post(channel="walk_in")
    data["photos"] = [upload("walkin.png")]
    assert smo_client.post(reverse("reports:new"), data).status_code == 302
    report = Report.objects.get()
    assert report.channel == Report.Channel.WALK_IN and report.photos.count() == 1


def test_staff_entry_refuses_web_channel_and_keeps_input(smo_client):
    data = valid_post(channel="web", reporter_name="Kept Caller")
    response = smo_client.post(reverse("reports:new"), data)
    assert response.status_code == 400
    html = response.content.decode()
    assert "Select a valid choice" in html and "Kept Caller" in html
    assert Report.objects.count() == 0


def test_reports_from_every_channel_share_one_triage_queue(
    smo_client, report_with_photo
):
    data = valid_post(channel="email")
    smo_client.post(reverse("reports:new"), data)
    html = smo_client.get(reverse("reports:list")).content.decode()
    for report in Report.objects.all():
        assert report.tracking_code in html


def test_display_copy_has_no_trailer_and_is_a_jpeg(smo_client, report_with_photo):
    photo = report_with_photo.photos.get()
    response = smo_client.get(reverse("reports:photo", args=[photo.pk]))
    body = b"".join(response.streaming_content)
    assert response["Content-Type"] == "image/jpeg"
    assert body.startswith(b"\xff\xd8") and HTML_TRAILER not in body


def test_original_is_a_download_with_its_hash(smo_client, report_with_photo):
    photo = report_with_photo.photos.get()
    response = smo_client.get(reverse("reports:photo_original", args=[photo.pk]))
    body = b"".join(response.streaming_content)
    assert body.endswith(HTML_TRAILER)  # the evidence, byte for byte
    assert response["Content-Type"] == "application/octet-stream"
    assert response["Content-Disposition"].startswith("attachment")
    assert response["X-Original-SHA256"] == photo.original_sha256
    assert response["X-Content-Type-Options"] == "nosniff"


def test_clerk_sees_display_copy_but_no_original_link(client_as, report_with_photo):
    photo = report_with_photo.photos.get()
    html = (
        client_as("clerk")
        .get(reverse("reports:detail", args=[report_with_photo.pk]))
        .content.decode()
    )
    assert reverse("reports:photo", args=[photo.pk]) in html
    assert reverse("reports:photo_original", args=[photo.pk]) not in html


def test_uploaded_files_are_not_served_from_media_url(client, report_with_photo):
    from django.conf import settings

    photo = ReportPhoto.objects.get()
    assert client.get(settings.MEDIA_URL + photo.display.name).status_code == 404


def test_missing_report_and_photo_are_404(smo_client):
    assert smo_client.get(reverse("reports:detail", args=[999999])).status_code == 404
    assert smo_client.get(reverse("reports:photo", args=[999999])).status_code == 404
    assert (
        smo_client.get(reverse("reports:photo_original", args=[999999])).status_code
        == 404
    )


def test_demo_reports_load_idempotently(db):
    import io

    from intake import demo as demo_reports
    from kernel import demo_users

    out = io.StringIO()
    demo_users.load(out)
    demo_reports.load(out)
    demo_reports.load(out)
    assert Report.objects.filter(tracking_code__startswith="PQ-DEM").count() == 3
    assert all(r.in_triage_queue for r in Report.objects.all())


def test_admin_pages_render_for_superuser(client_as, report_with_photo):
    client = client_as("superuser")
    photo = report_with_photo.photos.get()
    for url in [
        reverse("admin:intake_report_changelist"),
        reverse("admin:intake_report_change", args=[report_with_photo.pk]),
        reverse("admin:intake_reportphoto_change", args=[photo.pk]),
        reverse("admin:intake_apikey_changelist"),
        reverse("admin:intake_apikey_add"),
    ]:
        assert client.get(url).status_code == 200, url


def test_admin_revoke_action_revokes_keys(client_as):

    key = known_key("k-123", "Client")
    client = client_as("superuser")
    client.post(
        reverse("admin:intake_apikey_changelist"),
        {"action": "revoke", "_selected_action": [key.pk]},
    )
    key.refresh_from_db()
    assert not key.active and key.revoked_at is not None
