"""Uploaded photos (kernel.uploads) against what was found by probing: a small
file of huge dimensions is refused from its header, before a pixel is decoded;
no comment or text chunk reaches the display copy; a truncated photo is refused
even with WeasyPrint's process-wide LOAD_TRUNCATED_IMAGES on."""

import hashlib
import io

import pytest
from django.core.exceptions import ValidationError
from PIL import Image, ImageFile, PngImagePlugin

from intake.models import Report, ReportPhoto
from kernel.uploads import (
    DISPLAY_MAX_SIDE,
    MAX_PIXELS,
    MAX_PIXELS_FULL_DECODE,
    process_image_upload,
)

from .helpers import jpeg_with_gps, upload, valid_post
from .test_form import post

PHP = b"<?php system($_GET['c']); ?>"


def encoded(image, fmt, **options) -> bytes:
    out = io.BytesIO()
    image.save(out, format=fmt, **options)
    return out.getvalue()


def noisy(size=(120, 90)) -> Image.Image:
    return Image.effect_noise(size, 60).convert("RGB")


def jpeg_segments(data: bytes) -> list[tuple[int, bytes]]:
    """The (marker, payload) segments of a JPEG before its image data."""
    assert data[:2] == b"\xff\xd8"
    segments, at = [], 2
    while at < len(data):
        assert data[at] == 0xFF
        marker = data[at + 1]
        if marker == 0xDA:  # start of scan: pixels follow
            break
        length = int.from_bytes(data[at + 2 : at + 4], "big")
        segments.append((marker, data[at + 4 : at + 2 + length]))
        at += 2 + length
    return segments


def assert_no_metadata(display: bytes) -> None:
    markers = {marker for marker, _ in jpeg_segments(display)}
    assert 0xFE not in markers  # COM
    assert not markers & set(range(0xE1, 0xF0))  # APP1..APP15: EXIF, XMP, ICC…
    with Image.open(io.BytesIO(display)) as shown:
        assert shown.format == "JPEG"
        assert not shown.getexif()
        assert not {"comment", "exif", "xmp", "icc_profile"} & set(shown.info)


@pytest.fixture
def weasyprint_flag(monkeypatch):
    """The flag as the running site has it once WeasyPrint is imported."""
    monkeypatch.setattr(ImageFile, "LOAD_TRUNCATED_IMAGES", True)


# --- the decode is bounded ----------------------------------------------------------
def test_a_small_png_of_huge_dimensions_is_refused_before_decoding(monkeypatch):
    bomb = encoded(Image.new("P", (6300, 6300)), "PNG")
    assert len(bomb) < 200_000  # 166 KB in the probe; here a few KB

    def no_decoding(self, *args, **kwargs):
        raise AssertionError("pixels were decoded")

    monkeypatch.setattr(ImageFile.ImageFile, "load", no_decoding)
    with pytest.raises(ValidationError) as refused:
        process_image_upload(upload("bomb.png", bomb))
    assert refused.value.code == "too_many_pixels"
    assert refused.value.messages == [
        "“bomb.png” is 6300 × 6300 pixels; the most we accept is 16 megapixels. "
        "Please send a smaller photo."
    ]


@pytest.mark.django_db
def test_the_report_form_shows_the_pixel_refusal_and_saves_nothing(client):
    bomb = encoded(Image.new("P", (6300, 6300)), "PNG")
    response = post(client, valid_post(), files=[upload("bomb.png", bomb)])
    assert response.status_code == 400
    assert "the most we accept is 16 megapixels" in response.content.decode()
    assert Report.objects.count() == 0 and ReportPhoto.objects.count() == 0


def test_a_jpeg_over_40_megapixels_is_refused_from_its_header():
    size = (8000, 5001)
    assert size[0] * size[1] > MAX_PIXELS
    wide = encoded(Image.new("RGB", size), "JPEG")
    with pytest.raises(ValidationError, match="the most we accept is 40 megapixels"):
        process_image_upload(upload("wide.jpg", wide, "image/jpeg"))


def test_a_large_phone_jpeg_is_accepted_and_its_display_copy_downscaled():
    # Above the limit for formats decoded whole; a JPEG decodes at reduced scale.
    size = (5000, 3750)
    assert size[0] * size[1] > MAX_PIXELS_FULL_DECODE
    photo = process_image_upload(
        upload("phone.jpg", encoded(Image.new("RGB", size, (9, 99, 9)), "JPEG"))
    )
    assert (photo.width, photo.height) == (DISPLAY_MAX_SIDE, 1536)
    with Image.open(photo.display) as shown:
        assert shown.size == (DISPLAY_MAX_SIDE, 1536)


