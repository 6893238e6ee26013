"""Writes that queue for one table are done together, in the order they came, and a
refused one changes nothing and holds up nobody (`scorer.store.table_queue`)."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import event, func, select
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from scorer.domain import GAMES, RuleError, commands
from scorer.domain.commands import RecordHand
from scorer.domain.facts import parse_hand
from scorer.domain.message import msg
from scorer.services.table_reads import fold_session
from scorer.services.tables import create_session, record_hand
from scorer.store import table_queue
from scorer.store.busy import Busy
from scorer.store.database import db
from scorer.store.errors import Conflict, NotFound
from scorer.store.models import HandRecord, HistoryEvent, TableSession
from tests.support.table_queue import (
    PLAYERS,
    new_table,
    queue_in_order,
    table_locked_elsewhere,
    until,
)


def records(points: int) -> Callable[[TableSession], int]:
    def write(table: TableSession) -> int:
        hand = parse_hand(
            {"declarer": "Anton", "contract": "frage", "trump": "gras", "points": points},
            GAMES[table.game],
        )
        return record_hand(table, RecordHand(hand))[0].number

    return write


def refused(table: TableSession) -> int:
    raise RuleError.one("points", msg("must be a whole number"))


def refused_after_writing(table: TableSession) -> int:
    records(90)(table)
    raise RuleError.one("declarer", msg("must be one of the players"))


def test_queued_writes_are_done_in_one_transaction_and_refusals_change_nothing(app):
    key = new_table(app)
    commits: list[int] = []
    with app.app_context():
        event.listen(db.engine, "commit", lambda connection: commits.append(1))
    writes = [records(61), records(70), refused, records(80), refused_after_writing, records(99)]
    with table_locked_elsewhere(app, key):
        threads, outcomes = queue_in_order(app, key, writes)
    for thread in threads:
        thread.join(30)
    assert outcomes[:2] == [1, 2] and outcomes[3] == 3 and outcomes[5] == 4
    assert isinstance(outcomes[2], RuleError) and list(outcomes[2].fields) == ["points"]
    assert isinstance(outcomes[4], RuleError) and list(outcomes[4].fields) == ["declarer"]
    assert commits == [1]  # four hands, one transaction
    assert table_queue._queued == {}
    with app.app_context():
        table = db.session.scalar(select(TableSession).where(TableSession.key == key))
        stored = db.session.scalars(
            select(HandRecord.facts).where(HandRecord.session_id == table.id).order_by("number")
        ).all()
        assert [facts["points"] for facts in stored] == [61, 70, 80, 99]
        assert table.hand_count == 4 and table.version == 5
        assert table.state == fold_session(table)[1].to_json()
        lines = db.session.scalar(
            select(func.count()).where(
                HistoryEvent.session_id == table.id, HistoryEvent.action == "record"
            )
        )
        assert lines == 4


def test_a_batch_never_finishes_a_table_with_planned_hands(app):
    """A tournament table's writes lock its round only when they may finish the table
    (`table_rows.session_for_write`), so a batch holds no more writes than leave it short
    of done: of six hands queued at a table of five, four go together, the fifth alone
    (under the round's lock, where there is one), the sixth is refused."""
    with app.app_context():
        session = create_session(
            commands.open_table(
                name="",
                game="tarok",
                system="points-kasse",
                params=None,
                players=PLAYERS,
                first_dealer=None,
                scoring="points",
                hands_planned=5,
            )
        )
        db.session.commit()
        key = session.key
        commits: list[int] = []
        event.listen(db.engine, "commit", lambda connection: commits.append(1))
    with table_locked_elsewhere(app, key):
        threads, outcomes = queue_in_order(app, key, [records(61 + n) for n in range(6)])
    for thread in threads:
        thread.join(30)
    assert outcomes[:5] == [1, 2, 3, 4, 5]
    assert isinstance(outcomes[5], Conflict)
    assert commits == [1, 1]


def test_writes_for_a_table_that_does_not_exist_are_each_told_so(app):
    outcomes: list[Any] = []

    def run() -> None:
        with app.app_context():
            try:
                outcomes.append(table_queue.write_table("no-such-table", records(61)))
            except NotFound as exc:
                outcomes.append(exc)
            finally:
                db.session.remove()

    threads = [threading.Thread(target=run) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(outcomes) == 8 and all(isinstance(o, NotFound) for o in outcomes), outcomes
    assert table_queue._queued == {}


@pytest.mark.parametrize("leader_refused", [True, False])
def test_the_next_write_leads_when_the_one_before_is_done(app, leader_refused):
    """Writes arriving while a batch is written wait for the next turn, led by the first."""
    key = new_table(app)
    first_started = threading.Event()
    go_on = threading.Event()

    def slow(table: TableSession) -> int:
        first_started.set()
        go_on.wait(10)
        if leader_refused:
            refused(table)
        return records(61)(table)

    outcomes: list[Any] = []

    def run(write):
        with app.app_context():
            try:
                outcomes.append(table_queue.write_table(key, write))
            except RuleError as exc:
                outcomes.append(exc)
            finally:
                db.session.remove()

    leader = threading.Thread(target=run, args=(slow,))
    leader.start()
    first_started.wait(10)
    later = [threading.Thread(target=run, args=(records(70 + i),)) for i in range(3)]
    for thread in later:
        thread.start()
    until(lambda: len(table_queue._queued.get(key, ())) == 3)
    go_on.set()
    for thread in [leader, *later]:
        thread.join(30)
    numbers = sorted(o for o in outcomes if isinstance(o, int))
    assert numbers == ([1, 2, 3] if leader_refused else [1, 2, 3, 4])
    assert table_queue._queued == {}


def test_a_write_no_leader_takes_in_time_gives_up_and_is_never_written(app, monkeypatch):
    key = new_table(app)
    monkeypatch.setattr(table_queue, "WRITER_WAIT", 0.3)
    with table_locked_elsewhere(app, key):
        threads, outcomes = queue_in_order(app, key, [records(61), records(70)])
        threads[1].join(10)
        assert isinstance(outcomes[1], Busy)
    threads[0].join(30)
    assert outcomes[0] == 1
    assert table_queue._queued == {}
    with app.app_context():
        table = db.session.scalar(select(TableSession).where(TableSession.key == key))
        assert table.hand_count == 1


def test_when_the_commit_fails_nothing_is_stored_and_the_others_are_told_to_try_again(
    app, monkeypatch
):
    key = new_table(app)
    failed: list[int] = []
    commit = Session.commit

    def fails_once(self):
        if not failed:
            failed.append(1)
            raise OperationalError("COMMIT", {}, Exception("the server closed the connection"))
        return commit(self)

    monkeypatch.setattr(Session, "commit", fails_once)
    with table_locked_elsewhere(app, key):
        threads, outcomes = queue_in_order(app, key, [records(61), records(70), refused])
    for thread in threads:
        thread.join(30)
    assert isinstance(outcomes[0], OperationalError)
    assert all(isinstance(outcome, Busy) for outcome in outcomes[1:]), outcomes
    assert table_queue._queued == {}
    with app.app_context():
        assert table_queue.write_table(key, records(80)) == 1  # the table works on
        stored = db.session.scalars(select(HandRecord.facts)).all()
        assert [facts["points"] for facts in stored] == [80]


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "Please try again in a few seconds."),
        ("de", "Bitte in ein paar Sekunden noch einmal versuchen."),
    ],
)
def test_a_table_too_busy_to_take_a_hand_says_so_on_the_page_and_in_the_api(
    app, client, monkeypatch, language, text
):
    key = new_table(app)

    def busy(key, write):
        raise Busy("the table is busy: try again")

    monkeypatch.setattr(table_queue, "write_table", busy)
    headers = {"Accept-Language": language}
    hand = {"declarer": "Anton", "contract": "frage", "trump": "gras", "points": 70}
    answer = client.post(f"/api/v1/sessions/{key}/hands", json=hand, headers=headers)
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "5"
    assert answer.get_json()["error"]["message"] == text
    form = {**hand, "points": "70", "points_of": "declarer"}
    page = client.post(f"/t/{key}/spiel", data=form, headers=headers)
    assert page.status_code == 503 and text in page.get_data(as_text=True)
    assert "gedruckt" not in page.get_data(as_text=True)


