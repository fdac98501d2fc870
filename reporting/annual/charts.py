"""Small server-rendered SVG charts (no JavaScript, no CDN): the same markup on
the staff page, the public page and in the PDF (WeasyPrint draws inline SVG).

Every chart carries a <title> and a <desc> with its numbers in words, so a
screen reader (and the PDF's text) says what the bars show."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

PALETTE = ("#1f5f99", "#c4572a", "#4d8b31", "#7a4b94")

# Readable on a phone (issue 26). The chart scales down with its column (site.css
# caps every svg at 100 %), so its text is sized for the narrowest column it gets:
# a 390 px phone less the page's 12 px gutters is 366 px, taken as 360. Every text
# is at least MIN_TEXT_PX there: FONT_SIZE user units × 360 / WIDTH ≥ 11 px.
WIDTH = 400
NARROWEST_PX = 360
MIN_TEXT_PX = 11
FONT_SIZE = math.ceil(MIN_TEXT_PX * WIDTH / NARROWEST_PX)  # 13
TITLE_SIZE = FONT_SIZE + 2
LINE = FONT_SIZE + 5  # a line of text, in user units
# A sans-serif character is about 0.6 em wide on average (digits ~0.56 em): what
# a label needs, to decide how many labels fit.
CHAR_EM = 0.6
LEFT, RIGHT, TOP_GAP = 40, 8, 10
PLOT_H = 150


@dataclass(frozen=True)
class Series:
    name: str
    values: Sequence[int | float]


def _nice_max(value: float) -> int:
    """The top of the axis: 1, 2, 5 × 10ⁿ at or above `value` (at least 1)."""
    if value <= 1:
        return 1
    step = 1
    while True:
        for m in (1, 2, 5):
            if m * step >= value:
                return m * step
        step *= 10


def text_width(text: str, size: float = FONT_SIZE) -> float:
    """About how wide `text` is at `size` (user units)."""
    return len(text) * size * CHAR_EM


def label_step(labels: Sequence[str], slot: float, size: float = FONT_SIZE) -> int:
    """Show every n-th label of the x axis so that none runs into the next: n is
    the fewest slots (each `slot` wide) the widest label needs, with a gap of half
    an em. 1 when every label fits in its own slot."""
    if not labels or slot <= 0:
        return 1
    need = max(text_width(label, size) for label in labels) + size / 2
    return max(1, math.ceil(need / slot))


def shown_labels(labels: Sequence[str], slot: float) -> list[bool]:
    """Which labels the axis shows: the first and every `label_step`-th after it."""
    step = label_step(labels, slot)
    return [i % step == 0 for i in range(len(labels))]


def wrap(text: str, width: float, size: float = FONT_SIZE) -> list[str]:
    """`text` in lines no wider than `width` (by `text_width`), broken at spaces."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(lines[-1] + " " + word, size) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def bar_chart(
    title: str,
    labels: Sequence[str],
    series: Sequence[Series],
    *,
    chart_id: str,
    ticks: Sequence[str] | None = None,
    axis_label: str = "",
) -> SafeString:
    """Grouped vertical bars: one group per label, one bar per series.

    `ticks` are shorter words for the x axis than `labels` (which the bars'
    titles and the description use); `axis_label` says what the axis counts."""
    ticks = list(ticks if ticks is not None else labels)
    top = _nice_max(max((v for s in series for v in s.values), default=0))
    plot_w = WIDTH - LEFT - RIGHT
    groups = max(len(labels), 1)
    group_w = plot_w / groups
    bar_w = group_w * 0.8 / max(len(series), 1)
    shown = shown_labels(ticks, group_w)
    title_lines = wrap(title, WIDTH - 8, TITLE_SIZE)
    plot_top = TOP_GAP + LINE * len(title_lines)
    plot_bottom = plot_top + PLOT_H
    y = plot_bottom + LINE  # the tick labels' baseline
    axis_y = y + LINE if axis_label else y
    # the legend: as many entries on a line as fit, then the next line
    legend, x, row = [], LEFT, 0
    for s_index, s in enumerate(series):
        entry_w = FONT_SIZE + 4 + text_width(s.name) + FONT_SIZE
        if x > LEFT and x + entry_w > WIDTH - RIGHT:
            x, row = LEFT, row + 1
        legend.append((s_index, s, x, row))
        x += entry_w
    legend_top = axis_y + LINE // 2
    height = legend_top + LINE * (row + 1) + 4
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" role="img" class="chart" '
        f'id="{escape(chart_id)}" aria-labelledby="{escape(chart_id)}-title '
        f'{escape(chart_id)}-desc" font-family="sans-serif" font-size="{FONT_SIZE}">',
        f'<title id="{escape(chart_id)}-title">{escape(title)}</title>',
        f'<desc id="{escape(chart_id)}-desc">{escape(_describe(labels, series))}</desc>',
    ]
    for n, line in enumerate(title_lines):
        parts.append(
            f'<text x="4" y="{TOP_GAP + LINE * (n + 1) - 4}" font-size="{TITLE_SIZE}" '
            f'font-weight="bold">{escape(line)}</text>'
        )
    # axis and grid lines at 0, ½ and the top
    for fraction in (0, 0.5, 1):
        line_y = plot_top + PLOT_H * (1 - fraction)
        value = top * fraction
        label = f"{value:g}"
        parts.append(
            f'<line x1="{LEFT}" y1="{line_y:.1f}" x2="{WIDTH - RIGHT}" '
            f'y2="{line_y:.1f}" stroke="#ccc" stroke-width="1"/>'
            f'<text x="{LEFT - 5}" y="{line_y + 4:.1f}" text-anchor="end">{label}</text>'
        )
    for g, label in enumerate(labels):
        x0 = LEFT + g * group_w + group_w * 0.1
        for s_index, s in enumerate(series):
            value = s.values[g] if g < len(s.values) else 0
            h = PLOT_H * (value / top) if top else 0
            x = x0 + s_index * bar_w
            parts.append(
                f'<rect x="{x:.1f}" y="{plot_bottom - h:.1f}" '
                f'width="{max(bar_w - 1, 1):.1f}" height="{h:.1f}" '
                f'fill="{PALETTE[s_index % len(PALETTE)]}">'
                f"<title>{escape(s.name)}, {escape(label)}: {value:g}</title></rect>"
            )
        if g < len(ticks) and shown[g]:
            parts.append(
                f'<text x="{LEFT + g * group_w + group_w / 2:.1f}" y="{y}" '
                f'text-anchor="middle" class="chart-tick">{escape(ticks[g])}</text>'
            )
    if axis_label:
        parts.append(
            f'<text x="{LEFT + plot_w / 2:.1f}" y="{axis_y}" text-anchor="middle">'
            f"{escape(axis_label)}</text>"
        )
    for s_index, s, x, row in legend:
        line_top = legend_top + LINE * row
        parts.append(
            f'<rect x="{x}" y="{line_top + 2}" width="{FONT_SIZE - 2}" '
            f'height="{FONT_SIZE - 2}" fill="{PALETTE[s_index % len(PALETTE)]}"/>'
            f'<text x="{x + FONT_SIZE + 2}" y="{line_top + FONT_SIZE}">'
            f"{escape(s.name)}</text>"
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every text above is escaped


def _describe(labels, series) -> str:
    out = []
    for s in series:
        values = ", ".join(f"{label} {s.values[i]:g}" for i, label in enumerate(labels))
        out.append(f"{s.name}: {values or 'none'}.")
    return " ".join(out)


# --- the report's three charts ---------------------------------------------------

HISTOGRAM_BUCKETS = ((0, 7), (8, 30), (31, 90), (91, 180), (181, None))


def histogram_ticks() -> list[str]:
    """The buckets' short words for the axis: 0–7, 8–30, …, over 180."""
    return [
        f"{low}–{high}" if high is not None else f"over {low - 1}"
        for low, high in HISTOGRAM_BUCKETS
    ]


def histogram(days: Sequence[int]) -> tuple[list[str], list[int]]:
    """Days to elimination in buckets: 0–7, 8–30, 31–90, 91–180, over 180."""
    labels, values = [], []
    for low, high in HISTOGRAM_BUCKETS:
        labels.append(
            f"{low}–{high} days" if high is not None else f"over {low - 1} days"
        )
        values.append(sum(1 for d in days if d >= low and (high is None or d <= high)))
    return labels, values


def report_charts(
    per_month: Sequence[dict], elimination_days: Sequence[int], met: int, missed: int
) -> list[SafeString]:
    """The three charts of the annual report, from its frozen series."""
    months = [m["label"] for m in per_month]
    labels, values = histogram(elimination_days)
    return [
        bar_chart(
            "Reports received and discharges confirmed, per month",
            months,
            [
                Series("Reports received", [m["reports"] for m in per_month]),
                Series(
                    "Discharges and connections confirmed",
                    [m["confirmed"] for m in per_month],
                ),
            ],
            chart_id="chart-per-month",
        ),
        bar_chart(
            "Time from report to elimination",
            labels,
            [Series("Discharges and connections eliminated", values)],
            chart_id="chart-elimination",
            ticks=histogram_ticks(),
            axis_label="days from report to elimination",
        ),
        bar_chart(
            "Legal deadlines due in the year: met and missed",
            ["Met", "Missed"],
            [Series("Deadlines", [met, missed])],
            chart_id="chart-deadlines",
        ),
    ]
