"""A day of faults, nothing lost: a small tournament's tablets keep sending hands while the
server is killed twice (SIGKILL of its whole process group) and started again by the club
laptop's restarter, `docs/haferl.service`, done as systemd does it (its ExecStart=, which
is `make run`'s recipe, RestartSec= after the exit; tests/support/faults.py). Every
acknowledged hand is stored exactly once, each table's balances equal a fresh fold, the
standings equal the fold, and no request failed but those the kills refused or cut.
Nothing about time is asserted: `bench/faults.py` runs the same for ten minutes and
prints how soon the server answers again."""

from __future__ import annotations

import contextlib
import io
import os

from tests.support.faults import (
    Day,
    classify,
    kills,
    make_organiser,
    run,
    stored_hands,
)
from tests.support.restarter import (
    Restarter,
    make_recipe,
    overrides,
    read_unit,
    unit_command,
)
from tests.support.servers import call, empty, migrate_fresh

SECONDS = 40
KILLS = 2


def test_the_unit_restarts_make_run_after_any_exit_and_kills_every_process():
    unit = read_unit()
    assert unit.exec_start == ["/usr/bin/make", "run"]
    assert unit.restart == "always" and unit.kill_mode == "control-group"
    assert unit.restart_sec == 2
    assert unit.environment["HOST"] == "0.0.0.0" and unit.environment["PORT"] == "5000"
    # `make run`'s recipe, with HOST and PORT from the environment (`?=` in the Makefile)
    command = unit_command(unit, {"HOST": "127.0.0.1", "PORT": "8123"})
    assert command == ["/bin/sh", "-c", "HOST=127.0.0.1 PORT=8123 .venv/bin/python -m scorer.serve"]
    assert make_recipe("run", {}).startswith("HOST=0.0.0.0 PORT=5000 ")


def test_a_day_of_kills_loses_no_acknowledged_hand(tmp_path):
    url = os.environ.get("SCORER_TEST_DATABASE_URL") or f"sqlite:///{tmp_path / 'day.sqlite3'}"
    with contextlib.redirect_stderr(io.StringIO()):  # Alembic's INFO lines
        migrate_fresh(url)
    make_organiser(url)
    restarter = Restarter(read_unit(), overrides(url, tmp_path), tmp_path / "server.log")
    restarter.start()
    try:
        day = Day(restarter.port, players=12, deals=3, rounds=20, pace=0.4, spectators=3)
        run(day, restarter, SECONDS, KILLS)
        stored, problems = stored_hands(url, day)
        replay = replayed_before_the_kills(day, restarter)
    finally:
        restarter.stop()
        if not url.startswith("sqlite"):
            empty(url)
    outages = restarter.outages
    assert [outage.planned for outage in outages] == [True] * KILLS, "it ended by itself"
    assert all(outage.serving_at is not None for outage in outages)
    assert restarter.starts == 1 + KILLS
    assert problems == []
    found = kills(day, outages, stored)
    assert [kill.lost for kill in found] == [0] * KILLS
    assert all(kill.first_hand is not None for kill in found)  # the tablets went on
    errors = [r for r in day.requests if classify(r, outages)[0] == "error"]
    assert errors == []
    assert len(day.rounds) >= 2  # rounds closed and were drawn across the kills
    assert sum(s.acknowledged_at is not None for s in day.sent) == len(stored)
    assert replay == (201, True, True)


def replayed_before_the_kills(day: Day, restarter: Restarter) -> tuple[int, bool, bool]:
    """A hand acknowledged before the first kill, sent again with its Idempotency-Key by a
    tablet whose answer was lost: (the status, whether it is the stored hand, whether the
    table still holds as many hands). The key outlives the restarts, as it must when the
    kill cut the answer after the commit."""
    first = restarter.outages[0].killed_at
    sent = next(s for s in day.sent if s.acknowledged_at is not None and s.acknowledged_at < first)
    before = call(restarter.port, "GET", f"/api/v1/sessions/{sent.table}")[1]["hand_count"]
    status, answer = call(
        restarter.port,
        "POST",
        f"/api/v1/sessions/{sent.table}/hands",
        sent.hand,
        {"Idempotency-Key": sent.key},
    )
    after = call(restarter.port, "GET", f"/api/v1/sessions/{sent.table}")[1]["hand_count"]
    return status, answer["number"] == sent.number, after == before