def test_hands_queued_from_the_table_page_are_answered_from_what_the_leader_read(app):
    """A write of the queue runs in the leading request's thread and transaction; what it
    gives back must be plain data, read before that transaction ends: the page's answer to
    a queued hand is built in its own thread, after the leader's session is gone. A hand
    sent again (its key already stored) is read from that session: the hardest case."""
    key = new_table(app)
    answers: list[Any] = [None, None, None]

    def post(index: int, points: int, idempotency: str) -> None:
        form = {"declarer": "Anton", "contract": "frage", "trump": "gras"}
        form |= {"points": str(points), "points_of": "declarer"}
        headers = {"Accept": "application/json", "Idempotency-Key": idempotency}
        answer = app.test_client().post(f"/t/{key}/spiel", data=form, headers=headers)
        answers[index] = (answer.status_code, answer.get_json())

    post(0, 61, "first")
    with table_locked_elsewhere(app, key):
        leader = threading.Thread(target=post, args=(1, 90, "second"))
        leader.start()
        until(lambda: key in table_queue._queued)
        again = threading.Thread(target=post, args=(2, 61, "first"))  # sent again
        again.start()
        until(lambda: len(table_queue._queued.get(key, ())) == 1)
    leader.join(30)
    again.join(30)
    assert [status for status, _ in answers] == [201, 201, 201], answers
    assert [body["number"] for _, body in answers] == [1, 2, 1]
    unsigned = re.compile(r'name="csrf_token"[^>]*>')  # the bar's undo form is signed per client
    assert unsigned.sub("", answers[2][1]["bar"]) == unsigned.sub("", answers[0][1]["bar"])
