"""The printable score sheet of an evening: a PDF made with WeasyPrint.

`render_pdf` needs an app context: it renders `templates/exports/sheet.html` with
`render_template` and styles it with `static/print.css`. Nothing is fetched from the
network: the fetcher serves files below `static/` and `data:` URIs only.

Two choices shape this module:

- **Page-sized chunks.** A running total carried from page to page ("Übertrag") is not
  something CSS paged media can compute, so the hands are cut into page-sized chunks here.
  Each chunk is a table of its own, one page tall, that opens with the balances carried
  over and closes with the subtotal. That works because every line has the same fixed
  height (see `LINE` and print.css) and the page-one header has a height computed here.
- **One cell per column, not per hand.** WeasyPrint spends about 0.7 ms on every table
  cell; 300 hands × 13 columns would take three seconds. So a chunk's hands are one table
  row whose cells hold a whole column, one line per hand (`white-space: pre`). Lines in
  neighbouring cells line up because they share one line height, and a zebra background
  of the same period keeps the eye on the row. A note between hands (a refill, the end of
  a round) is written in the narrow number column and runs on to the right over the empty
  cells beside it.
"""

from __future__ import annotations

import base64
import math
import os
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import current_app, render_template

from scorer import operations
from scorer.domain import GAMES, SYSTEMS
from scorer.domain.model import POT
from scorer.domain.money import format_euros
from scorer.domain.registry import Game
from scorer.exports.chart import balance_chart_svg, balance_series
from scorer.exports.weasy import write_pdf
from scorer.models import HandRecord, TableSession
from scorer.operations import Standing
from scorer.table.messages import pot_short

RESULT_WORDS = {"won": "gewonnen", "lost": "verloren", "draw": "unentschieden"}
SUIT_NAMES = {"eichel": "Eichel", "gras": "Gras", "herz": "Herz", "schellen": "Schellen"}
DOUBLINGS = ("", "Kontra", "Re", "Supp", "Resupp", "Hirsch")
POT_PARAMS = ("stake_cents", "refill", "pot_at_end")
TIMEZONE = "Europe/Berlin"
FIGURE_SPACE = "\u2007"  # as wide as a digit: right-aligns numbers in a left-aligned column

# Page geometry in points. These numbers and static/print.css must agree.
PAGE_CONTENT = 842 - 34 - 40  # A4 height less the @page margins
LINE = 12  # one hand
HEAD = 22  # the column heads: two lines of player name
SUM_ROW = 15  # the carried-over balances and the subtotal
SLACK = 4
HEADER_BASE = 22 + 14 + 10 + 8  # title, meta line, players line, gap before the table
PARAM_LINE = 9
PARAM_COLUMNS = 3

Cell = tuple[str, str]
"""(style, text) of one line in one column; style is '', 's' (struck), 'i' (a note) or
'suit' (text is a suit id)."""


@dataclass(frozen=True)
class Column:
    key: str
    head: str
    cls: str


@dataclass
class Chunk:
    """One page of the hand table: the balances carried over, the hands (column by column)
    and the subtotal."""

    carry_label: str
    carry: list[str] | None
    lines: list[list[Cell]]
    total_label: str
    total: list[str]
    last: bool


def score_sheet(session: TableSession) -> bytes:
    """The score sheet of `session`, rendered once per version of the table: a second
    request for an unchanged table reads the file (`<PDF_CACHE>/<key>-<version>.pdf`, by
    default in `instance/pdf-cache`). Older versions of the table's sheet are removed when
    a new one is written."""
    folder = Path(current_app.config["PDF_CACHE"])
    path = folder / f"{session.key}-{session.version}.pdf"
    try:
        return path.read_bytes()
    except FileNotFoundError:
        pass
    pdf = render_pdf(session)
    folder.mkdir(exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}-{threading.get_ident()}.part")
    partial.write_bytes(pdf)
    os.replace(partial, path)
    for old in folder.glob(f"{session.key}-*.pdf"):
        if old != path:
            old.unlink(missing_ok=True)
    return pdf


