"""Photos taken with a record on the inspector's phone (issue 31), the office's
side: each sent after its record with its own key, stored once however often it
is sent, placed on the inspection or the screening the record was applied to,
kept with a record that waits for the SMO (and placed when the SMO applies it),
and refused in words when it is not a photo, comes before its record or is for
another inspector's record; and the day's download carries the last visit's
and screening's photos as thumbnails."""

import base64
import datetime as dt
import io
import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone
from PIL import Image

from fieldwork import package, services
from fieldwork.models import FieldPhoto, FieldRecord
from inspections import services as inspection_svc
from inspections.models import (
    Inspection,
    InspectionPhoto,
    InspectionStatus,
    OutfallScreening,
    ScreeningPhoto,
)
from kernel.models import CaseEvent
from tests.fieldwork.test_records_sent_from_a_phone import (
    download,
    screening,
    send,
    visit,
)

pytestmark = pytest.mark.django_db


def jpeg(name="drain.jpg", size=(1600, 1200), exif=True) -> SimpleUploadedFile:
    """A photo as the phone sends it; with camera metadata unless told."""
    out = io.BytesIO()
    image = Image.new("RGB", size, (90, 120, 60))
    if exif:
        data = Image.Exif()
        data[0x010F] = "PhoneMaker"  # the camera's make
        image.save(out, format="JPEG", exif=data)
    else:
        image.save(out, format="JPEG")
    return SimpleUploadedFile(name, out.getvalue(), content_type="image/jpeg")


def send_photo(client, record_key, *, key=None, photo=None):
    return client.post(
        reverse("fieldwork:receive_photo", args=[record_key]),
        {"key": key or str(uuid.uuid4()), "photo": photo or jpeg()},
    )


def sent_visit(client, **fields):
    record = visit(download(client)["inspections"][0], **fields)
    assert send(client, **record).status_code == 200
    return record["key"]


def test_a_photo_sent_twice_is_placed_on_the_inspection_once(client, smo_user, todays):
    client.force_login(smo_user)
    record_key = sent_visit(client)
    key = str(uuid.uuid4())

    first = send_photo(client, record_key, key=key)
    again = send_photo(client, record_key, key=key)

    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert first.json()["state_words"] == "added to the inspection"
    photo = InspectionPhoto.objects.get()
    assert photo.inspection_id == todays.pk
    assert FieldPhoto.objects.get().placed_at is not None
    # The office's copy carries no camera metadata; the original is kept.
    with photo.display.open("rb") as shown:
        assert not Image.open(shown).getexif()
    assert CaseEvent.objects.filter(
        summary__startswith=f"Inspection {todays.pk} photo added (drain.jpg)"
    ).exists()


def test_a_photo_key_sent_again_with_another_photo_is_refused(client, smo_user, todays):
    client.force_login(smo_user)
    record_key = sent_visit(client)
    key = str(uuid.uuid4())
    send_photo(client, record_key, key=key)

    other = send_photo(client, record_key, key=key, photo=jpeg(size=(800, 600)))

    assert other.status_code == 409
    assert InspectionPhoto.objects.count() == FieldPhoto.objects.count() == 1


def test_a_photo_before_its_record_is_refused_and_taken_after_it(
    client, smo_user, todays
):
    client.force_login(smo_user)
    record = visit(download(client)["inspections"][0])
    key = str(uuid.uuid4())

    early = send_photo(client, record["key"], key=key)

    assert early.status_code == 400
    assert "has not arrived yet" in early.json()["errors"]["record"][0]
    assert not FieldPhoto.objects.exists()
    send(client, **record)
    assert send_photo(client, record["key"], key=key).status_code == 200
    assert InspectionPhoto.objects.count() == 1


@pytest.mark.parametrize(
    "upload",
    [
        SimpleUploadedFile("notes.jpg", b"not a photo", content_type="image/jpeg"),
        SimpleUploadedFile("empty.jpg", b"", content_type="image/jpeg"),
        None,
    ],
    ids=["not-an-image", "empty", "missing"],
)
def test_what_is_not_a_photo_is_refused_in_words_and_the_record_stays(
    client, smo_user, todays, upload
):
    client.force_login(smo_user)
    record_key = sent_visit(client)
    data = {"key": str(uuid.uuid4())}
    if upload is not None:
        data["photo"] = upload

    answer = client.post(reverse("fieldwork:receive_photo", args=[record_key]), data)

    assert answer.status_code == 400
    assert answer.json()["errors"]["photo"]
    assert not FieldPhoto.objects.exists()
    assert not InspectionPhoto.objects.exists()
    assert Inspection.objects.get(pk=todays.pk).status == InspectionStatus.RECORDED


def test_only_the_inspector_who_sent_the_record_sends_its_photos(
    client, smo_user, other_inspector, clerk_user, todays
):
    client.force_login(smo_user)
    record_key = sent_visit(client)

    client.force_login(other_inspector)
    assert send_photo(client, record_key).status_code == 403
    client.force_login(clerk_user)
    assert send_photo(client, record_key).status_code == 403
    client.logout()
    assert send_photo(client, record_key).status_code == 401
    assert not FieldPhoto.objects.exists()


