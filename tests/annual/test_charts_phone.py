"""Issue 26: the annual report's SVG charts are readable on a 390 px phone. The
chart scales down with its column (at most 366 px there: 390 less the page's
12 px gutters), so every text's font size, scaled to that width, is at least
11 px; and the x axis shows every n-th label when they would run together."""

import xml.etree.ElementTree as ET

from reporting.annual import charts
from reporting.annual.charts import Series, bar_chart, label_step, report_charts

SVG = "{http://www.w3.org/2000/svg}"
PHONE_COLUMN_PX = 390 - 2 * 12
MONTHS = [
    f"{m} 2026"
    for m in ("Jan", "Feb", "Mar", "Apr", "May", "Jun")
    + ("Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
]


def _per_month():
    return [
        {"label": m, "reports": i + 1, "confirmed": i % 3} for i, m in enumerate(MONTHS)
    ]


def _parse(svg):
    return ET.fromstring(str(svg))


def _texts(root):
    """(text, font size in user units) of every <text> (its own or the svg's)."""
    default = float(root.get("font-size"))
    return [
        ("".join(t.itertext()), float(t.get("font-size", default)))
        for t in root.iter(f"{SVG}text")
    ]


def _ticks(root):
    return [
        (float(t.get("x")), "".join(t.itertext()))
        for t in root.iter(f"{SVG}text")
        if t.get("class") == "chart-tick"
    ]


def _view_width(root):
    return float(root.get("viewBox").split()[2])


def test_every_text_is_at_least_11_px_on_a_390_px_phone():
    for svg in report_charts(_per_month(), [3, 10, 40, 100, 200], 5, 1):
        root = _parse(svg)
        scale = min(PHONE_COLUMN_PX, float(root.get("width"))) / _view_width(root)
        texts = _texts(root)
        assert len(texts) >= 5
        for text, size in texts:
            assert size * scale >= 11, (root.get("id"), text, size * scale)
    # the narrowest column the font was sized for is no wider than the phone's
    assert charts.NARROWEST_PX <= PHONE_COLUMN_PX
    assert charts.FONT_SIZE * charts.NARROWEST_PX / charts.WIDTH >= 11


def test_twelve_month_labels_are_thinned_to_every_third():
    root = _parse(report_charts(_per_month(), [], 0, 0)[0])
    assert [text for _, text in _ticks(root)] == [
        "Jan 2026",
        "Apr 2026",
        "Jul 2026",
        "Oct 2026",
    ]
    # every month is still in the description and in its bars' titles
    desc = root.find(f"{SVG}desc").text
    assert all(m in desc for m in MONTHS)
    assert (
        len([t for t in root.iter(f"{SVG}title") if "Reports received," in t.text])
        == 12
    )


def test_shown_labels_never_run_together():
    """Each tick label's estimated width, plus a gap, fits between its neighbours,
    for any number of labels from 1 to 24."""
    for count in range(1, 25):
        labels = MONTHS * 2
        labels = labels[:count]
        root = _parse(bar_chart("T", labels, [Series("S", [1] * count)], chart_id="c"))
        ticks = _ticks(root)
        assert ticks and ticks[0][1] == labels[0]
        size = float(root.get("font-size"))
        widest = max(charts.text_width(text, size) for _, text in ticks)
        for (x1, _), (x2, _) in zip(ticks, ticks[1:], strict=False):
            assert x2 - x1 >= widest, (count, x2 - x1, widest)


def test_label_step_rule():
    assert label_step(["Met", "Missed"], 176) == 1
    assert label_step(["Jan 2026"] * 12, 352 / 12) == 3
    assert label_step(["Jan 2026"] * 6, 352 / 6) == 2
    assert label_step([], 10) == 1


def test_few_labels_all_shown_and_the_histogram_says_days_once():
    per_month = _per_month()[:2]
    month_chart, histogram, deadlines = (
        _parse(svg) for svg in report_charts(per_month, [1, 9, 35, 95, 365], 3, 2)
    )
    assert [t for _, t in _ticks(month_chart)] == ["Jan 2026", "Feb 2026"]
    assert [t for _, t in _ticks(histogram)] == [
        "0–7",
        "8–30",
        "31–90",
        "91–180",
        "over 180",
    ]
    assert "days from report to elimination" in [t for t, _ in _texts(histogram)]
    assert "0–7 days 1" in histogram.find(f"{SVG}desc").text
    assert [t for _, t in _ticks(deadlines)] == ["Met", "Missed"]


def test_long_titles_and_legends_stay_inside_the_chart():
    root = _parse(report_charts(_per_month(), [], 0, 0)[0])
    width = _view_width(root)
    for t in root.iter(f"{SVG}text"):
        size = float(t.get("font-size", root.get("font-size")))
        text = "".join(t.itertext())
        x = float(t.get("x"))
        anchor = t.get("text-anchor", "start")
        w = charts.text_width(text, size)
        left = x - (w if anchor == "end" else w / 2 if anchor == "middle" else 0)
        assert left >= 0 and left + w <= width, (text, left, left + w)