def render_pdf(session: TableSession) -> bytes:
    """The score sheet of `session` as PDF bytes."""
    html = render_template("exports/sheet.html", **sheet_context(session))
    return html_to_pdf(html, "print.css")


def html_to_pdf(html: str, stylesheet: str) -> bytes:
    """PDF bytes of `html` styled by `static/<stylesheet>`, rendered in a child process
    (`scorer.exports.weasy`); files come from `static/` only."""
    return write_pdf(html, Path(current_app.static_folder or "static"), stylesheet)


def sheet_context(session: TableSession) -> dict[str, Any]:
    """Everything the template shows, as strings and lists."""
    game, system = GAMES[session.game], SYSTEMS[session.system]
    ledger = operations.ledger_for(session)
    has_pot = ledger.has_pot
    points = session.points_only
    players = list(ledger.everyone)
    records = operations.hands_of(session, include_voided=True)
    stake = int(session.params.get("stake_cents") or 0) if has_pot else 0

    params = [
        (p.title, p.describe(session.params.get(p.name, p.default), points))
        for p in game.all_params(system)
        if has_pot or p.name not in POT_PARAMS
    ]
    header_height = HEADER_BASE + PARAM_LINE * math.ceil(len(params) / PARAM_COLUMNS)
    per_page = (PAGE_CONTENT - HEAD - 2 * SUM_ROW - SLACK) // LINE
    first_page = (PAGE_CONTENT - header_height - HEAD - 2 * SUM_ROW - SLACK) // LINE

    columns = [
        Column("nr", "Nr.", "nr"),
        Column("dealer", "gibt", "who"),
        Column("declarer", "Spieler", "who"),
        Column("contract", "Spiel", "contract"),
        *([Column("trump", "Trumpf", "trump")] if game.trumps else []),
        *([Column("bid", "Gereizt", "bid num")] if game.bids else []),
        Column("points", "Augen", "points num"),
        Column("result", "Ergebnis", "result"),
        *(Column(f"p{n}", p, "money num") for n, p in enumerate(players)),
        *([Column("pot", "Haferl", "money num pot")] if has_pot else []),
    ]
    amount = _points if points else _cents
    start, standings = operations.standings(session, records)
    rows, after = _rows(
        records, game, players, has_pot, stake, amount, start, standings, ledger.seated_at
    )
    chunks = _chunks(
        rows, after, columns, players, has_pot, stake, amount, start, first_page, per_page
    )

    balances = session.state["balances"]
    money = _points_text if points else format_euros
    settled = operations.settlement(session)  # at a tournament table: points, no transfers
    final = [
        {
            "name": p,
            "ledger": money(balances.get(p, 0), signed=True),
            "share": money(settled.balances[p] - balances.get(p, 0), signed=True),
            "final": money(settled.balances[p], signed=True),
        }
        for p in players
    ]
    names, series = balance_series(
        session.players, [start[0], *(balances for balances, _ in standings.values())]
    )
    chart = balance_chart_svg(names, series, points=points, numbers=[0, *standings])
    created = local_time(session.created_at)
    closed = local_time(session.closed_at) if session.closed_at else None
    live = sum(1 for r in records if not r.voided)

    return {
        "session": session,
        "game": game,
        "system": system,
        "players": players,
        "points": points,
        "has_pot": has_pot,
        "columns": columns,
        "desc_columns": len(columns) - len(players) - (1 if has_pot else 0),
        "date": created.strftime("%d.%m.%Y"),
        "time": created.strftime("%H:%M") + (f"–{closed.strftime('%H:%M')}" if closed else ""),
        "closed": closed is not None,
        "params": params,
        "header_height": header_height,
        "chunks": chunks,
        "live_hands": live,
        "voided_hands": len(records) - live,
        "edited_hands": any(r.version > 1 and not r.voided for r in records),
        "show_share": has_pot and any(f["share"] != money(0, signed=True) for f in final),
        "pot_left": money(session.state["pot"]) if has_pot and session.state["pot"] else "",
        "kept_pot": money(settled.balances[POT]) if POT in settled.balances else "",
        "final": final,
        "transfers": [_sentence(t.payer, t.payee, t.cents, money) for t in settled.transfers],
        "suit_names": SUIT_NAMES,
        "chart_uri": "data:image/svg+xml;base64," + base64.b64encode(chart.encode()).decode(),
        "printed": printed_now(),
    }


