"""The street a report is published under: one of the village's own streets,
never the text a resident typed.

The public map, the public GeoJSON and Open311 give the place "to the street, not
the house". Stripping house numbers from free text cannot be made safe (numbers
come after the name, glued to it, as fractions, in other scripts; a name, an
e-mail address or a phone number typed into the address would be published word
for word), so the address is matched against the streets of the village's base
map (static/geo/poquott.geojson, the features of kind "street") and only the
matched street's name, as the map spells it, is published; no match publishes
nothing."""

import json
import re
import unicodedata
from functools import cache, lru_cache
from pathlib import Path

from django.conf import settings

BASE_MAP = Path(settings.BASE_DIR) / "static" / "geo" / "poquott.geojson"

# Abbreviations residents type for a street's kind, as the map spells them.
SUFFIXES = {
    "ave": "avenue",
    "av": "avenue",
    "avn": "avenue",
    "rd": "road",
    "st": "street",
    "str": "street",
    "rte": "route",
    "rt": "route",
}


def _words(text: str) -> list[str]:
    """Lowercase words of `text`, digits apart from letters ("12Birchwood" →
    "12 birchwood"), abbreviations spelled out."""
    text = unicodedata.normalize("NFKC", text or "").casefold()
    text = re.sub(r"(?<=\d)(?=[^\W\d_])|(?<=[^\W\d_])(?=\d)", " ", text)
    return [SUFFIXES.get(word, word) for word in re.findall(r"[^\W_]+", text)]


@cache
def village_streets() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(name, words) of each street of the base map, longest name first."""
    features = json.loads(BASE_MAP.read_text(encoding="utf-8"))["features"]
    names = {
        f["properties"]["name"]
        for f in features
        if f["properties"].get("kind") == "street"
    }
    streets = [(name, tuple(_words(name))) for name in names]
    return tuple(sorted(streets, key=lambda s: (-len(s[1]), s[0])))


# A pure function of the text and the base map (read once, above): Open311's
# list asks it for the same thousand addresses at every poll (bench/NOTES.md).
@lru_cache(maxsize=8192)
def published_street(address: str) -> str:
    """The village street named in `address` ("12½ Birchwood Ave" → "Birchwood
    Avenue"), the first one named if several; "" when it names none of them."""
    words = _words(address)
    found = []
    for name, street in village_streets():
        size = len(street)
        for start in range(len(words) - size + 1):
            if tuple(words[start : start + size]) == street:
                found.append((start, name))
                break
    return min(found)[1] if found else ""
