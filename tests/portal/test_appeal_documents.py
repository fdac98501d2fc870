"""Documents sent with an appeal on the respondent's page: a PDF, JPEG or PNG by
their first bytes (never the name or the type the browser claims), images kept
without their metadata (GPS, camera), served to staff as a download with the type
the bytes say. A wrong file is refused in words on its field, the rest of the
form kept."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image, PngImagePlugin

from enforcement.models import Appeal, AppealDocument
from tests.visible import visible_text

from .test_appeal_online import file_online, signed_in

pytestmark = pytest.mark.django_db

PDF = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n"
CAMERA = "Acme PhoneCam 9"


def photo_with_gps(fmt="PNG") -> bytes:
    exif = Image.Exif()
    exif[0x010F] = CAMERA  # Make
    exif[0x0110] = "Model X"  # Model
    gps = exif.get_ifd(0x8825)
    gps[1], gps[2] = "N", (40.0, 57.0, 8.0)  # latitude
    gps[3], gps[4] = "W", (73.0, 5.0, 17.0)  # longitude
    out = io.BytesIO()
    image = Image.new("RGB", (64, 48), (200, 40, 40))
    if fmt == "PNG":
        info = PngImagePlugin.PngInfo()
        info.add_text("Comment", "taken at 12 Birchwood Avenue")
        image.save(out, format="PNG", exif=exif.tobytes(), pnginfo=info)
    else:
        image.save(out, format="JPEG", exif=exif.tobytes(), comment=b"12 Birchwood")
    return out.getvalue()


def download(client_as, document):
    return client_as("clerk").get(
        reverse("enforcement:appeal_document", args=[document.pk])
    )


def test_a_pdf_is_accepted_and_served_as_a_pdf_download(
    owner_code, issued_notice, client_as
):
    upload = SimpleUploadedFile("letter.bin", PDF, content_type="text/html")
    file_online(signed_in(owner_code), issued_notice, documents=upload)
    document = AppealDocument.objects.get()
    response = download(client_as, document)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith("attachment")
    assert response["X-Content-Type-Options"] == "nosniff"
    assert b"".join(response.streaming_content) == PDF


@pytest.mark.parametrize("fmt", ["PNG", "JPEG"])
def test_a_photo_is_kept_without_its_gps_and_camera_details(
    owner_code, issued_notice, client_as, fmt
):
    sent = photo_with_gps(fmt)
    assert CAMERA.encode() in sent  # the sample carries them
    upload = SimpleUploadedFile("garden.dat", sent, content_type="application/pdf")
    file_online(signed_in(owner_code), issued_notice, documents=upload)
    document = AppealDocument.objects.get()
    response = download(client_as, document)
    kept = b"".join(response.streaming_content)
    wanted = "image/png" if fmt == "PNG" else "image/jpeg"
    assert response["Content-Type"] == wanted == document.content_type
    assert response["Content-Disposition"].startswith("attachment")
    assert CAMERA.encode() not in kept and b"Birchwood" not in kept
    with Image.open(io.BytesIO(kept)) as image:
        assert image.format == fmt and image.size == (64, 48)
        assert dict(image.getexif()) == {}
        assert not image.getexif().get_ifd(0x8825)
        assert "Comment" not in image.info and "exif" not in image.info


@pytest.mark.parametrize(
    ("name", "content", "claimed"),
    [
        ("evidence.pdf", b"<html><script>alert(1)</script></html>", "application/pdf"),
        ("setup.exe", b"MZ\x90\x00\x03\x00\x00\x00PE\x00\x00", "image/png"),
        ("photo.jpg", b"\xff\xd8\xff\xe0 not really a photo", "image/jpeg"),
    ],
)
def test_a_wrong_file_is_refused_on_its_field_and_the_form_kept(
    owner_code, issued_notice, name, content, claimed
):
    page = file_online(
        signed_in(owner_code),
        issued_notice,
        grounds="The hose was mine and it burst.",
        phone="631-555-0123",
        documents=SimpleUploadedFile(name, content, content_type=claimed),
    )
    assert page.status_code == 400
    html = page.content.decode()
    assert f"“{name}” is" in visible_text(page)
    field_error = html.split('id="documents-error"', 1)[1].split("</div>", 1)[0]
    assert name in field_error
    assert "The hose was mine and it burst." in html
    assert 'value="631-555-0123"' in html
    assert not Appeal.objects.exists() and not AppealDocument.objects.exists()
