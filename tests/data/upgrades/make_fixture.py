"""Makes one upgrade fixture with the code of an earlier release (not a test; run by hand).

Run it inside a `git worktree` of the release, with this project's virtualenv:

    git worktree add --detach /tmp/haferl-rel-9b0358a 9b0358a
    cd /tmp/haferl-rel-9b0358a
    /work/main/.venv/bin/python /work/main/tests/data/upgrades/make_fixture.py \
        /work/main/tests/data/upgrades/9b0358a

It migrates an empty SQLite file with that release's own migrations, plays real data
through that release's own API and operations (evenings of three and four players with
hands, an edit, a strike and a closed evening; players who come and go where the release
has them; a Stammtisch group with a closed evening, a closed season and an open evening
where the release has groups; a tournament with a played round and a second round drawn
and partly played), and writes `<out>.sqlite3` and `<out>.json`: what that release's API
answered about every evening, group and tournament (the answers the upgraded database
must still give). tests/test_upgrades.py reads both.
"""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))

import flask_migrate  # noqa: E402

from scorer import create_app  # noqa: E402

LAYERED = (ROOT / "scorer" / "store" / "database.py").exists()
"""Whether the release has the layered packages (scorer/store, scorer/services). Asked of
its files, not by trying an import: this virtualenv's editable install of the project
would find a module the release does not have in the project's own tree."""
if LAYERED:
    from scorer.store.database import db  # noqa: E402
else:
    from scorer.extensions import db  # noqa: E402

API = "/api/v1"
PASSWORD = "geheim123"


