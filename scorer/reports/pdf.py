"""The printable score sheet of an evening: a PDF made with WeasyPrint.

`render_pdf` renders `templates/exports/sheet.html` at the web layer's `Desk` (a Jinja
environment of its own: no Flask) and styles it with `static/print.css`. Nothing is
fetched from the network: the fetcher serves files below `static/` and `data:` URIs only.

**The reader's language.** A sheet is written in German or English (the web layer chooses:
`scorer.i18n.reader.file_language`): the HTML is rendered here, in the request, with
`speaking`, and the child process that lays out the PDF only sees that HTML. The
cached file's name carries the language, so a German and an English sheet of the same
table are two files.

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
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape
from sqlalchemy import Row as DbRow

from scorer.domain import GAMES, SYSTEMS
from scorer.domain.model import POT
from scorer.domain.params import fingerprint
from scorer.domain.registry import Game
from scorer.i18n import words
from scorer.i18n.catalogue import pot_short, say
from scorer.i18n.formats import SHEET_LOCALE, euros, points_text, sheet_amount, sheet_points
from scorer.i18n.words import gettext as _
from scorer.i18n.words import lazy_gettext as _l
from scorer.i18n.words import speaking
from scorer.reports.chart import balance_chart_svg, balance_series
from scorer.reports.desk import Desk
from scorer.reports.paper import (
    Clock,
    page_footer_css,
    rules_lines,
)
from scorer.reports.printing import printed
from scorer.reports.weasy import write_pdf
from scorer.services import table_reads
from scorer.services.table_reads import Standing
from scorer.store.models import TableSession

RESULT_WORDS = {"won": _l("won"), "lost": _l("lost"), "draw": _l("draw")}
SUIT_NAMES = {
    "eichel": _l("Acorns"),
    "gras": _l("Leaves"),
    "herz": _l("Hearts"),
    "schellen": _l("Bells"),
}
"""Card terms: the same words in English."""
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

    def columns_html(self, suit_names: dict[str, str]) -> list[Markup]:
        """Each column's cell: its lines as HTML, one a line. Written here rather than in
        the template: a 2,000-hand sheet has 25,000 of them, and a template macro a line
        took as long as everything else the server does for a sheet."""
        return [
            Markup("\n").join(_line_html(cell, suit_names) for cell in column)
            for column in self.lines
        ]


def _line_html(cell: Cell, suit_names: dict[str, str]) -> Markup:
    style, text = cell
    if style == "s" and text:
        return Markup("<s>%s</s>") % text
    if style == "i":
        return Markup("<i>%s</i>") % text
    if style == "suit":
        return Markup('<img class="suit" src="suits/%s.svg" alt="">%s') % (text, suit_names[text])
    return escape(text)


def score_sheet(session: TableSession, lang: str, desk: Desk) -> bytes:
    """The score sheet of `session` in `lang`, printed once per version of the table and
    language (`scorer.reports.printing`: `<key>-<version>-<language>.pdf`)."""
    return printed(
        desk,
        session.key,
        str(session.version),
        lang=lang,
        html=lambda: sheet_html(session, lang, desk),
        stylesheet="print.css",
    )


def render_pdf(session: TableSession, lang: str, desk: Desk) -> bytes:
    """The score sheet of `session` as PDF bytes, in `lang`, rendered now (no cache). The
    HTML is rendered here; the child only lays it out."""
    return write_pdf(sheet_html(session, lang, desk), desk.static, "print.css")


def sheet_html(session: TableSession, lang: str, desk: Desk) -> str:
    """The score sheet's HTML, in `lang`."""
    with speaking(lang):
        return desk.render("exports/sheet.html", **_sheet_context(session, desk.clock))


def sheet_context(session: TableSession, lang: str, clock: Clock) -> dict[str, Any]:
    """Everything the template shows, as strings and lists, in `lang`."""
    with speaking(lang):
        return _sheet_context(session, clock)


