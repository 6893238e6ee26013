"""The tournament's papers (standings, table assignments, blank score sheets) are printed
once per version and language, by the server's printer thread, never by the request
(`scorer.reports.printing`, `scorer.reports.tournament_pdf`): the standings are keyed on
`live_version`, a round's papers on its seating; a paper printed before is read from its
file; requests for one version at once share one print; a slow print answers 202 with a
page that reloads itself; a failed print is tried again by the next request.

Real WeasyPrint, a real database; `tests/test_printing.py` has more of the printer."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy import event

from scorer.reports import printing, weasy
from scorer.store.database import db
from tests.support.pdfs import files, pdf_text, until_printed
from tests.support.tournaments import (
    active_players,
    created,
    draw,
    log_in,
    organiser,
    post_hand,
    session_of,
)

NAMES = [f"Spieler {i}" for i in range(1, 9)]
ROUND_PAPERS = ("tische", "spielzettel")


def pdf(client, url: str, **headers):
    answer = client.get(url, headers=headers)
    assert answer.status_code == 200, (url, answer.status_code)
    assert answer.mimetype == "application/pdf" and answer.data.startswith(b"%PDF"), url
    return answer


def record_hand(client, round_one: dict, points: int = 83) -> None:
    key = round_one["tables"][0]["key"]
    declarer = active_players(session_of(client, key))[0]
    answer = post_hand(client, key, {"declarer": declarer, "contract": "frage", "points": points})
    assert answer.status_code == 201, answer.get_json()


def test_a_paper_printed_before_is_read_from_its_file(app, client, drawn_tournament, prints):
    tid, _, _ = drawn_tournament
    for paper in ("tabelle", *(f"runde/1/{p}" for p in ROUND_PAPERS)):
        url = f"/turniere/{tid}/{paper}.pdf"
        first = pdf(client, url)
        kept = files(app, "turnier-*.pdf")
        assert pdf(client, url).data == first.data
        assert files(app, "turnier-*.pdf") == kept, "not written again"
    assert [stylesheet for _, stylesheet in prints] == ["print-lists.css"] * 3
    # The printer printed them, not the request's thread.
    assert all(thread.startswith("printer") for thread, _ in prints), prints
    assert not list(Path(app.config["PDF_CACHE"]).glob("*.part"))


def test_a_hand_changes_the_standings_key_but_not_the_rounds_papers(
    app, client, drawn_tournament, prints
):
    tid, _, round_one = drawn_tournament
    for paper in ("tabelle", *(f"runde/1/{p}" for p in ROUND_PAPERS)):
        pdf(client, f"/turniere/{tid}/{paper}.pdf")
    [standings] = files(app, "turnier-*-tabelle-*-de.pdf")
    round_files = files(app, "turnier-*-runde-1-*.pdf")
    assert len(prints) == 3

    record_hand(client, round_one)
    for paper in ("tabelle", *(f"runde/1/{p}" for p in ROUND_PAPERS)):
        pdf(client, f"/turniere/{tid}/{paper}.pdf")
    assert len(prints) == 4  # the standings only
    [newer] = files(app, "turnier-*-tabelle-*-de.pdf")
    assert newer != standings  # another version: another name, the old one removed
    assert files(app, "turnier-*-runde-1-*.pdf") == round_files  # the same seats

    pdf(client, f"/turniere/{tid}/tabelle.pdf")
    assert len(prints) == 4


def test_a_swap_prints_the_rounds_papers_anew_in_every_language(
    app, client, drawn_tournament, prints
):
    tid, auth, round_one = drawn_tournament
    before = {}
    for paper in ROUND_PAPERS:
        for lang in ("de", "en"):
            url = f"/turniere/{tid}/runde/1/{paper}.pdf"
            before[paper, lang] = pdf(client, url, **{"Accept-Language": lang}).data
    old = files(app, "turnier-*-runde-1-*.pdf")
    assert len(old) == 4 and len(prints) == 4

    a, b = round_one["tables"][0]["players"][0], round_one["tables"][1]["players"][0]
    swapped = client.post(
        f"/api/v1/tournaments/{tid}/rounds/1/swap", json={"a": a, "b": b}, headers=auth
    )
    assert swapped.status_code == 200, swapped.get_json()

    for paper in ROUND_PAPERS:
        url = f"/turniere/{tid}/runde/1/{paper}.pdf"
        assert pdf(client, url).data != before[paper, "de"]
    assert len(prints) == 6
    new = files(app, "turnier-*-runde-1-*.pdf")
    assert len(new) == 2 and not set(new) & set(old)  # the English ones of the old seats too
    assert all(name.endswith("-de.pdf") for name in new)
    pdf(client, f"/turniere/{tid}/runde/1/tische.pdf", **{"Accept-Language": "en"})
    assert len(prints) == 7


@pytest.mark.printer_as_served
def test_requests_at_once_share_one_print_per_version(app, drawn_tournament, monkeypatch):
    """Twelve requests at once for the blank sheets, half in German, half in English, while
    the printer is slow: one print per language, and every request gets its language's."""
    tid, _, _ = drawn_tournament
    laid_out: list[str] = []
    real = weasy.write_pdf

    def slow(html: str, static: Path, stylesheet: str) -> bytes:
        laid_out.append(html)
        time.sleep(0.3)  # every request arrives while the first print is on
        return real(html, static, stylesheet)

    monkeypatch.setattr(weasy, "write_pdf", slow)
    url = f"/turniere/{tid}/runde/1/spielzettel.pdf"

    def fetch(n: int) -> tuple[str, int, bytes]:
        lang = ("de", "en")[n % 2]
        with app.test_client() as other:
            assert log_in(other).status_code == 302
            answer = until_printed(other, url, **{"Accept-Language": lang})
            return lang, answer.status_code, answer.data

    with ThreadPoolExecutor(12) as pool:
        answers = list(pool.map(fetch, range(12)))
    assert {status for _, status, _ in answers} == {200}
    assert len(laid_out) == 2
    for lang in ("de", "en"):
        assert len({body for said, _, body in answers if said == lang}) == 1
    assert len({body for _, _, body in answers}) == 2


