"""Safe handling of uploaded photos (resident reports, inspections, spills).

A photo is checked by decoding it (never by its name or extension), held to size
and pixel limits, and re-encoded with no metadata (GPS, camera) for anyone to view.
The original bytes are kept privately as evidence with their SHA-256. Nothing
uploaded is served from a guessable public path: files get random private names
and are served by views that check the reader."""

import hashlib
import io
import uuid
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from PIL import Image, ImageOps, UnidentifiedImageError

MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_REPORT_BYTES = 30 * 1024 * 1024
MAX_FILES = 5
MAX_PIXELS = 40_000_000  # a 40-megapixel phone photo; decompression bombs are refused
DISPLAY_MAX_SIDE = 2048
ALLOWED_FORMATS = {"JPEG", "PNG", "WEBP", "GIF", "HEIC", "MPO"}


@dataclass(frozen=True)
class ProcessedImage:
    original: ContentFile  # the bytes as uploaded, for evidence (private)
    original_sha256: str
    original_name: str
    display: ContentFile  # re-encoded JPEG, no metadata
    width: int
    height: int


def _read(upload) -> bytes:
    upload.seek(0)
    data = upload.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise ValidationError(
            "“%(name)s” is larger than %(limit)s MB. Please send a smaller photo.",
            code="file_too_large",
            params={"name": _name(upload), "limit": MAX_FILE_BYTES // (1024 * 1024)},
        )
    if not data:
        raise ValidationError(
            "“%(name)s” is empty.", code="empty", params={"name": _name(upload)}
        )
    return data


def _name(upload) -> str:
    return (getattr(upload, "name", "") or "photo")[:200]


def process_image_upload(upload) -> ProcessedImage:
    """Validate and re-encode one uploaded image. Raises ValidationError with a
    message a resident can act on; never returns anything that was not decoded."""
    data = _read(upload)
    name = _name(upload)
    not_image = ValidationError(
        "“%(name)s” is not a photo we can read (JPEG, PNG, WebP or GIF).",
        code="not_an_image",
        params={"name": name},
    )
    try:
        with Image.open(io.BytesIO(data)) as probe:
            fmt = probe.format
            width, height = probe.size
            if fmt not in ALLOWED_FORMATS:
                raise not_image
            if width * height > MAX_PIXELS:
                raise ValidationError(
                    "“%(name)s” has too many pixels (%(w)s × %(h)s).",
                    code="too_many_pixels",
                    params={"name": name, "w": width, "h": height},
                )
            probe.verify()  # structural check of the whole file
        with Image.open(io.BytesIO(data)) as image:
            image.load()  # full decode: truncated or corrupt data fails here
            image = ImageOps.exif_transpose(image)
            if image.mode not in ("RGB", "L"):
                image = image.convert("RGB")
            image.thumbnail((DISPLAY_MAX_SIDE, DISPLAY_MAX_SIDE))
            out = io.BytesIO()
            # A fresh JPEG from pixels only: no EXIF, GPS, ICC or trailing bytes.
            image.save(out, format="JPEG", quality=85, optimize=True)
            width, height = image.size
    except ValidationError:
        raise
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise not_image from exc
    except Image.DecompressionBombError as exc:
        raise ValidationError(
            "“%(name)s” has too many pixels.",
            code="too_many_pixels",
            params={"name": name},
        ) from exc
    token = uuid.uuid4().hex
    return ProcessedImage(
        original=ContentFile(data, name=f"{token}.bin"),
        original_sha256=hashlib.sha256(data).hexdigest(),
        original_name=name,
        display=ContentFile(out.getvalue(), name=f"{token}.jpg"),
        width=width,
        height=height,
    )


def validate_upload_set(uploads) -> None:
    """The per-report limits: how many files and how many bytes in all."""
    uploads = list(uploads)
    if len(uploads) > MAX_FILES:
        raise ValidationError(
            "Please send at most %(n)s photos.",
            code="too_many_files",
            params={"n": MAX_FILES},
        )
    total = sum(getattr(u, "size", 0) or 0 for u in uploads)
    if total > MAX_REPORT_BYTES:
        raise ValidationError(
            "The photos add up to more than %(mb)s MB; please send fewer or smaller ones.",
            code="report_too_large",
            params={"mb": MAX_REPORT_BYTES // (1024 * 1024)},
        )


def sha256_of(upload) -> str:
    upload.seek(0)
    digest = hashlib.sha256()
    for chunk in iter(lambda: upload.read(65536), b""):
        digest.update(chunk)
    upload.seek(0)
    return digest.hexdigest()