def _sheet_context(session: TableSession, clock: Clock) -> dict[str, Any]:
    game, system = GAMES[session.game], SYSTEMS[session.system]
    ledger = table_reads.ledger_for(session)
    has_pot = ledger.has_pot
    points = session.points_only
    players = list(ledger.everyone)
    records = table_reads.hand_rows(session, table_reads.SHEET_COLUMNS, include_voided=True)
    params = rules_lines(game, system, session.params, points=points, has_pot=has_pot)
    # The parameters and the rules mark, three to a line.
    header_height = HEADER_BASE + PARAM_LINE * math.ceil((len(params) + 1) / PARAM_COLUMNS)
    columns = _columns(game, system, players, has_pot=has_pot)
    start, standings = table_reads.standings(session, records)
    sheet = _Sheet(
        game=game,
        players=players,
        has_pot=has_pot,
        stake=int(session.params.get("stake_cents") or 0) if has_pot else 0,
        amount=sheet_points if points else sheet_amount,
        start=start,
        standings=standings,
        seated_at=ledger.seated_at,
    )
    chunks = _pages(records, columns, sheet, header_height=header_height)
    money = points_text if points else euros
    settled = table_reads.settlement(session)  # at a tournament table: points, no transfers
    final = _final_lines(players, session.state["balances"], settled.balances, money=money)
    chart = _chart(sheet, points)
    closed = session.closed_at
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
        "date": clock.long_date(session.created_at),
        "time": clock.time(session.created_at) + (f"–{clock.time(closed)}" if closed else ""),
        "closed": closed is not None,
        "params": params,
        "fingerprint": fingerprint(session.game, session.system, session.params),
        "header_height": header_height,
        "chunks": chunks,
        "live_hands": live,
        "voided_hands": len(records) - live,
        "edited_hands": any(r.version > 1 and not r.voided for r in records),
        "show_share": has_pot and any(f["share"] != money(0, signed=True) for f in final),
        "pot_left": money(session.state["pot"]) if has_pot and session.state["pot"] else "",
        "kept_pot": money(settled.balances[POT]) if POT in settled.balances else "",
        "final": final,
        "transfers": [_sentence(t.payer, t.payee, t.cents, money=money) for t in settled.transfers],
        "suit_names": {suit: str(name) for suit, name in SUIT_NAMES.items()},
        "chart_uri": "data:image/svg+xml;base64," + base64.b64encode(chart.encode()).decode(),
        "printed": clock.printed_now(),
        "page_footer": page_footer_css(),
    }


def _columns(game: Game, system: Any, players: list[str], *, has_pot: bool) -> list[Column]:
    """The hand table's columns: what a hand was, then a column per player and the pot."""
    return [
        Column("nr", _("No."), "nr"),
        Column("dealer", _("deals"), "who"),
        Column("declarer", _("Declarer"), "who"),
        Column("contract", _("Contract"), "contract"),
        *([Column("trump", _("Trump"), "trump")] if game.trumps else []),
        *([Column("bid", _("Bid"), "bid num")] if game.bids else []),
        Column("points", _("Card points"), "points num"),
        Column("result", _("Result"), "result"),
        *(Column(f"p{n}", p, "money num") for n, p in enumerate(players)),
        *([Column("pot", say(system.pot_name), "money num pot")] if has_pot else []),
    ]


def _pages(
    records: list[DbRow], columns: list[Column], sheet: _Sheet, *, header_height: int
) -> list[Chunk]:
    """The hand table's rows, cut into pages: the first page has the header above it."""
    per_page = (PAGE_CONTENT - HEAD - 2 * SUM_ROW - SLACK) // LINE
    first_page = (PAGE_CONTENT - header_height - HEAD - 2 * SUM_ROW - SLACK) // LINE
    token = SHEET_LOCALE.set(words.current().locale)
    try:
        rows, after = _rows(records, sheet)
    finally:
        SHEET_LOCALE.reset(token)
    return _chunks(rows, after, columns, sheet=sheet, first=first_page, others=per_page)


def _final_lines(
    players: list[str], balances: dict[str, int], settled: dict[str, int], *, money: Any
) -> list[dict[str, str]]:
    """Each player's balance by the ledger, his share of what the pot kept, and the two
    together: what the settle-up pays."""
    return [
        {
            "name": p,
            "ledger": money(balances.get(p, 0), signed=True),
            "share": money(settled[p] - balances.get(p, 0), signed=True),
            "final": money(settled[p], signed=True),
        }
        for p in players
    ]


def _chart(sheet: _Sheet, points: bool) -> str:
    """The balance chart (SVG) of the sheet's standings, in the reader's words."""
    seated_at, standings = sheet.seated_at, sheet.standings
    names, series = balance_series(
        sheet.players,
        [sheet.start[0], *(balances for balances, _ in standings.values())],
        [seated_at(1), *(seated_at(number) for number in standings)],
    )
    return balance_chart_svg(
        names,
        series,
        points=points,
        numbers=[0, *standings],
        axis=_("Hand no."),
        label=_("Balances over time"),
        value_text=points_text if points else euros,
    )


@dataclass
class Row:
    """A line of the hand table: `kind` is hand, void, extras (what else the hand above
    was), refill or end (a note for the last three); `cells` maps a column key to its
    (style, text)."""

    kind: str
    cells: dict[str, Cell]


@dataclass(frozen=True)
class _Sheet:
    """What every row and page of a score sheet reads: the game, who played, the pot's
    stake (0 without a pot), how an amount is written (`amount`: euros or points), the
    ledger's standings before the first hand (`start`) and after each, and who sat at
    the table at each hand (`seated_at`)."""

    game: Game
    players: list[str]
    has_pot: bool
    stake: int
    amount: Any
    start: Standing
    standings: dict[int, Standing]
    seated_at: Any