def main(out: Path) -> None:
    database = out.with_suffix(".sqlite3")
    database.unlink(missing_ok=True)
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
            "WTF_CSRF_ENABLED": False,
            "SECRET_KEY": "fixture",
            "RATE_LIMITS": False,
            "RATELIMIT_ENABLED": False,
        }
    )
    with app.app_context():
        flask_migrate.upgrade()
        revision = db.session.execute(db.text("SELECT version_num FROM alembic_version")).scalar()
    client = app.test_client()
    rng = random.Random(28)
    maker = Maker(app, client, rng)

    # An evening of three: hands, an edit, a strike, closed.
    closed = maker.session("haferltarock", "parlett-units", ["Anton", "Berta", "Charlotte"])
    maker.hands(closed, 12)
    maker.edit(closed, 3)
    maker.strike(closed, 5)
    maker.hands(closed, 2)
    assert client.post(f"{API}/sessions/{closed}/close", json={}).status_code == 200

    # An evening of four (the dealer sits out), still open, in another system.
    four = maker.session("haferltarock", "levels", ["Dora", "Emil", "Franz", "Gerti"])
    maker.hands(four, 10)
    maker.edit(four, 7)
    maker.strike(four, 2)

    # An evening in cents, with players who come and go where the release has them.
    cents = maker.session("haferltarock", "danyliuk-cents", ["Hans", "Ida", "Jakob"])
    maker.hands(cents, 6)
    maker.comes_and_goes(cents)
    maker.hands(cents, 6)

    groups = maker.group() if has_api(app, "/api/v1/groups") else []
    tournaments = [maker.tournament()]

    answers = {
        "commit": subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip(),
        "revision": revision,
        "sessions": {key: maker.session_answer(key) for key in maker.sessions},
        "groups": {key: maker.group_answer(key) for key in groups},
        "tournaments": {key: maker.tournament_answer(key) for key in tournaments},
    }
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    with sqlite3.connect(database) as compact:  # a lone file (no -wal), no free pages
        compact.execute("PRAGMA journal_mode=DELETE")
    compact.execute("VACUUM")
    compact.close()
    out.with_suffix(".json").write_text(
        json.dumps(answers, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    print(out, revision, {k: len(v) for k, v in answers.items() if isinstance(v, dict)})


def has_api(app, path: str) -> bool:
    return any(rule.rule.startswith(path) for rule in app.url_map.iter_rules())


class Maker:
    def __init__(self, app, client, rng: random.Random):
        self.app, self.client, self.rng = app, client, rng
        self.sessions: list[str] = []
        self.auth: dict[str, str] | None = None

    def session(self, game: str, system: str, players: list[str]) -> str:
        body = {"game": game, "system": system, "players": players, "first_dealer": players[0]}
        response = self.client.post(f"{API}/sessions", json=body)
        assert response.status_code == 201, response.get_json()
        key = response.get_json()["key"]
        self.sessions.append(key)
        return key

    def hand(self) -> dict:
        hand = {
            "contract": self.rng.choice(["frage", "hand"]),
            "points": self.rng.randint(0, 120),
        }
        if hand["contract"] == "hand" and self.rng.random() < 0.3:
            hand["bid"] = self.rng.choice(range(66, 117, 5))
        return hand

    def hands(self, key: str, count: int) -> None:
        for _ in range(count):
            self.one_hand(key)

    def one_hand(self, key: str) -> dict:
        players = self.client.get(f"{API}/sessions/{key}").get_json()["players"]
        hand = self.hand()
        for declarer in self.rng.sample(players, len(players)):
            response = self.client.post(
                f"{API}/sessions/{key}/hands", json={**hand, "declarer": declarer}
            )
            if response.status_code == 201:
                return response.get_json()
            assert response.status_code == 422, response.get_json()
        raise AssertionError("no player may declare")

    def edit(self, key: str, number: int) -> None:
        old = self.client.get(f"{API}/sessions/{key}/hands/{number}").get_json()
        facts = {**old["hand"], "points": (old["hand"].get("points", 60) + 37) % 121}
        facts.pop("declarer_side_points", None)
        response = self.client.put(
            f"{API}/sessions/{key}/hands/{number}", json={**facts, "version": old["version"]}
        )
        assert response.status_code == 200, response.get_json()

    def strike(self, key: str, number: int) -> None:
        old = self.client.get(f"{API}/sessions/{key}/hands/{number}").get_json()
        response = self.client.delete(
            f"{API}/sessions/{key}/hands/{number}?version={old['version']}"
        )
        assert response.status_code == 204, response.get_json()

    def comes_and_goes(self, key: str) -> None:
        """Klara joins, Ida goes home (`change_players` of the tables' service, where it
        exists: `scorer.services.tables`, before that `scorer.operations`)."""
        if LAYERED:
            from scorer.services import tables
            from scorer.store.table_rows import get_session
        else:
            from scorer import operations as tables

            get_session = tables.get_session

        if not hasattr(tables, "change_players"):
            return
        with self.app.app_context():
            session = get_session(key)
            tables.change_players(session, ["Hans", "Jakob", "Klara"])
            db.session.commit()

    def organiser(self) -> dict[str, str]:
        import base64

        if LAYERED:
            from scorer.services.accounts import create_organiser
        else:
            from scorer.auth.routes import create_organiser

        if self.auth is None:
            with self.app.app_context():
                create_organiser("Orga", "orga@example.org", PASSWORD)
                db.session.commit()
            token = base64.b64encode(f"orga@example.org:{PASSWORD}".encode()).decode()
            self.auth = {"Authorization": f"Basic {token}"}
        return self.auth

    def tournament(self) -> str:
        auth = self.organiser()
        body = {
            "name": "Herbstturnier",
            "date": "2026-11-28",
            "game": "haferltarock",
            "system": "parlett-units",
            "rounds": 3,
            "deals_per_player": 1,
            "players": [f"Spieler {i}" for i in range(1, 8)],
        }
        response = self.client.post(f"{API}/tournaments", json=body, headers=auth)
        assert response.status_code == 201, response.get_json()
        tid = response.get_json()["id"]
        key = response.get_json()["key"]
        first = self.draw(tid)
        for index, table in enumerate(first["tables"]):
            self.sessions.append(table["key"])
            self.hands(table["key"], table["hands_planned"] - 1)
            if index == 0:
                self.edit(table["key"], 2)  # a table's last hand closes it
            self.hands(table["key"], 1)
        state = self.client.get(f"{API}/tournaments/{tid}/rounds/1", headers=auth).get_json()
        if not state["closed"]:
            response = self.client.post(
                f"{API}/tournaments/{tid}/rounds/1/close", json={}, headers=auth
            )
            assert response.status_code == 200, response.get_json()
        second = self.draw(tid)
        for table in second["tables"]:
            self.sessions.append(table["key"])
            self.hands(table["key"], 2)
        return key

    def draw(self, tid: int) -> dict:
        response = self.client.post(f"{API}/tournaments/{tid}/rounds", json={}, headers=self.auth)
        assert response.status_code == 201, response.get_json()
        return response.get_json()

    def group(self) -> list[str]:
        body = {
            "name": "Donnerstagsrunde",
            "game": "haferltarock",
            "system": "parlett-units",
            "members": ["Anton", "Berta", "Charlotte", "Dora"],
            "carry_pot": True,
        }
        response = self.client.post(f"{API}/groups", json=body)
        assert response.status_code == 201, response.get_json()
        key = response.get_json()["key"]
        for players, hands, close in (
            (["Anton", "Berta", "Charlotte"], 9, True),
            (["Berta", "Charlotte", "Dora", "Anton"], 8, True),
            (["Anton", "Charlotte", "Dora"], 5, False),
        ):
            response = self.client.post(f"{API}/groups/{key}/evenings", json={"players": players})
            assert response.status_code == 201, response.get_json()
            evening = response.get_json()["key"]
            self.sessions.append(evening)
            self.hands(evening, hands)
            if close:
                assert (
                    self.client.post(f"{API}/sessions/{evening}/close", json={}).status_code == 200
                )
            if players[0] == "Berta":
                response = self.client.post(f"{API}/groups/{key}/season/close", json={})
                assert response.status_code == 200, response.get_json()
        return [key]

    def session_answer(self, key: str) -> dict:
        session = self.client.get(f"{API}/sessions/{key}").get_json()
        settlement = self.client.get(f"{API}/sessions/{key}/settlement").get_json()
        return {
            "balances": session["balances"],
            "hand_count": session["hand_count"],
            "closed": session["closed"],
            "settlement": settlement["balances"],
            "transfers": settlement["transfers"],
        }

    def group_answer(self, key: str) -> dict:
        group = self.client.get(f"{API}/groups/{key}").get_json()
        return {
            "pot_cents": group["pot_cents"],
            "season": group["season"],
            "closed_seasons": group["closed_seasons"],
            "standings": {
                season: self.client.get(f"{API}/groups/{key}/standings?season={season}").get_json()
                for season in range(1, group["season"] + 1)
            },
        }

    def tournament_answer(self, key: str) -> list[dict]:
        response = self.client.get(f"{API}/standings/{key}")
        assert response.status_code == 200, response.get_json()
        data = response.get_json()
        return data["standings"] if isinstance(data, dict) else data


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
