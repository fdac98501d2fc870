"""What a person reads on a page: the text without tags, scripts or styles
(a `<time datetime="2026-12-03">` keeps its ISO for machines, out of sight)."""

import html as html_lib
import re

_HIDDEN = re.compile(r"<(script|style)\b.*?</\1>", re.S | re.I)
# "How it was computed": the engine's stored explanation, the office's wording
# ("15 calendar days after Thursday, December 3, 2026 … Rule R-APL-1 … GCL § 20"),
# one click away.
_EXPLANATION = re.compile(
    r"<details\b[^>]*>\s*<summary>[^<]*computed</summary>.*?</details>", re.S | re.I
)
_TAG = re.compile(r"<[^>]+>")
_SPACE = re.compile(r"\s+")


def visible_text(page, *, explanations: bool = True) -> str:
    """The page's words, one space apart ("</time>," reads ","); without the
    "How it was computed" explanations if `explanations` is false."""
    if hasattr(page, "content"):
        page = page.content.decode()
    page = _HIDDEN.sub(" ", page)
    if not explanations:
        page = _EXPLANATION.sub(" ", page)
    text = html_lib.unescape(_TAG.sub(" ", page)).replace("\xa0", " ")
    text = _SPACE.sub(" ", text)
    return re.sub(r" ([,.;:)])", r"\1", text).strip()


def assert_human_dates(
    page, *words: str, not_iso: tuple[str, ...] = ("2026-12-03",), stored=()
):
    """The page says each of `words` ("Thu, Dec 3, 2026") and, outside the
    `<time datetime=…>` attributes, none of `not_iso`. `stored`: texts written
    once and kept as written (a deadline's explanation, worded as the letters word
    it; a chronology entry's summary), which are read around. Returns the text."""
    text = visible_text(page, explanations=False)
    for word in words:
        assert word in text, f"{word!r} not on the page: {text[:3000]}"
    rest = text
    for kept in stored:
        rest = rest.replace(_SPACE.sub(" ", kept).strip(), " ")
    for iso in not_iso:
        assert iso not in rest, f"{iso!r} on the page: {rest[:3000]}"
    return text
