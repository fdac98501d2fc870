"""Small server-rendered SVG charts (no JavaScript, no CDN): the same markup on
the staff page, the public page and in the PDF (WeasyPrint draws inline SVG).

Every chart carries a <title> and a <desc> with its numbers in words, so a
screen reader (and the PDF's text) says what the bars show."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

PALETTE = ("#1f5f99", "#c4572a", "#4d8b31", "#7a4b94")
WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 30, 48


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


def bar_chart(
    title: str, labels: Sequence[str], series: Sequence[Series], *, chart_id: str
) -> SafeString:
    """Grouped vertical bars: one group per label, one bar per series."""
    top = _nice_max(max((v for s in series for v in s.values), default=0))
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    groups = max(len(labels), 1)
    group_w = plot_w / groups
    bar_w = group_w * 0.8 / max(len(series), 1)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" class="chart" '
        f'id="{escape(chart_id)}" aria-labelledby="{escape(chart_id)}-title '
        f'{escape(chart_id)}-desc" font-family="sans-serif" font-size="11">',
        f'<title id="{escape(chart_id)}-title">{escape(title)}</title>',
        f'<desc id="{escape(chart_id)}-desc">{escape(_describe(labels, series))}</desc>',
        f'<text x="{LEFT}" y="16" font-size="13" font-weight="bold">{escape(title)}</text>',
    ]
    # axis and grid lines at 0, ½ and the top
    for fraction in (0, 0.5, 1):
        y = TOP + plot_h * (1 - fraction)
        value = top * fraction
        label = f"{value:g}"
        parts.append(
            f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" '
            f'stroke="#ccc" stroke-width="1"/>'
            f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{label}</text>'
        )
    for g, label in enumerate(labels):
        x0 = LEFT + g * group_w + group_w * 0.1
        for s_index, s in enumerate(series):
            value = s.values[g] if g < len(s.values) else 0
            h = plot_h * (value / top) if top else 0
            x = x0 + s_index * bar_w
            y = TOP + plot_h - h
            parts.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{max(bar_w - 1, 1):.1f}" '
                f'height="{h:.1f}" fill="{PALETTE[s_index % len(PALETTE)]}">'
                f"<title>{escape(s.name)}, {escape(label)}: {value:g}</title></rect>"
            )
        parts.append(
            f'<text x="{LEFT + g * group_w + group_w / 2:.1f}" y="{TOP + plot_h + 14}" '
            f'text-anchor="middle">{escape(label)}</text>'
        )
    # legend
    x = LEFT
    for s_index, s in enumerate(series):
        parts.append(
            f'<rect x="{x}" y="{HEIGHT - 16}" width="10" height="10" '
            f'fill="{PALETTE[s_index % len(PALETTE)]}"/>'
            f'<text x="{x + 14}" y="{HEIGHT - 7}">{escape(s.name)}</text>'
        )
        x += 24 + 7 * len(s.name)
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
        ),
        bar_chart(
            "Legal deadlines due in the year: met and missed",
            ["Met", "Missed"],
            [Series("Deadlines", [met, missed])],
            chart_id="chart-deadlines",
        ),
    ]
