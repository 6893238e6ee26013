"""The balance chart of an evening: each player's running balance as a self-contained SVG.

No Flask here: `balance_series` reads the ledger's balances after each hand,
`balance_chart_svg` turns plain numbers into SVG text. Its words and its amounts come from
the caller, in the reader's language (`axis`, `label`, `value_text`); without them it
writes German, the app's default. The chart must read on a
black-and-white printout, so every player gets a dash pattern as well as a colour, and the
legend repeats both.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from scorer.i18n.formats import euros

# Okabe–Ito colours (safe for colour-blind readers) and dashes that tell lines apart in grey.
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9")
DASHES = ("", "7 3", "2 2.5", "9 3 2 3", "4 4", "1 4")
MAX_POINTS = 400
"""Points per line at most; longer evenings are thinned to keep the SVG small."""
FONT = "DejaVu Sans, Verdana, sans-serif"
QUOTE = {'"': "&quot;"}


def balance_series(
    players: Sequence[str],
    standings: Iterable[Mapping[str, int]],
    seated: Iterable[Collection[str]] | None = None,
) -> tuple[list[str], dict[str, list[int | None]]]:
    """Each player's balance (cents, stakes included) at each of `standings`: the balances
    before the first hand and after each live hand, as the ledger has them. With `seated`
    (who sat at the table at each of them), a player has no value (None) where he was not
    at the table: his line runs from the hand he joined to the hand he left."""
    players = list(players)
    series: dict[str, list[int | None]] = {p: [] for p in players}
    at_table = iter(seated) if seated is not None else None
    for balances in standings:
        present = next(at_table) if at_table is not None else players
        for p in players:
            series[p].append(balances.get(p, 0) if p in present else None)
    return players, series


def balance_chart_svg(
    players: Sequence[str],
    series: Mapping[str, Sequence[int | None]],
    width: int = 680,
    *,
    height: int = 300,
    points: bool = False,
    numbers: Sequence[int] | None = None,
    axis: str = "Spiel Nr.",
    label: str = "Verlauf der Kontostände",
    value_text: Callable[[int], str] | None = None,
) -> str:
    """An SVG line chart of `series` (cents per player, index 0 = before the first hand);
    with `points`, the values are tournament points rather than cents. `numbers` are the
    hand numbers of the points (0 before the first hand), so that a struck-out hand leaves
    a gap on the axis rather than renumbering the others; without it, 0, 1, 2 … `axis`
    names the x axis, `label` the whole chart (for a screen reader), and `value_text`
    writes a value of the y axis (euros in the current language, or points, unless given)."""
    if value_text is None:
        value_text = _points if points else euros
    players = list(players)
    length = max((len(series.get(p, ())) for p in players), default=0)
    numbers = list(numbers) if numbers is not None else list(range(length))
    values = [v for p in players for v in series.get(p, ()) if v is not None]
    low, high = min([0, *values]), max([0, *values])
    step = _nice_step(high - low, cents=not points)
    low, high = step * math.floor(low / step), step * math.ceil(high / step)
    if low == high:
        low, high = low - step, high + step

    legend_width = min(190, width // 3)
    frame = _Frame(76, width - legend_width - 10, 12, height - 34, low, high, numbers)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="{FONT}" font-size="11" '
        f'role="img" aria-label="{escape(label, QUOTE)}">',
        f'<rect x="{frame.left}" y="{frame.top}" width="{frame.right - frame.left}" '
        f'height="{frame.bottom - frame.top}" fill="none" stroke="#999" stroke-width="0.6"/>',
        *_value_grid(frame, step, value_text),
        *_number_axis(frame, height, axis),
    ]
    for n, player in enumerate(players):
        out.extend(_player_line(frame, n, player, values=series.get(player, ())))
    out.append("</svg>")
    return "\n".join(out)


@dataclass(frozen=True)
class _Frame:
    """The chart's plotting area (SVG units) and what it shows: values `low`..`high` up
    the y axis, hand `numbers` along the x axis."""

    left: int
    right: int
    top: int
    bottom: int
    low: int
    high: int
    numbers: Sequence[int]

    @property
    def last(self) -> int:
        return max(self.numbers[-1] if self.numbers else 0, 1)

    def x(self, number: float) -> float:
        return self.left + (self.right - self.left) * number / self.last

    def y(self, v: float) -> float:
        return self.bottom - (self.bottom - self.top) * (v - self.low) / (self.high - self.low)


def _value_grid(frame: _Frame, step: int, value_text: Callable[[int], str]) -> list[str]:
    """The y grid, a line and a label (`value_text`) every `step`."""
    out = []
    tick = frame.low
    while tick <= frame.high:
        ty = _n(frame.y(tick))
        if tick != 0:
            out.append(
                f'<line x1="{frame.left}" y1="{ty}" x2="{frame.right}" y2="{ty}" stroke="#ddd" '
                'stroke-width="0.6"/>'
            )
        out.append(
            f'<text x="{frame.left - 5}" y="{_n(frame.y(tick) + 3.5)}" text-anchor="end">'
            f"{escape(value_text(tick))}</text>"
        )
        tick += step
    return out


def _number_axis(frame: _Frame, height: int, axis: str) -> list[str]:
    """The x ticks (hand numbers), the axis' name below them, and the zero line."""
    out = []
    last, bottom = frame.last, frame.bottom
    xstep = _nice_step(last, target=8, cents=False)
    i = 0
    while i <= last:
        tx = _n(frame.x(i))
        out.append(
            f'<line x1="{tx}" y1="{bottom}" x2="{tx}" y2="{bottom + 4}" stroke="#999" '
            'stroke-width="0.6"/>'
            f'<text x="{tx}" y="{bottom + 15}" text-anchor="middle">{i}</text>'
        )
        i += xstep
    out.append(
        f'<text x="{_n((frame.left + frame.right) / 2)}" y="{height - 4}" text-anchor="middle" '
        f'fill="#555">{escape(axis)}</text>'
    )
    zero = _n(frame.y(0))
    out.append(
        f'<line x1="{frame.left}" y1="{zero}" x2="{frame.right}" y2="{zero}" stroke="#000" '
        'stroke-width="1.1"/>'
    )
    return out


