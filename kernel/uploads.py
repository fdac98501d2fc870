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
from django.http import FileResponse
from PIL import Image, ImageFile, ImageOps, UnidentifiedImageError

MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_REPORT_BYTES = 30 * 1024 * 1024
MAX_FILES = 5
# Pixel limits, read from the header before decoding (a 6,300 × 6,300 PNG of
# 166 KB decoded at full size took 2.2 s of CPU and about 550 MB). A JPEG is
# decoded at a reduced scale (Pillow's draft), so a 40-megapixel phone photo costs
# about 0.2 s and 70 MB; PNG, WebP and GIF have no such decoder and are decoded
# whole, so they are held to 16 megapixels (a 5K screen's screenshot; at the
# limit about 0.3 s and 170 MB).
MAX_PIXELS = 40_000_000
MAX_PIXELS_FULL_DECODE = 16_000_000
SCALED_FORMATS = {"JPEG", "MPO"}  # formats Image.draft decodes at reduced scale
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


def _read(upload, limit: int = MAX_FILE_BYTES) -> bytes:
    upload.seek(0)
    data = upload.read(limit + 1)
    if len(data) > limit:
        raise ValidationError(
            "“%(name)s” is larger than %(limit)s MB. Please send a smaller file.",
            code="file_too_large",
            params={"name": _name(upload), "limit": limit // (1024 * 1024)},
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
    message a resident can act on; never returns anything that was not decoded.

    The size in pixels is read from the header and held to a limit before any
    pixel is decoded; a JPEG is then decoded at a reduced scale, anything else at
    full size under a lower limit. The whole file must decode: a truncated photo
    is refused even though WeasyPrint switches Pillow's LOAD_TRUNCATED_IMAGES on
    for the whole process."""
    data = _read(upload)
    name = _name(upload)
    not_image = ValidationError(
        "“%(name)s” is not a photo we can read (JPEG, PNG, WebP or GIF).",
        code="not_an_image",
        params={"name": name},
    )
    # The flag is process-wide; it is off only while this photo decodes (a PDF
    # rendered meanwhile in another thread would refuse a truncated image too).
    truncated = ImageFile.LOAD_TRUNCATED_IMAGES
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    try:
        with Image.open(io.BytesIO(data)) as probe:
            if probe.format not in ALLOWED_FORMATS:
                raise not_image
            _check_pixels(probe, name)
            probe.verify()  # structural check of the whole file
        with Image.open(io.BytesIO(data)) as image:
            display, width, height = _display_copy(image)
    except ValidationError:
        raise
    except Image.DecompressionBombError as exc:
        raise _too_many_pixels(name, MAX_PIXELS) from exc
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        if "truncated" in str(exc).lower():  # Pillow's words for a cut-short file
            raise ValidationError(
                "“%(name)s” is incomplete (the file ends too soon); please send "
                "the photo again.",
                code="truncated",
                params={"name": name},
            ) from exc
        raise not_image from exc
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = truncated
    token = uuid.uuid4().hex
    return ProcessedImage(
        original=ContentFile(data, name=f"{token}.bin"),
        original_sha256=hashlib.sha256(data).hexdigest(),
        original_name=name,
        display=ContentFile(display, name=f"{token}.jpg"),
        width=width,
        height=height,
    )


def display_response(photo) -> FileResponse:
    """A kept photo's re-encoded display copy (no metadata), never cached
    outside the reader's browser. The view checks the reader first."""
    response = FileResponse(photo.display.open("rb"), content_type="image/jpeg")
    response["Cache-Control"] = "private, no-store"
    return response


def _too_many_pixels(name: str, limit: int, size=None) -> ValidationError:
    if size is None:
        return ValidationError(
            "“%(name)s” has too many pixels; the most we accept is %(mp)s "
            "megapixels. Please send a smaller photo.",
            code="too_many_pixels",
            params={"name": name, "mp": limit // 1_000_000},
        )
    return ValidationError(
        "“%(name)s” is %(w)s × %(h)s pixels; the most we accept is %(mp)s "
        "megapixels. Please send a smaller photo.",
        code="too_many_pixels",
        params={"name": name, "w": size[0], "h": size[1], "mp": limit // 1_000_000},
    )


def _check_pixels(probe: Image.Image, name: str) -> None:
    """The header's width × height against the format's limit (nothing decoded)."""
    width, height = probe.size
    limit = MAX_PIXELS if probe.format in SCALED_FORMATS else MAX_PIXELS_FULL_DECODE
    if width * height > limit:
        raise _too_many_pixels(name, limit, (width, height))


def _display_copy(image: Image.Image) -> tuple[bytes, int, int]:
    """A JPEG of at most DISPLAY_MAX_SIDE a side, made from the pixels alone."""
    return pixels_only(image, max_side=DISPLAY_MAX_SIDE, fmt="JPEG", quality=85)


def pixels_only(
    image: Image.Image, *, max_side: int, fmt: str, quality: int = 85
) -> tuple[bytes, int, int]:
    """The image re-encoded as `fmt` (JPEG or PNG) from its pixels alone, at most
    `max_side` a side: the one place metadata (GPS, camera, comments) is
    stripped, for report photos and filed documents alike."""
    if image.format in SCALED_FORMATS:
        # Decode at 1/2, 1/4 or 1/8 scale, still at least the wanted size:
        # a 40-megapixel photo costs a quarter of its full-size memory or less.
        image.draft("RGB", (max_side, max_side))
    image.load()  # full decode: truncated or corrupt data fails here
    if fmt == "JPEG":
        small = image if image.mode in ("RGB", "L") else image.convert("RGB")
    elif image.mode in ("RGB", "RGBA", "L", "LA"):
        small = image
    else:  # a palette or other mode: RGBA keeps any transparency
        small = image.convert("RGBA")
    # Downscale (in place) before turning, so that works on the small copy.
    small.thumbnail((max_side, max_side))
    small = ImageOps.exif_transpose(small)
    # A fresh image from the pixels alone: the decoder's info (a JPEG or GIF
    # comment, PNG tEXt/iTXt/zTXt, XMP, ICC, EXIF) is not carried over, and the
    # JPEG writer is told there is none.
    clean = Image.frombytes(small.mode, small.size, small.tobytes())
    out = io.BytesIO()
    if fmt == "JPEG":
        clean.save(
            out, format="JPEG", quality=quality, optimize=True, exif=b"", comment=b""
        )
    else:
        clean.save(out, format="PNG", optimize=True)
    return out.getvalue(), clean.width, clean.height


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


@dataclass(frozen=True)
class ProcessedDocument:
    original: ContentFile  # the bytes as sent (private; served to staff only)
    original_sha256: str
    original_name: str


def process_pdf_upload(upload) -> ProcessedDocument:
    """Check one uploaded PDF by its first bytes (never its name) and the same
    size limit as a photo. It is kept as sent, privately, and only ever served
    to staff as a download."""
    data = _read(upload)
    name = _name(upload)
    if data.lstrip()[:5] != b"%PDF-":
        raise ValidationError(
            "“%(name)s” is not a PDF.",
            code="not_a_document",
            params={"name": name},
        )
    return ProcessedDocument(
        original=ContentFile(data, name=f"{uuid.uuid4().hex}.pdf"),
        original_sha256=hashlib.sha256(data).hexdigest(),
        original_name=name,
    )


def process_photo_or_pdf(upload) -> ProcessedImage | ProcessedDocument:
    """A photo (decoded, re-encoded without metadata) or a PDF (checked by its
    first bytes), whichever the bytes say it is."""
    upload.seek(0)
    head = upload.read(1024)
    upload.seek(0)
    if head.lstrip()[:5] == b"%PDF-":
        return process_pdf_upload(upload)
    try:
        return process_image_upload(upload)
    except ValidationError as exc:
        if exc.code != "not_an_image":
            raise
        raise ValidationError(
            "“%(name)s” is neither a photo we can read (JPEG, PNG, WebP or GIF) "
            "nor a PDF.",
            code="not_a_document",
            params={"name": _name(upload)},
        ) from exc


# Filed documents (an appeal's, sent on the respondent's page): the types by
# their first bytes, never by the name or the Content-Type the sender claimed.
DOCUMENT_MAGIC = (
    (b"%PDF-", "application/pdf"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"\x89PNG\r\n\x1a\n", "image/png"),
)
DOCUMENT_EXTENSIONS = {
    "application/pdf": "pdf",
    "image/jpeg": "jpg",
    "image/png": "png",
}
DOCUMENT_MAX_SIDE = 6000  # a letter page scanned at 600 dpi is 5100 × 6600


def sniffed_type(head: bytes) -> str:
    """ "application/pdf", "image/jpeg" or "image/png" as the first bytes say;
    "" for anything else."""
    for magic, content_type in DOCUMENT_MAGIC:
        if head.startswith(magic):
            return content_type
    return ""


@dataclass(frozen=True)
class FiledDocument:
    content: ContentFile  # a PDF as sent, or an image without its metadata
    content_type: str  # sniffed
    sha256: str  # of `content`
    size: int


def process_filed_document(upload, *, limit: int) -> FiledDocument:
    """Accept a PDF, JPEG or PNG by its first bytes; an image must decode whole
    and is re-encoded in its own format without metadata (pixels_only). Raises
    ValidationError in words the sender can act on."""
    data = _read(upload, limit)
    name = _name(upload)
    content_type = sniffed_type(data)
    if not content_type:
        raise ValidationError(
            "“%(name)s” is not a PDF, JPEG or PNG file; please send the document "
            "as one of those.",
            code="not_a_document",
            params={"name": name},
        )
    if content_type != "application/pdf":
        fmt = "JPEG" if content_type == "image/jpeg" else "PNG"
        truncated = ImageFile.LOAD_TRUNCATED_IMAGES
        ImageFile.LOAD_TRUNCATED_IMAGES = False
        try:
            with Image.open(io.BytesIO(data), formats=[fmt]) as probe:
                _check_pixels(probe, name)
                probe.verify()
            with Image.open(io.BytesIO(data), formats=[fmt]) as image:
                data, _w, _h = pixels_only(
                    image, max_side=DOCUMENT_MAX_SIDE, fmt=fmt, quality=92
                )
        except ValidationError:
            raise
        except Image.DecompressionBombError as exc:
            raise _too_many_pixels(name, MAX_PIXELS) from exc
        except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
            raise ValidationError(
                "“%(name)s” is damaged or incomplete; please send it again.",
                code="not_a_document",
                params={"name": name},
            ) from exc
        finally:
            ImageFile.LOAD_TRUNCATED_IMAGES = truncated
    extension = DOCUMENT_EXTENSIONS[content_type]
    return FiledDocument(
        content=ContentFile(data, name=f"{uuid.uuid4().hex}.{extension}"),
        content_type=content_type,
        sha256=hashlib.sha256(data).hexdigest(),
        size=len(data),
    )