@dataclass
class Row:
    """A line of the hand table: `kind` is hand, void, refill or end (a note for the last
    two); `cells` maps a column key to its (style, text)."""

    kind: str
    cells: dict[str, Cell]


def _rows(
    records: list[HandRecord],
    game: Game,
    players: list[str],
    has_pot: bool,
    stake: int,
    amount: Any,
    start: Standing,
    standings: dict[int, Standing],
    seated_at: Any,
) -> tuple[list[Row], list[Standing]]:
    """A row per hand, refill and round end; for each, the balances and the pot after it,
    read from the ledger's `standings` (a refill is the standing after its hand less the
    hand's own net)."""
    width = len(str(max((r.number for r in records), default=0)))
    rows: list[Row] = []
    after: list[Standing] = []
    standing = start

    def add(row: Row) -> None:
        rows.append(row)
        after.append(standing)

    for record in records:
        facts = record.facts
        number = str(record.number).rjust(width, FIGURE_SPACE)
        style = "s" if record.voided else ""
        cells: dict[str, Cell] = {
            "nr": (style, number + ("*" if record.version > 1 and not record.voided else "")),
            "dealer": (style, record.dealer),
            "declarer": (style, facts.get("declarer", "")),
            "contract": (style, _contract_text(game, facts, record.factor)),
            "trump": ("suit", facts["trump"]) if facts.get("trump") in SUIT_NAMES else ("", ""),
            "bid": (style, _bid_text(facts.get("bid"))),
            "points": (style, "–" if facts.get("points") is None else str(facts["points"])),
        }
        if record.voided or record.net is None:
            cells["result"] = ("", "gestrichen")
            add(Row("void", cells))
            continue
        net = record.net
        balances, pot = standings[record.number]
        if record.new_round and has_pot:
            standing = (
                {p: balances.get(p, 0) - net.get(p, 0) for p in players},
                pot - net.get(POT, 0),
            )
            refill = f"Runde {record.round}: alle zahlen {format_euros(stake)} ins Haferl"
            pot_text = _cents(standing[1], signed=False, zero=True)
            add(_note("refill", refill, players, amount(-stake), pot_text))
        standing = (balances, pot)
        cells["result"] = ("", RESULT_WORDS.get(record.result or "", record.result or ""))
        seated = seated_at(record.number)
        for n, p in enumerate(players):
            if p not in seated:
                cells[f"p{n}"] = ("", "–")
            else:
                cells[f"p{n}"] = ("", "aus" if p == record.sitting_out else amount(net.get(p, 0)))
        cells["pot"] = ("", _cents(pot, signed=False, zero=True))
        add(Row("hand", cells))
        if record.round_end and has_pot:
            short = pot_short(record.explanation)
            end = f"Haferl leer: Runde {record.round} zu Ende"
            add(_note("end", f"{end} ({short})" if short else end, players))
    if not records:
        add(_note("end", "Noch kein Spiel eingetragen.", players))
    return rows, after


def _note(kind: str, text: str, players: list[str], each: str = "", pot: str = "") -> Row:
    """A line between hands; `each` is what every player pays (a refill of the pot)."""
    cells: dict[str, Cell] = {"nr": ("i", text), "pot": ("", pot)}
    cells.update({f"p{n}": ("", each) for n in range(len(players))})
    return Row(kind, cells)