# --- no comment or text chunk in the display copy -----------------------------------
def test_a_jpeg_comment_with_php_is_not_in_the_display_copy():
    data = encoded(noisy(), "JPEG", comment=PHP)
    assert (0xFE, PHP) in jpeg_segments(data)
    photo = process_image_upload(upload("polyglot.jpg", data, "image/jpeg"))
    display = photo.display.read()
    assert b"<?php" not in display and b"system(" not in display
    assert_no_metadata(display)
    # The evidence copy stays byte for byte (private, served only as a download).
    assert photo.original.read() == data
    assert photo.original_sha256 == hashlib.sha256(data).hexdigest()


def test_png_text_chunks_are_not_in_the_display_copy():
    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", PHP.decode())  # tEXt
    info.add_text("comment", "<?php lower ?>")  # tEXt, as Pillow's JPEG comment key
    info.add_text("Description", "zipped-secret", zip=True)  # zTXt
    info.add_itxt("XML:com.adobe.xmp", "<x:xmpmeta>itxt-secret</x:xmpmeta>")  # iTXt
    data = encoded(noisy(), "PNG", pnginfo=info)
    for chunk in (b"tEXt", b"zTXt", b"iTXt"):
        assert chunk in data
    display = process_image_upload(upload("text.png", data)).display.read()
    for secret in (b"<?php", b"zipped-secret", b"itxt-secret", b"xmpmeta"):
        assert secret not in display
    assert_no_metadata(display)


def test_a_gif_comment_is_not_in_the_display_copy():
    data = encoded(noisy().convert("P"), "GIF", comment=PHP)
    assert PHP in data
    display = process_image_upload(upload("c.gif", data, "image/gif")).display.read()
    assert b"<?php" not in display
    assert_no_metadata(display)


def test_exif_and_gps_are_not_in_the_display_copy():
    data = jpeg_with_gps()
    assert b"Exif" in data and b"PhoneMaker" in data
    display = process_image_upload(upload("gps.jpg", data, "image/jpeg")).display
    display = display.read()
    assert b"PhoneMaker" not in display
    assert_no_metadata(display)


@pytest.mark.django_db
def test_the_stored_display_copy_of_a_web_report_has_no_comment(client):
    data = encoded(noisy(), "JPEG", comment=PHP)
    response = post(client, valid_post(), files=[upload("p.jpg", data, "image/jpeg")])
    assert response.status_code == 302
    photo = ReportPhoto.objects.get()
    stored = photo.display.read()
    assert b"<?php" not in stored
    assert_no_metadata(stored)


# --- truncated photos are refused ---------------------------------------------------
@pytest.mark.parametrize("fmt", ["JPEG", "PNG"])
def test_a_truncated_photo_is_refused_with_the_flag_on(weasyprint_flag, fmt):
    data = encoded(noisy((300, 300)), fmt)
    cut = data[: len(data) * 2 // 3]
    with Image.open(io.BytesIO(cut)) as lenient:
        lenient.load()  # what WeasyPrint's flag lets through
    with pytest.raises(ValidationError) as refused:
        process_image_upload(upload(f"cut.{fmt.lower()}", cut))
    assert refused.value.code == "truncated"
    assert refused.value.messages == [
        f"“cut.{fmt.lower()}” is incomplete (the file ends too soon); please "
        "send the photo again."
    ]
    assert ImageFile.LOAD_TRUNCATED_IMAGES is True  # given back for WeasyPrint


def test_the_flag_is_given_back_after_a_good_photo_too(weasyprint_flag):
    process_image_upload(upload("ok.jpg", encoded(noisy(), "JPEG"), "image/jpeg"))
    assert ImageFile.LOAD_TRUNCATED_IMAGES is True


@pytest.mark.django_db
def test_the_report_form_refuses_a_truncated_jpeg(client, weasyprint_flag):
    data = encoded(noisy((300, 300)), "JPEG")
    cut = upload("cut.jpg", data[: len(data) // 2], "image/jpeg")
    response = post(client, valid_post(), files=[cut])
    assert response.status_code == 400
    assert "is incomplete (the file ends too soon)" in response.content.decode()
    assert Report.objects.count() == 0 and ReportPhoto.objects.count() == 0