@pytest.mark.printer_as_served
def test_a_slow_print_answers_202_and_the_reload_gets_the_paper(
    app, client, drawn_tournament, monkeypatch
):
    tid, _, _ = drawn_tournament
    release = threading.Event()
    laid_out: list[str] = []
    real = weasy.write_pdf

    def held(html: str, static: Path, stylesheet: str) -> bytes:
        laid_out.append(threading.current_thread().name)
        release.wait(10)
        return real(html, static, stylesheet)

    monkeypatch.setattr(weasy, "write_pdf", held)
    monkeypatch.setattr(printing, "WAIT", 0.2)
    url = f"/turniere/{tid}/runde/1/tische.pdf"

    started = time.monotonic()
    waiting = client.get(url)  # German: the reader's language by default
    assert time.monotonic() - started < 5  # the request did not wait for the print
    assert waiting.status_code == 202
    assert waiting.mimetype == "text/html"
    assert waiting.headers["Retry-After"] == str(printing.COME_BACK)
    page = waiting.get_data(as_text=True)
    assert f'<meta http-equiv="refresh" content="{printing.COME_BACK}">' in page
    assert "Wird gedruckt" in page and "von selbst" in page
    assert f'href="{url}"' in page

    english = client.get(f"{url}?lang=en")
    assert english.status_code == 202
    page = english.get_data(as_text=True)
    assert "The paper is being printed. It opens here by itself" in page
    assert f'href="{url}?lang=en"' in page  # the same address again

    release.set()
    answer = until_printed(client, url)
    assert answer.status_code == 200 and answer.data.startswith(b"%PDF")
    assert until_printed(client, f"{url}?lang=en").status_code == 200
    assert len(laid_out) == 2  # German and English, once each
    assert all(name.startswith("printer") for name in laid_out)
    assert printing._printing == {}


@pytest.mark.printer_as_served
def test_a_failed_print_leaves_nothing_stuck(app, client, drawn_tournament, monkeypatch):
    """A print that fails answers the request waiting for it (500); one that fails after
    its request was told to come back fails unseen; either way the next request prints."""
    tid, _, _ = drawn_tournament
    url = f"/turniere/{tid}/tabelle.pdf"
    real = weasy.write_pdf

    def broken(html: str, static: Path, stylesheet: str) -> bytes:
        raise RuntimeError("PDF renderer failed: no paper")

    monkeypatch.setattr(weasy, "write_pdf", broken)
    app.config["PROPAGATE_EXCEPTIONS"] = False  # the 500 page, as in production
    assert client.get(url).status_code == 500
    assert printing._printing == {}
    assert not files(app, "turnier-*")  # no file, not even a part of one

    release = threading.Event()

    def late_failure(html: str, static: Path, stylesheet: str) -> bytes:
        release.wait(10)
        raise RuntimeError("PDF renderer failed: paper jam")

    monkeypatch.setattr(weasy, "write_pdf", late_failure)
    monkeypatch.setattr(printing, "WAIT", 0.1)
    assert client.get(url).status_code == 202
    release.set()
    deadline = time.monotonic() + 10
    while printing._printing:
        assert time.monotonic() < deadline
        time.sleep(0.02)

    monkeypatch.setattr(weasy, "write_pdf", real)
    assert until_printed(client, url).status_code == 200
    assert list(files(app, "turnier-*")) == list(files(app, "turnier-*-tabelle-*-de.pdf"))