def _chunks(
    rows: list[Row],
    after: list[Standing],
    columns: list[Column],
    players: list[str],
    has_pot: bool,
    stake: int,
    amount: Any,
    start: Standing,
    first: int,
    others: int,
) -> list[Chunk]:
    """The rows cut into pages: `first` rows on page one, `others` on each page after."""

    def cut(begin: int, size: int) -> int:
        # A round's end stays with the hand that emptied the pot, a refill with the hand
        # it opens: neither starts or ends a page on its own.
        end = min(begin + size, len(rows))
        while (
            end < len(rows)
            and end - begin > 2
            and (rows[end].kind == "end" or rows[end - 1].kind == "refill")
        ):
            end -= 1
        return end

    bounds = [(0, cut(0, first))]
    while bounds[-1][1] < len(rows):
        begin = bounds[-1][1]
        bounds.append((begin, cut(begin, others)))

    def sums(balances: Standing) -> list[str]:
        cells = [amount(balances[0].get(p, 0), zero=True) for p in players]
        return cells + ([_cents(balances[1], signed=False, zero=True)] if has_pot else [])

    def last_hand(upto: int) -> str:
        number = next((r.cells["nr"][1] for r in reversed(rows[:upto]) if r.kind == "hand"), "")
        return number.strip(FIGURE_SPACE + "*")

    chunks = []
    for n, (begin, end) in enumerate(bounds):
        last = n == len(bounds) - 1
        if begin:
            carry_label = f"Übertrag nach Spiel {last_hand(begin)}"
        elif has_pot:
            carry_label = f"Runde 1: alle zahlen {format_euros(stake)} ins Haferl"
        else:
            carry_label = ""
        through = last_hand(end)
        chunks.append(
            Chunk(
                carry_label=carry_label,
                carry=sums(after[begin - 1] if begin else start) if carry_label else None,
                lines=[[r.cells.get(c.key, ("", "")) for r in rows[begin:end]] for c in columns],
                total_label=("Summe" if last else "Zwischensumme")
                + (f" nach Spiel {through}" if through else ""),
                total=sums(after[end - 1] if end else start),
                last=last,
            )
        )
    return chunks


def _contract_text(game: Game, facts: dict[str, Any], factor: int) -> str:
    parts = [game.contract_label(facts)]
    if facts.get("all_tricks"):
        parts.append("Durch" if game.trumps else "alle Stiche")
    if facts.get("no_tricks") and facts.get("contract") != "bettel":
        parts.append("keinen Stich")
    doublings = facts.get("doublings") or 0
    if 0 < doublings < len(DOUBLINGS):
        parts.append(DOUBLINGS[doublings])
    if factor > 1:
        parts.append(f"×{factor}")
    return " ".join(parts)


def _bid_text(bid: Any) -> str:
    if bid == "durch":
        return "Durch"
    return str(bid) if isinstance(bid, int) and bid > 61 else ""


def _cents(cents: int, signed: bool = True, zero: bool = False) -> str:
    """An amount in the hand table: without the euro sign (the sheet says 'Beträge in €');
    a dash for nothing, unless `zero` asks for '0,00'."""
    if cents == 0 and not zero:
        return "–"
    return format_euros(cents, signed=signed).removesuffix(" €")


def _points(value: int, signed: bool = True, zero: bool = False) -> str:
    if value == 0 and not zero:
        return "–"
    return _points_text(value, signed).removesuffix(" P")


def _points_text(value: int, signed: bool = False) -> str:
    sign = "−" if value < 0 else "+" if signed and value > 0 else ""
    return f"{sign}{abs(value)} P"


def _sentence(payer: str, payee: str, cents: int, money: Any) -> str:
    """'Berta zahlt Anton 1,20 €'."""
    if payee == POT:
        return f"{payer} zahlt {money(cents)} ins Haferl"
    if payer == POT:
        return f"Aus dem Haferl bekommt {payee} {money(cents)}"
    return f"{payer} zahlt {payee} {money(cents)}"


def printed_now() -> str:
    """The moment a sheet is printed, on the table's clock."""
    return local_time(datetime.now(UTC).replace(tzinfo=None)).strftime("%d.%m.%Y %H:%M")


def local_time(moment: datetime) -> datetime:
    """A stored UTC time on the table's clock."""
    try:
        zone = ZoneInfo(TIMEZONE)
    except ZoneInfoNotFoundError:  # pragma: no cover  (no time zone database)
        return moment
    return moment.replace(tzinfo=UTC).astimezone(zone)
