"""The PDF score sheet and its balance chart: built through `scorer.services.tables`, read back
with pypdf."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from scorer.domain import Hand, commands
from scorer.domain.commands import EditHand, RecordHand, VoidHand
from scorer.domain.scoring import BIDS, SUITS
from scorer.reports.chart import MAX_POINTS, balance_chart_svg, balance_series
from scorer.reports.paper import Clock
from scorer.reports.pdf import render_pdf, sheet_context
from scorer.reports.renderer import StaticFetcher
from scorer.services import table_reads, tables
from scorer.store.database import db
from tests.support.languages import german_euros
from tests.support.pdfs import pdf_pages, pdf_text

SVG = "{http://www.w3.org/2000/svg}"
BAER = "<b>Bär & Co</b>"
FOUR = ["Anton", BAER, "Charlotte", "Dieter"]


def play(session, rng: random.Random, hands: int, contracts=("frage", "hand")) -> None:
    """`hands` random but legal hands; at a table of four the dealer sits out."""
    game_bids = session.game == "haferltarock"
    for _ in range(hands):
        dealer = session.state["next_dealer"]
        seated = [p for p in session.players if p != dealer] if len(session.players) == 4 else None
        contract = rng.choice(contracts)
        hand = Hand(
            declarer=rng.choice(seated or session.players),
            contract=contract,
            trump=None if contract == "bettel" else rng.choice(SUITS),
            bid=rng.choice(BIDS[:5]) if game_bids and contract == "hand" else 61,
            points=None if contract == "bettel" else rng.randint(30, 110),
            no_tricks=contract == "bettel" and rng.random() < 0.5,
            doublings=rng.choice((0, 0, 0, 1)),
        )
        tables.record_hand(session, RecordHand(hand))


def evening(players=FOUR, hands=40, game="haferltarock", system="parlett-units", **params):
    session = tables.create_session(
        commands.open_table(
            name="Stammtisch <Zum Haferl>",
            game=game,
            system=system,
            params=params,
            players=list(players),
            first_dealer=players[0],
        )
    )
    play(session, random.Random(hands), hands)
    db.session.commit()
    return session


def hand_numbers(text: str) -> set[int]:
    """Numbers standing alone on a line, as those of the number column do (right-aligned
    with figure spaces, '*' after an edited hand). Card points and chart ticks do too, so
    this only shows that a number is there."""
    return {int(m) for m in re.findall(r"^[\u2007 ]*(\d+)\*?$", text, re.M)}


def test_sheet_of_an_evening_with_a_round_end_an_edit_and_a_void(app):
    with app.app_context():
        # A small stake so that a won Frage can empty the Haferl: round ends and refills.
        session = evening(stake_cents=20)
        records = table_reads.hands_of(session)
        assert any(r.round_end for r in records) and any(r.new_round for r in records)
        edited = records[5]
        edited_number = edited.number
        tables.edit_hand(
            session,
            EditHand(
                edited_number,
                edited.version,
                Hand(edited.facts["declarer"], "frage", "herz", points=95),
            ),
        )
        voided = records[12]
        tables.void_hand(session, VoidHand(voided.number, voided.version))
        db.session.commit()

        pdf = render_pdf(session, "de", app.extensions["desk"])
        pages = pdf_pages(pdf)
        text = "\n".join(pages)
        settled = table_reads.settlement(session)

    assert pdf.startswith(b"%PDF")
    assert f"Seite 1 von {len(pages)}" in text
    for name in FOUR:
        assert name in text
    assert "Stammtisch <Zum Haferl>" in text
    assert hand_numbers(text) >= set(range(1, 41))
    assert re.search(rf"^[\u2007 ]*{edited_number}\*$", text, re.M), "an edited hand is marked"
    assert "gestrichen" in text
    assert "Haferl leer: Runde 1 zu Ende" in text
    assert "Runde 2: alle zahlen 0,20 € ins Haferl" in text
    assert settled.transfers
    flat = " ".join(text.split())
    for t in settled.transfers:
        assert f"{t.payer} zahlt {t.payee} {german_euros(t.cents)}" in flat
    for name, cents in settled.balances.items():
        assert f"{name} " in flat and german_euros(cents, signed=True) in flat


def test_every_page_carries_the_running_total_to_the_next(app):
    with app.app_context():
        session = evening(hands=130)
        pages = pdf_pages(render_pdf(session, "de", app.extensions["desk"]))
        text = "\n".join(pages)
        state = session.state

    # Each page of hands is one table that closes with a subtotal, and the next page opens
    # with it: a table that overflowed its page would leave a page without either.
    subtotals = [re.search(r"Zwischensumme nach Spiel (\d+) (.*)", page) for page in pages]
    carries = [re.search(r"Übertrag nach Spiel (\d+) (.*)", page) for page in pages]
    closed = [n for n, found in enumerate(subtotals) if found]
    assert len(closed) >= 2
    assert closed == list(range(len(closed)))
    assert [n for n, found in enumerate(carries) if found] == [n + 1 for n in closed]
    for n in closed:
        assert carries[n + 1].groups() == subtotals[n].groups()
    assert "Summe nach Spiel 130" in pages[len(closed)]
    total = re.search(r"Summe nach Spiel 130 (.*)", text).group(1).split()
    expected = [german_euros(state["balances"][p], signed=True)[:-2] for p in FOUR]
    assert total == [*expected, german_euros(state["pot"])[:-2]]
    assert set(range(1, 131)) <= hand_numbers(text)


def test_three_players_and_a_pocket_system_render(app):
    with app.app_context():
        three = evening(["Anton", "Berta", "Charlotte"], hands=12)
        pocket = tables.create_session(
            commands.open_table(
                name="Ohne Haferl",
                game="tarok-bettel",
                system="multiples",
                params={"payout": "pocket"},
                players=FOUR,
                first_dealer="Dieter",
            )
        )
        play(pocket, random.Random(3), 15, contracts=("frage", "hand", "bettel"))
        db.session.commit()
        desk = app.extensions["desk"]
        texts = [pdf_text(render_pdf(s, "de", desk)) for s in (three, pocket)]

    assert all("Seite 1 von 1" in t for t in texts)
    assert "Charlotte" in texts[0] and "Haferl leer" not in texts[1]
    assert "Anteil Haferl" not in texts[1] and "stake_cents" not in texts[1]
    assert "Gewinne zahlt: die Spieler untereinander" in texts[1]  # in players' words
    assert set(range(1, 16)) <= hand_numbers(texts[1])


def test_a_tournament_table_shows_points_and_no_transfers(app):
    with app.app_context():
        session = tables.create_session(
            commands.open_table(
                name="Turnier, Tisch 2",
                game="haferltarock",
                system="parlett-units",
                params={},
                players=FOUR,
                first_dealer="Anton",
                scoring="points",
            )
        )
        play(session, random.Random(5), 20)
        db.session.commit()
        text = pdf_text(render_pdf(session, "de", app.extensions["desk"]))
        balances = session.state["balances"]
    assert "Punkte" in text and "€" not in text and "zahlt" not in text
    for name in FOUR:
        cents = balances[name]
        assert f"{'−' if cents < 0 else '+' if cents else ''}{abs(cents)} P" in text


def test_an_empty_evening_renders(app):
    with app.app_context():
        session = evening(hands=0)
        pages = pdf_pages(render_pdf(session, "de", app.extensions["desk"]))
        text = "\n".join(pages)
    assert len(pages) == 1
    assert "Noch kein Spiel eingetragen." in text and "Niemand muss zahlen." in text


def test_balance_series_starts_before_the_first_stake_and_ends_at_the_balances(app):
    with app.app_context():
        session = evening(hands=40, stake_cents=20)
        start, after = table_reads.standings(session, table_reads.hands_of(session, True))
        players, series = balance_series(
            session.players, [start[0], *(balances for balances, _ in after.values())]
        )
    assert players == FOUR
    for p in FOUR:
        assert series[p][0] == -20
        assert series[p][-1] == session.state["balances"][p]
        assert len(series[p]) == 41


def test_standings_are_the_ledgers_cached_or_folded_afresh(app):
    """The exports read the ledger's state after each hand; hands stored before that cache
    existed are folded again, to the same numbers."""
    with app.app_context():
        session = evening(hands=30, stake_cents=20)
        records = table_reads.hands_of(session, True)
        tables.void_hand(session, VoidHand(7, records[6].version))
        db.session.commit()
        records = table_reads.hands_of(session, True)
        cached = table_reads.standings(session, records)
        entries, state = table_reads.fold_session(session)
        assert cached[1] == {e.number: (e.balances_after, e.pot_after) for e in entries}
        for record in records:
            record.state_after = None
        assert table_reads.standings(session, records) == cached
        assert cached[1][30] == (state.balances, state.pot)
        db.session.rollback()


@pytest.mark.parametrize("hands", [0, 1, 1000])
def test_chart_is_valid_svg_and_escapes_names(hands):
    rng = random.Random(hands)
    series = {p: [0] for p in FOUR}
    for _ in range(hands):
        for p in FOUR:
            series[p].append(series[p][-1] + rng.randint(-90, 90))

    svg = balance_chart_svg(FOUR, series)

    root = ET.fromstring(svg)
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert BAER in texts
    assert "&lt;b&gt;Bär &amp; Co&lt;/b&gt;" in svg and "<b>" not in svg
    assert "0,00 €" in texts
    lines = list(root.iter(f"{SVG}polyline"))
    for line in lines:
        assert len(line.get("points").split()) <= MAX_POINTS
    assert len(lines) == (len(FOUR) if hands else 0)
    assert len(svg) < 80_000


def test_chart_thinning_keeps_the_extremes():
    values = [0] * 5000
    values[1234], values[4321] = 100_000, -100_000
    svg = balance_chart_svg(["Anton"], {"Anton": values})
    assert "1.000,00 €" in svg and "−1.000,00 €" in svg
    points = ET.fromstring(svg).find(f"{SVG}polyline").get("points").split()
    ys = [float(p.split(",")[1]) for p in points]
    top, bottom = min(ys), max(ys)
    assert top < 20 and bottom > 250, "the peak and the trough are both drawn"


def test_the_sheet_fetches_only_static_files(tmp_path):
    static = tmp_path / "static"
    static.mkdir()
    (static / "a.css").write_text("p {}")
    (tmp_path / "secret.txt").write_text("no")
    fetcher = StaticFetcher(static.resolve())
    assert fetcher.fetch((static / "a.css").as_uri()).read() == b"p {}"
    assert fetcher.fetch("data:text/plain,hallo").read() == b"hallo"
    for url in (
        "https://example.com/font.ttf",
        "http://localhost/x",
        "ftp://example.com/x",
        (tmp_path / "secret.txt").as_uri(),
        (static / ".." / "secret.txt").as_uri(),
        Path("/etc/passwd").as_uri(),
    ):
        with pytest.raises(ValueError):
            fetcher.fetch(url)


def test_the_sheet_is_rendered_once_per_version_of_the_table(app, client):
    with app.app_context():
        key = evening(hands=6).key
    url = f"/api/v1/sessions/{key}/export.pdf"
    cache = Path(app.config["PDF_CACHE"])
    first = client.get(url)
    assert first.status_code == 200 and first.data.startswith(b"%PDF")
    [cached] = cache.glob(f"{key}-*.pdf")
    assert cached.read_bytes() == first.data
    cached.write_bytes(b"%PDF-1.7 from the cache")
    assert client.get(url).data == b"%PDF-1.7 from the cache"

    hand = {"declarer": "Anton", "contract": "frage", "points": 70}
    assert client.post(f"/api/v1/sessions/{key}/hands", json=hand).status_code == 201
    fresh = client.get(url)
    assert fresh.data.startswith(b"%PDF") and fresh.data != b"%PDF-1.7 from the cache"
    assert [p.name for p in cache.glob(f"{key}-*.pdf")] != [cached.name]
    assert len(list(cache.glob(f"{key}-*.pdf"))) == 1


def test_a_sheet_that_cannot_start_in_time_answers_503(app, client, monkeypatch):
    from scorer.reports import weasy

    with app.app_context():
        key = evening(hands=3).key
    monkeypatch.setattr(weasy, "WAIT", 0.05)
    assert weasy._slots.acquire(timeout=1)  # another sheet is being printed
    try:
        busy = client.get(f"/api/v1/sessions/{key}/export.pdf", headers={"Accept-Language": "en"})
    finally:
        weasy._slots.release()
    assert busy.status_code == 503
    assert busy.headers["Retry-After"] == "5"
    assert "another report is being printed" in busy.get_json()["error"]["message"]
    assert client.get(f"/api/v1/sessions/{key}/export.pdf").status_code == 200


def test_a_sheet_that_takes_too_long_is_stopped(app, client, monkeypatch):
    from scorer.reports import weasy

    with app.app_context():
        key = evening(hands=40).key
    monkeypatch.setattr(weasy, "TIMEOUT", 0.01)
    assert client.get(f"/api/v1/sessions/{key}/export.pdf").status_code == 503


def test_the_sheets_pot_column_is_the_ledgers_pot_refills_included(app):
    """Every line of the pot column is what the ledger says the pot held: after a hand, its
    `pot_after`; after a refill, the pot before the hand plus every player's stake."""
    with app.app_context():
        session = evening(stake_cents=20)
        records = {r.number: r for r in table_reads.hands_of(session)}
        context = sheet_context(session, "de", Clock())
    keys = [c.key for c in context["columns"]]
    nr, pot = keys.index("nr"), keys.index("pot")
    lines = [
        (number, amount)
        for chunk in context["chunks"]
        for number, amount in zip(chunk.lines[nr], chunk.lines[pot], strict=True)
    ]

    def hand_number(text: str) -> int | None:
        text = text.strip("\u2007*")
        return int(text) if text.isdigit() else None

    numbers = [hand_number(text) for (_, text), _ in lines]
    refills = 0
    for at, ((_, text), (_, amount)) in enumerate(lines):
        if numbers[at] is not None:
            expected = records[numbers[at]].pot_after
        elif text.startswith("Runde"):
            refills += 1
            opened = records[next(n for n in numbers[at:] if n is not None)]
            expected = opened.pot_after - opened.net["pot"]
        else:
            continue
        assert amount == german_euros(expected, signed=False).removesuffix(" €"), text
    assert refills


def test_the_chart_axis_counts_hand_numbers_not_live_hands():
    """Hands 1, 2, 4, 5 live (3 struck out): the axis runs to 5, as the hand list does."""
    series = {"Anton": [0, 10, 20, 30, 40], "Berta": [0, -10, -20, -30, -40]}
    ticks = lambda svg: {  # noqa: E731
        int(t) for t in re.findall(r'text-anchor="middle">(\d+)</text>', svg)
    }
    assert max(ticks(balance_chart_svg(["Anton", "Berta"], series))) == 4
    numbered = balance_chart_svg(["Anton", "Berta"], series, numbers=[0, 1, 2, 4, 5])
    assert max(ticks(numbered)) == 5
    assert "Spiel Nr." in numbered