@pytest.mark.printer_as_served
def test_a_full_printer_answers_503_with_retry_after(app, client, drawn_tournament, monkeypatch):
    tid, _, _ = drawn_tournament
    release = threading.Event()
    real = weasy.write_pdf

    def held(html: str, static: Path, stylesheet: str) -> bytes:
        release.wait(10)
        return real(html, static, stylesheet)

    monkeypatch.setattr(weasy, "write_pdf", held)
    monkeypatch.setattr(printing, "WAIT", 0.1)
    monkeypatch.setattr(printing, "QUEUED", 1)
    try:
        assert client.get(f"/turniere/{tid}/runde/1/spielzettel.pdf").status_code == 202
        busy = client.get(f"/turniere/{tid}/tabelle.pdf", headers={"Accept-Language": "en"})
        assert busy.status_code == 503
        assert busy.headers["Retry-After"] == "5"
        assert "another report is being printed" in busy.get_data(as_text=True)
    finally:
        release.set()
    assert until_printed(client, f"/turniere/{tid}/runde/1/spielzettel.pdf").status_code == 200
    assert until_printed(client, f"/turniere/{tid}/tabelle.pdf").status_code == 200


def test_a_printed_round_paper_costs_the_same_reads_at_any_size(app, client, prints):
    """A paper printed before costs its version and its file: no read per table (a day of
    fifty tables asks for them again and again)."""
    auth = organiser(app)
    small = created(client, auth, NAMES, rounds=1, deals=1)["id"]
    big = created(client, auth, [f"Gast {i}" for i in range(1, 33)], rounds=1, deals=1)["id"]
    for tid in (small, big):
        draw(client, auth, tid)
    assert log_in(client).status_code == 302

    statements: list[str] = []

    def counted(conn, cursor, statement, *args) -> None:
        statements.append(statement)

    with app.app_context():
        engine = db.engine
    reads = {}
    for tid in (small, big):
        for paper in ("tabelle", *(f"runde/1/{p}" for p in ROUND_PAPERS)):
            url = f"/turniere/{tid}/{paper}.pdf"
            pdf(client, url)
            event.listen(engine, "before_cursor_execute", counted)
            try:
                pdf(client, url)
            finally:
                event.remove(engine, "before_cursor_execute", counted)
            reads[tid, paper] = len(statements)
            statements.clear()
    assert len(prints) == 6
    for paper in ("tabelle", *(f"runde/1/{p}" for p in ROUND_PAPERS)):
        assert reads[small, paper] == reads[big, paper], reads


def test_every_paper_carries_the_rules_and_their_mark(app, client, drawn_tournament):
    """A tournament's standings (page and PDF), table list and blank sheets, and each of
    its tables' score sheets print the same rules block with the same rules mark; an
    evening played by other rules has another mark (#26 item 5)."""
    from scorer.domain.params import fingerprint

    tid, auth, round_one = drawn_tournament
    tournament = client.get(f"/api/v1/tournaments/{tid}", headers=auth).get_json()
    mark = fingerprint(tournament["game"], tournament["system"], tournament["params"])
    assert len(mark) == 9 and mark[4] == "-"
    page = client.get(f"/turnier/{tournament['key']}/stand").get_data(as_text=True)
    assert f'Regelkennung <strong class="mark">{mark}</strong>' in page
    papers = [
        f"/turniere/{tid}/tabelle.pdf",
        f"/turniere/{tid}/runde/1/tische.pdf",
        f"/turniere/{tid}/runde/1/spielzettel.pdf",
        f"/api/v1/sessions/{round_one['tables'][0]['key']}/export.pdf",
    ]
    for paper in papers:
        response = client.get(paper)
        assert response.status_code == 200, paper
        text = pdf_text(response.data)
        assert mark in text and "Regelkennung" in text, paper
    other = client.post(
        "/api/v1/sessions",
        json={"game": "haferltarock", "system": "parlett-units", "players": ["A", "B", "C"]},
    ).get_json()["key"]
    text = pdf_text(client.get(f"/api/v1/sessions/{other}/export.pdf").data)
    assert "Regelkennung" in text and mark not in text


def test_the_rules_mark_changes_with_any_rule():
    from scorer.domain.params import fingerprint

    params = {"unit_cents": 10, "tie": "draw", "frage_factor": 0.5}
    mark = fingerprint("haferltarock", "parlett-units", params)
    assert mark == fingerprint("haferltarock", "parlett-units", dict(reversed(params.items())))
    assert mark != fingerprint("haferltarock", "levels", params)
    assert mark != fingerprint("haferltarock", "parlett-units", {**params, "tie": "loss"})
    assert mark != fingerprint("tarok", "parlett-units", params)


def test_a_changed_layout_prints_papers_anew(tmp_path):
    """The cached PDFs are per layout too: an update that changes a print template (or a
    style sheet or the words) never gives a copy printed before it."""
    from scorer.reports.printing import layout

    (tmp_path / "templates" / "exports").mkdir(parents=True)
    (tmp_path / "static").mkdir()
    sheet = tmp_path / "templates" / "exports" / "sheet.html"
    sheet.write_text("<p>one</p>")
    before = layout(str(tmp_path / "templates"), str(tmp_path / "static"))
    sheet.write_text("<p>two</p>")
    layout.cache_clear()
    assert layout(str(tmp_path / "templates"), str(tmp_path / "static")) != before