def _player_line(frame: _Frame, n: int, player: str, *, values: Sequence[int | None]) -> list[str]:
    """The `n`th player's line (a dot where a piece of it is one hand long) and its entry
    in the legend, in the player's colour and dashes."""
    out = []
    x, y, numbers = frame.x, frame.y, frame.numbers
    colour, dash = COLOURS[n % len(COLOURS)], DASHES[n % len(DASHES)]
    style = f'fill="none" stroke="{colour}" stroke-width="1.8" stroke-linejoin="round"'
    if dash:
        style += f' stroke-dasharray="{dash}"'
    for piece in _pieces(list(values)):
        first = piece[0][0]
        marks = [(first + i, v) for i, v in _thin([v for _, v in piece], MAX_POINTS)]
        if len(marks) == 1:
            i, v = marks[0]
            out.append(
                f'<circle cx="{_n(x(numbers[i]))}" cy="{_n(y(v))}" r="2.5" fill="{colour}"/>'
            )
        elif marks:
            coords = " ".join(f"{_n(x(numbers[i]))},{_n(y(v))}" for i, v in marks)
            out.append(f'<polyline points="{coords}" {style}/>')
    ly = frame.top + 8 + 18 * n
    lx = frame.right + 14
    out.append(
        f'<line x1="{lx}" y1="{ly}" x2="{lx + 28}" y2="{ly}" {style}/>'
        f'<text x="{lx + 34}" y="{ly + 4}">{escape(_short(player, 22))}</text>'
    )
    return out


def _pieces(values: list[int | None]) -> list[list[tuple[int, int]]]:
    """The runs of a series between its gaps (None: the player was not at the table), as
    (index, value) pairs."""
    pieces: list[list[tuple[int, int]]] = []
    run: list[tuple[int, int]] = []
    for i, v in enumerate(values):
        if v is None:
            if run:
                pieces.append(run)
            run = []
        else:
            run.append((i, v))
    if run:
        pieces.append(run)
    return pieces


def _thin(values: list[int], limit: int) -> list[tuple[int, int]]:
    """(index, value) pairs; beyond `limit` points, the lowest and highest of each bucket
    (so a peak is never cut off), and always the first and last point."""
    if len(values) <= limit:
        return list(enumerate(values))
    buckets = limit // 2 - 1
    size = (len(values) - 2) / buckets
    kept = {0, len(values) - 1}
    for b in range(buckets):
        start, end = 1 + int(b * size), 1 + int((b + 1) * size)
        chunk = range(start, min(end, len(values) - 1))
        if chunk:
            kept.add(min(chunk, key=values.__getitem__))
            kept.add(max(chunk, key=values.__getitem__))
    return [(i, values[i]) for i in sorted(kept)]


def _nice_step(span: float, target: int = 6, cents: bool = True) -> int:
    """A round step (1, 2 or 5 times a power of ten) that cuts `span` into about `target`."""
    if span <= 0:
        return 100 if cents else 1
    raw = span / target
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return max(int(factor * power), 1)
    return max(int(10 * power), 1)  # pragma: no cover  (factor 10 always fits)


def _points(value: int) -> str:
    return f"{'−' if value < 0 else ''}{abs(value)} P"


def _short(name: str, limit: int) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def _n(value: float) -> str:
    """A coordinate with one decimal at most: small SVG, no visible loss."""
    return f"{value:.1f}".rstrip("0").rstrip(".")