def test_a_photo_of_a_kept_record_waits_with_it_and_is_placed_when_applied(
    client, smo_user, other_inspector, todays
):
    client.force_login(smo_user)
    item = download(client)["inspections"][0]
    # Rescheduled in the office after the download: the visit is kept.
    Inspection.objects.filter(pk=todays.pk).update(
        scheduled_for=todays.scheduled_for.replace(year=todays.scheduled_for.year + 1)
    )
    record = visit(item)
    assert send(client, **record).json()["state"] == "attention"

    answer = send_photo(client, record["key"])

    assert answer.json()["state_words"] == "kept with the record for the SMO"
    assert not InspectionPhoto.objects.exists()
    page = client.get(reverse("fieldwork:kept"))
    photo = FieldPhoto.objects.get()
    assert reverse("fieldwork:photo", args=[photo.pk]) in page.content.decode()
    shown = client.get(reverse("fieldwork:photo", args=[photo.pk]))
    assert shown["Content-Type"] == "image/jpeg"

    client.force_login(other_inspector)  # another SMO decides
    client.post(reverse("fieldwork:apply", args=[FieldRecord.objects.get().pk]))

    placed = InspectionPhoto.objects.get()
    assert placed.inspection_id == todays.pk
    assert placed.uploaded_by == smo_user  # who took it, not who applied it
    photo.refresh_from_db()
    assert photo.placed_at is not None


def test_a_photo_arriving_after_the_inspection_was_finalized_is_kept_and_said(
    client, smo_user, todays
):
    client.force_login(smo_user)
    record_key = sent_visit(client)
    inspection_svc.inspection_finalize(
        actor=smo_user, inspection=Inspection.objects.get(pk=todays.pk)
    )

    answer = send_photo(client, record_key)

    assert answer.status_code == 200
    assert answer.json()["state_words"].startswith("kept for the SMO: ")
    assert not InspectionPhoto.objects.exists()
    photo = FieldPhoto.objects.get()
    assert photo.placed_at is None and "finalized" in photo.problem
    assert CaseEvent.objects.filter(
        summary__startswith="Photo sent from a phone kept with the inspection visit"
    ).exists()


def test_a_screenings_photo_is_shown_on_the_screening(client, smo_user, outfall):
    client.force_login(smo_user)
    record = screening(download(client)["outfalls"][0])
    send(client, **record)

    send_photo(client, record["key"], photo=jpeg("pipe-end.jpg"))

    shot = ScreeningPhoto.objects.get()
    assert shot.screening == OutfallScreening.objects.get()
    page = client.get(reverse("inspections:screening_detail", args=[shot.screening_id]))
    assert (
        reverse("inspections:screening_photo", args=[shot.pk]) in page.content.decode()
    )
    served = client.get(reverse("inspections:screening_photo", args=[shot.pk]))
    assert served["Content-Type"] == "image/jpeg"


def test_the_office_adds_a_photo_to_a_screening_and_a_bad_file_is_refused(
    client, smo_user, outfall
):
    client.force_login(smo_user)
    record = screening(download(client)["outfalls"][0])
    send(client, **record)
    shot = OutfallScreening.objects.get()
    url = reverse("inspections:screening_photo_new", args=[shot.pk])

    bad = client.post(
        url, {"photo": SimpleUploadedFile("x.jpg", b"nope"), "caption": "Stain"}
    )

    assert bad.status_code == 400
    assert "is not a photo we can read" in bad.content.decode()
    assert 'value="Stain"' in bad.content.decode()
    assert not ScreeningPhoto.objects.exists()
    good = client.post(url, {"photo": jpeg(exif=False), "caption": "Stain"})
    assert good.status_code == 302
    assert ScreeningPhoto.objects.get().caption == "Stain"


def test_a_record_takes_a_limited_number_of_photos(client, smo_user, todays):
    client.force_login(smo_user)
    record_key = sent_visit(client)
    for _ in range(services.PHOTOS_MAX):
        assert (
            send_photo(client, record_key, photo=jpeg(size=(64, 48))).status_code == 200
        )

    over = send_photo(client, record_key, photo=jpeg(size=(64, 48)))

    assert over.status_code == 400
    assert f"at most {services.PHOTOS_MAX} photos" in over.json()["errors"]["photo"][0]
    assert FieldPhoto.objects.count() == services.PHOTOS_MAX


def test_the_download_carries_the_last_visits_and_screenings_photos_small(
    client, smo_user, premises, todays, outfall
):
    earlier = inspection_svc.inspection_schedule(
        actor=smo_user,
        kind=Inspection.Kind.ROUTINE,
        premises=premises,
        officer=smo_user,
        scheduled_for=todays.scheduled_for - dt.timedelta(days=30),
    )
    inspection_svc.inspection_record(
        actor=smo_user,
        inspection=earlier,
        performed_at=timezone.now() - dt.timedelta(days=20),
        attendees="S. Officer",
        access_outcome="granted",
        findings="Hose from the basement to the gutter.",
    )
    for n in range(package.THUMBNAILS + 1):
        inspection_svc.photo_add(
            actor=smo_user, inspection=earlier, upload=jpeg(f"{n}.jpg"), caption="Hose"
        )
    client.force_login(smo_user)
    record = screening(download(client)["outfalls"][0])
    send(client, **record)
    send_photo(client, record["key"], photo=jpeg("pipe-end.jpg", size=(600, 900)))

    day = download(client)

    shown = next(i for i in day["inspections"] if i["id"] == todays.pk)
    photos = shown["last_visit"]["photos"]
    assert len(photos) == package.THUMBNAILS
    assert (photos[0]["width"], photos[0]["height"], photos[0]["caption"]) == (
        240,
        180,
        "Hose",
    )
    head, data = photos[0]["src"].split(",", 1)
    assert head == "data:image/jpeg;base64"
    assert Image.open(io.BytesIO(base64.b64decode(data))).size == (240, 180)
    last_screening = day["outfalls"][0]["last_screening"]
    assert [(p["width"], p["height"]) for p in last_screening["photos"]] == [(160, 240)]