def _rows(records: list[DbRow], sheet: _Sheet) -> tuple[list[Row], list[Standing]]:
    """A row per hand, refill and round end; for each, the balances and the pot after it,
    read from the ledger's `standings` (a refill is the standing after its hand less the
    hand's own net)."""
    players, has_pot, amount = sheet.players, sheet.has_pot, sheet.amount
    width = len(str(max((r.number for r in records), default=0)))
    results = {k: str(v) for k, v in RESULT_WORDS.items()}  # said once, not once a hand
    out = _("out")
    rows: list[Row] = []
    after: list[Standing] = []
    standing = sheet.start

    def add(row: Row) -> None:
        rows.append(row)
        after.append(standing)

    for record in records:
        cells, extras = _hand_cells(record, sheet.game, width)
        if record.voided or record.net is None:
            cells["result"] = ("", _("struck out"))
            add(Row("void", cells))
            continue
        net = record.net
        balances, pot = sheet.standings[record.number]
        if record.new_round and has_pot:
            standing = (
                {p: balances.get(p, 0) - net.get(p, 0) for p in players},
                pot - net.get(POT, 0),
            )
            add(_refill(record, sheet, standing[1]))
        standing = (balances, pot)
        cells["result"] = ("", results.get(record.result or "", record.result or ""))
        seated = sheet.seated_at(record.number)
        for n, p in enumerate(players):
            if p not in seated:
                cells[f"p{n}"] = ("", "–")
            else:
                cells[f"p{n}"] = ("", out if p == record.sitting_out else amount(net.get(p, 0)))
        cells["pot"] = ("", sheet_amount(pot, signed=False, zero=True))
        add(Row("hand", cells))
        if extras:
            add(_note("extras", f"{FIGURE_SPACE * (width + 1)}{extras}", []))
        if record.round_end and has_pot:
            add(_round_end(record, players))
    if not records:
        add(_note("end", _("No hand entered yet."), players))
    return rows, after


def _hand_cells(record: DbRow, game: Game, width: int) -> tuple[dict[str, Cell], str]:
    """What a hand was (its number, dealer, declarer, contract, trump, bid and card
    points), struck through when voided; and its extras when they do not fit beside the
    contract (a line of their own below it)."""
    facts = record.facts
    number = str(record.number).rjust(width, FIGURE_SPACE)
    contract, extras = _contract_text(game, facts), _extras_text(game, facts, record.factor)
    if extras and len(contract) + 1 + len(extras) <= CONTRACT_FITS:
        contract, extras = f"{contract} {extras}", ""
    style = "s" if record.voided else ""
    cells: dict[str, Cell] = {
        "nr": (style, number + ("*" if record.version > 1 and not record.voided else "")),
        "dealer": (style, record.dealer),
        "declarer": (style, facts.get("declarer", "")),
        "contract": (style, contract),
        "trump": ("suit", facts["trump"]) if facts.get("trump") in SUIT_NAMES else ("", ""),
        "bid": (style, _bid_text(facts.get("bid"))),
        "points": (style, "–" if facts.get("points") is None else str(facts["points"])),
    }
    return cells, extras


def _refill(record: DbRow, sheet: _Sheet, pot: int) -> Row:
    """The line before a hand that opens a round: everyone at the table then pays the
    stake, and the pot holds `pot`."""
    refill = _(
        "Round %(round)s: everyone pays %(stake)s into the Haferl",
        round=record.round,
        stake=euros(sheet.stake),
    )
    pot_text = sheet_amount(pot, signed=False, zero=True)
    paying = sheet.seated_at(record.number)
    return _note(
        "refill",
        refill,
        sheet.players,
        each=sheet.amount(-sheet.stake),
        pot=pot_text,
        paying=paying,
    )


def _round_end(record: DbRow, players: list[str]) -> Row:
    """The line after the hand that emptied the pot, with how it was emptied."""
    short = pot_short(record.round_end_explanation)
    if short:
        end = _(
            "Haferl empty: round %(round)s over (%(short)s)",
            round=record.round,
            short=short,
        )
    else:
        end = _("Haferl empty: round %(round)s over", round=record.round)
    return _note("end", end, players)


def _note(
    kind: str,
    text: str,
    players: list[str],
    *,
    each: str = "",
    pot: str = "",
    paying: Collection[str] = (),
) -> Row:
    """A line between hands; `each` is what every player of `paying` pays (a refill of the
    pot: who sits at the table then, not who came later or left)."""
    cells: dict[str, Cell] = {"nr": ("i", text), "pot": ("", pot)}
    cells.update({f"p{n}": ("", each if p in paying else "") for n, p in enumerate(players)})
    return Row(kind, cells)


