"""The QR code printed beside an address on a paper (the respondent's page,
issue 18)."""

import segno
from django.utils.safestring import mark_safe


def qr_svg(address: str) -> str:
    """The QR code of `address` as inline SVG (segno), for the PDF."""
    qr = segno.make(address, error="m")
    return mark_safe(qr.svg_inline(scale=3, border=2, title="QR code: " + address))
