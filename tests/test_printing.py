"""Printed papers are printed once per version and language, by the server's printer thread
(`scorer.reports.printing`): a second request for an unchanged paper reads the file, a
change (a hand, a swap of seats) prints a new version and removes the old one, requests for
the same version at once share one print, and a request whose paper takes long is told to
come back (202, Retry-After, a page that reloads itself) while the print goes on."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from scorer.reports import printing, weasy
from tests.support.groups import FOUR, create_group, evening, play
from tests.support.pdfs import files, until_printed
from tests.support.tournaments import active_players, log_in, post_hand, session_of


def test_a_paper_is_printed_once_per_version(app, client, drawn_tournament, prints):
    tid, auth, round_one = drawn_tournament
    for url in (
        f"/turniere/{tid}/tabelle.pdf",
        f"/turniere/{tid}/runde/1/tische.pdf",
        f"/turniere/{tid}/runde/1/spielzettel.pdf",
    ):
        first = client.get(url)
        assert first.status_code == 200 and first.data.startswith(b"%PDF"), url
        assert client.get(url).data == first.data, url
    assert len(prints) == 3
    english = client.get(f"/turniere/{tid}/tabelle.pdf", headers={"Accept-Language": "en"})
    assert english.status_code == 200
    assert len(prints) == 4  # another language is another paper
    [german] = sorted(files(app, "turnier-*-tabelle-*-de.pdf"))

    key = round_one["tables"][0]["key"]
    declarer = active_players(session_of(client, key))[0]
    assert post_hand(client, key, {"declarer": declarer, "contract": "frage", "points": 83})
    assert client.get(f"/turniere/{tid}/tabelle.pdf").status_code == 200
    assert len(prints) == 5
    assert sorted(files(app, "turnier-*-tabelle-*-de.pdf")) != [german]  # the old one is gone
    assert len(sorted(files(app, "turnier-*-tabelle-*.pdf"))) == 1  # and the old English one too
    assert client.get(f"/turniere/{tid}/runde/1/tische.pdf").status_code == 200
    assert len(prints) == 5  # the seats did not change


def test_a_swap_of_seats_prints_the_rounds_papers_anew(app, client, drawn_tournament, prints):
    tid, auth, round_one = drawn_tournament
    url = f"/turniere/{tid}/runde/1/tische.pdf"
    before = client.get(url).data
    a, b = round_one["tables"][0]["players"][0], round_one["tables"][1]["players"][0]
    swapped = client.post(
        f"/api/v1/tournaments/{tid}/rounds/1/swap", json={"a": a, "b": b}, headers=auth
    )
    assert swapped.status_code == 200, swapped.get_json()
    after = client.get(url)
    assert after.status_code == 200 and after.data != before
    assert len(prints) == 2
    assert len(sorted(files(app, "turnier-*-runde-1-tische-*.pdf"))) == 1


@pytest.mark.printer_as_served  # the printer's own waits, as a server's
def test_requests_for_the_same_version_at_once_share_one_print(app, drawn_tournament, prints):
    tid, _, _ = drawn_tournament

    def fetch(_: int) -> tuple[int, bytes]:
        with app.test_client() as other:
            assert log_in(other).status_code == 302
            answer = other.get(f"/turniere/{tid}/tabelle.pdf")
            return answer.status_code, answer.data

    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(fetch, range(6)))
    # At most WAITING requests wait for the print; the others hear 'being printed' at once.
    assert {status for status, _ in answers} <= {200, 202}
    assert sum(status == 200 for status, _ in answers) <= printing.WAITING
    with app.test_client() as other:  # a page's reload finds the one print
        assert log_in(other).status_code == 302
        again = until_printed(other, f"/turniere/{tid}/tabelle.pdf")
    assert again.status_code == 200
    assert {body for status, body in answers if status == 200} <= {again.data}
    assert len(prints) == 1


@pytest.mark.printer_as_served  # the printer's own waits, as a server's
def test_a_slow_print_says_come_back_and_goes_on(app, client, drawn_tournament, monkeypatch):
    tid, _, _ = drawn_tournament
    release = threading.Event()
    real = weasy.write_pdf

    def slow(html: str, static: Path, stylesheet: str) -> bytes:
        release.wait(10)
        return real(html, static, stylesheet)

    monkeypatch.setattr(weasy, "write_pdf", slow)
    monkeypatch.setattr(printing, "WAIT", 0.2)
    url = f"/turniere/{tid}/tabelle.pdf"
    waiting = client.get(url, headers={"Accept-Language": "en"})
    assert waiting.status_code == 202
    assert waiting.headers["Retry-After"] == str(printing.COME_BACK)
    assert waiting.headers["Refresh"] == str(printing.COME_BACK)
    assert "being printed" in waiting.get_data(as_text=True)
    assert client.get(url).status_code == 202  # the same print, still going
    release.set()
    answer = until_printed(client, url)
    assert answer.status_code == 200 and answer.data.startswith(b"%PDF")


def test_a_failed_print_is_tried_again_by_the_next_request(
    app, client, drawn_tournament, monkeypatch
):
    tid, _, _ = drawn_tournament
    monkeypatch.setattr(weasy, "TIMEOUT", 0.001)  # the child is stopped: PrinterBusy
    url = f"/turniere/{tid}/tabelle.pdf"
    assert client.get(url).status_code == 503
    monkeypatch.undo()
    assert client.get(url).status_code == 200
    assert printing._printing == {}


def test_the_season_report_is_printed_once_per_version_of_the_group(app, client, prints):
    group = create_group(client)
    night = evening(client, group["key"], FOUR)
    url = f"/s/{group['key']}/saison.pdf"
    first = client.get(url)
    assert first.status_code == 200 and first.data.startswith(b"%PDF")
    assert client.get(url).data == first.data
    assert len(prints) == 1
    play(client, night, [{"contract": "frage", "points": 70}])
    assert client.get(url).status_code == 200
    assert len(prints) == 2
    assert len(sorted(files(app, f"saison-{group['key']}-*.pdf"))) == 1


@pytest.mark.printer_as_served  # the printer's own waits, as a server's
def test_an_older_version_still_waiting_for_the_printer_is_dropped(
    app, drawn_tournament, monkeypatch
):
    """While the printer is busy, the standings are asked for, a hand changes them and they
    are asked for again: the older version, not yet started, is never printed."""
    tid, _, round_one = drawn_tournament
    started, release = threading.Event(), threading.Event()
    laid_out: list[str] = []
    real = weasy.write_pdf

    def held(html: str, static: Path, stylesheet: str) -> bytes:
        laid_out.append(html)
        started.set()
        release.wait(10)
        return real(html, static, stylesheet)

    monkeypatch.setattr(weasy, "write_pdf", held)
    monkeypatch.setattr(printing, "WAIT", 0.1)
    with app.test_client() as client:
        assert log_in(client).status_code == 302
        assert client.get(f"/turniere/{tid}/runde/1/tische.pdf").status_code == 202
        assert started.wait(10)  # the printer is busy with the table list
        url = f"/turniere/{tid}/tabelle.pdf"
        assert client.get(url).status_code == 202  # waits behind it
        key = round_one["tables"][0]["key"]
        declarer = active_players(session_of(client, key))[0]
        post_hand(client, key, {"declarer": declarer, "contract": "frage", "points": 90})
        assert client.get(url).status_code == 202  # the newer version
        release.set()
        answer = until_printed(client, url)
        assert answer.status_code == 200
    assert len(laid_out) == 2  # the table list and the newer standings only


@pytest.mark.printer_as_served  # the printer's own waits, as a server's
def test_a_paper_behind_a_busy_printer_is_answered_at_once(app, drawn_tournament, monkeypatch):
    """A request whose paper cannot get the printer holds no thread while it waits: it is
    told 'being printed' at once, not after WAIT seconds, and its reload finds the PDF."""
    tid, _, _ = drawn_tournament
    started, release = threading.Event(), threading.Event()
    real = weasy.write_pdf

    def held(html: str, static: Path, stylesheet: str) -> bytes:
        started.set()
        release.wait(10)
        return real(html, static, stylesheet)

    monkeypatch.setattr(weasy, "write_pdf", held)
    monkeypatch.setattr(printing, "WAIT", 5.0)
    printing_list = app.test_client()
    assert log_in(printing_list).status_code == 302
    busy = threading.Thread(target=printing_list.get, args=(f"/turniere/{tid}/runde/1/tische.pdf",))
    with app.test_client() as client:
        assert log_in(client).status_code == 302
        busy.start()
        assert started.wait(10)  # the one printer thread is laying out the table list
        before = time.monotonic()
        behind = client.get(f"/turniere/{tid}/tabelle.pdf")
        waited = time.monotonic() - before
        assert behind.status_code == 202 and waited < printing.WAIT / 2, waited
        release.set()
        busy.join(10)
        assert until_printed(client, f"/turniere/{tid}/tabelle.pdf").status_code == 200


def test_a_print_stopped_with_the_server_is_not_logged_as_a_failure(monkeypatch, caplog):
    """Stopping the server (SIGTERM to its process group) also stops a renderer at work:
    that is said quietly, not as a failed print with a traceback, and the paper is printed
    by the next request after the start."""
    import logging
    import subprocess

    def stopped(args, **kwargs):
        return subprocess.CompletedProcess(args, -15, b"", b"")

    monkeypatch.setattr(weasy.subprocess, "run", stopped)
    with pytest.raises(weasy.RendererStopped):
        weasy.write_pdf("<p>x</p>", Path("static"), "print.css")
    paper = Path("/nonexistent/x.pdf")
    logged = caplog.at_level(logging.INFO, logger=printing.log.name)
    with logged, pytest.raises(weasy.RendererStopped):
        printing._print(
            "<p>x</p>", Path("static"), "print.css", path=paper, name="x", version="1", limit=10**6
        )
    assert [r.levelname for r in caplog.records] == ["INFO"]
    assert not any(r.exc_info for r in caplog.records)