def _page_bounds(rows: list[Row], first: int, others: int) -> list[tuple[int, int]]:
    """Where each page begins and ends: `first` rows on page one, `others` on each page
    after. A round's end stays with the hand that emptied the pot, a refill with the hand
    it opens, a hand's extras with the hand: none starts or ends a page on its own."""

    def cut(begin: int, size: int) -> int:
        end = min(begin + size, len(rows))
        while (
            end < len(rows)
            and end - begin > 2
            and (rows[end].kind in ("end", "extras") or rows[end - 1].kind == "refill")
        ):
            end -= 1
        return end

    bounds = [(0, cut(0, first))]
    while bounds[-1][1] < len(rows):
        begin = bounds[-1][1]
        bounds.append((begin, cut(begin, others)))
    return bounds


def _chunks(
    rows: list[Row],
    after: list[Standing],
    columns: list[Column],
    *,
    sheet: _Sheet,
    first: int,
    others: int,
) -> list[Chunk]:
    """The rows cut into pages: `first` rows on page one, `others` on each page after."""
    players, has_pot, amount, start = sheet.players, sheet.has_pot, sheet.amount, sheet.start
    bounds = _page_bounds(rows, first, others)

    def sums(balances: Standing) -> list[str]:
        # A player who comes later has no balance yet: a dash, not 0,00.
        cells = [amount(balances[0][p], zero=True) if p in balances[0] else "–" for p in players]
        return cells + ([sheet_amount(balances[1], signed=False, zero=True)] if has_pot else [])

    def last_hand(upto: int) -> str:
        number = next((r.cells["nr"][1] for r in reversed(rows[:upto]) if r.kind == "hand"), "")
        return number.strip(FIGURE_SPACE + "*")

    chunks = []
    for n, (begin, end) in enumerate(bounds):
        last = n == len(bounds) - 1
        if begin:
            carry_label = _("Carried over after hand %(number)s", number=last_hand(begin))
        elif has_pot:
            carry_label = _(
                "Round %(round)s: everyone pays %(stake)s into the Haferl",
                round=1,
                stake=euros(sheet.stake),
            )
        else:
            carry_label = ""
        chunks.append(
            Chunk(
                carry_label=carry_label,
                carry=sums(after[begin - 1] if begin else start) if carry_label else None,
                lines=[[r.cells.get(c.key, ("", "")) for r in rows[begin:end]] for c in columns],
                total_label=_total_label(last, last_hand(end)),
                total=sums(after[end - 1] if end else start),
                last=last,
            )
        )
    return chunks


def _total_label(last: bool, through: str) -> str:
    """'Summe nach Spiel 40' under the last page, 'Zwischensumme …' under the others."""
    if last:
        return _("Total after hand %(number)s", number=through) if through else _("Total")
    if through:
        return _("Subtotal after hand %(number)s", number=through)
    return _("Subtotal")


CONTRACT_FITS = 12
"""Characters the contract's cell shows whole (64pt of 8pt DejaVu Sans, "Frage Kontra"):
extras that fit stay on the hand's line, longer ones get a line of their own."""


def _contract_text(game: Game, facts: dict[str, Any]) -> str:
    """The contract's word alone: the bid has its column, the rest its own line."""
    return _said_word(game.id, facts["contract"], facts.get("trump"), locale=words.current().locale)


@lru_cache(maxsize=256)
def _said_word(game_id: str, contract: str, trump: str | None, *, locale: str) -> str:
    # A sheet names the same few contracts hundreds of times: each is said once a locale.
    return say(GAMES[game_id].contract_word({"contract": contract, "trump": trump}))


def _extras_text(game: Game, facts: dict[str, Any], factor: int) -> str:
    """What else the hand was (`Game.extras`, and the table's factor), on a line of its
    own under the hand: the contract's cell holds one word, this line the whole width."""
    parts = [say(extra) for extra in game.extras(facts)]
    if factor > 1:
        parts.append(f"×{factor}")
    return " · ".join(parts)


def _bid_text(bid: Any) -> str:
    if bid == "durch":
        return "Durch"
    return str(bid) if isinstance(bid, int) and bid > 61 else ""


def _sentence(payer: str, payee: str, cents: int, *, money: Any) -> str:
    """'Berta zahlt Anton 1,20 €'."""
    if payee == POT:
        return _("%(payer)s pays %(amount)s into the Haferl", payer=payer, amount=money(cents))
    if payer == POT:
        return _("%(payee)s gets %(amount)s from the Haferl", payee=payee, amount=money(cents))
    return _("%(payer)s pays %(payee)s %(amount)s", payer=payer, payee=payee, amount=money(cents))
