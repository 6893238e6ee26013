"""A Stammtisch season through the API, printed: 10 evenings, 6 members, 4 at the table and
changing, the Haferl carried over; the collected settle-up; the season's end.

Run: `.venv/bin/python bench/season.py`. Everything goes through the Flask test client on
a SQLite file in a temporary directory. After every operation the conservation check
(members' nets + the group's Haferl + what open evenings hold = 0) is computed from the
API's own answers; the figures are printed, nothing is asserted. The hands are random
but seeded: the same run prints the same season.
"""

from __future__ import annotations

import random
import sys
import tempfile
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorer import create_app  # noqa: E402
from scorer.i18n.formats import money  # noqa: E402
from scorer.store.database import db

API = "/api/v1"
MEMBERS = ["Anton", "Berta", "Charlotte", "Dieter", "Emil", "Franzi"]
EVENINGS = 10
HANDS = 12


def german_euros(cents: int, signed: bool = False) -> str:
    return money(cents, signed, "de_DE")


def conservation(client, key: str) -> int:
    """Members' nets (closed evenings' settle-ups and shares of closed seasons), the
    group's Haferl, and what open evenings hold: 0 when no cent is made or lost."""
    group = client.get(f"{API}/groups/{key}").get_json()
    total = group["pot_cents"]
    for evening in group["evenings"]:
        if evening["closed"]:
            balances = client.get(f"{API}/sessions/{evening['key']}/settlement").get_json()
            total += sum(c for p, c in balances["balances"].items() if p != "pot")
        else:
            state = client.get(f"{API}/sessions/{evening['key']}").get_json()
            total += sum(state["balances"].values())
    for season in group["closed_seasons"]:
        total += sum(season["shares"].values())
    return total


def play_evening(client, session: dict, rng: random.Random) -> None:
    key = session["key"]
    for _ in range(HANDS):
        state = client.get(f"{API}/sessions/{key}").get_json()
        active = [p for p in state["players"] if p != state["sitting_out_next"]]
        hand = {
            "declarer": rng.choice(active),
            "contract": rng.choice(["frage", "frage", "hand"]),
            "points": rng.randint(30, 110),
        }
        if hand["contract"] == "hand":
            hand["bid"] = rng.choice([61, 66, 71])
        if rng.random() < 0.15:
            hand["doublings"] = 1
        answer = client.post(f"{API}/sessions/{key}/hands", json=hand)
        if answer.status_code != 201:  # a bid not reached, say: enter the hand as a Frage
            hand = {"declarer": hand["declarer"], "contract": "frage", "points": hand["points"]}
            answer = client.post(f"{API}/sessions/{key}/hands", json=hand)
        assert answer.status_code == 201, answer.get_json()


def main() -> None:
    warnings.simplefilter("ignore", DeprecationWarning)
    rng = random.Random(2026)
    checks: list[int] = []
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(tmp) / 'season.sqlite3'}",
                "SECRET_KEY": "bench",
                "WTF_CSRF_ENABLED": False,
                "RATELIMIT_ENABLED": False,
            }
        )
        with app.app_context():
            db.create_all()
        client = app.test_client()
        created = client.post(
            f"{API}/groups",
            json={
                "name": "Freitagsrunde",
                "game": "haferltarock",
                "system": "parlett-units",
                "params": {"stake_cents": 50},
                "members": MEMBERS,
                "carry_pot": True,
                "settle": "collected",
            },
        ).get_json()
        key = created["key"]
        print(f"group {created['name']}: {', '.join(MEMBERS)}; stake 0,50 €; Haferl carried")
        print()
        print(" #  at the table                     starts with  left at the end  check")
        for number in range(1, EVENINGS + 1):
            players = rng.sample(MEMBERS, 4)
            carried = client.get(f"{API}/groups/{key}").get_json()["pot_cents"]
            session = client.post(
                f"{API}/groups/{key}/evenings", json={"players": players}
            ).get_json()
            checks.append(conservation(client, key))
            play_evening(client, session, rng)
            checks.append(conservation(client, key))
            client.post(f"{API}/sessions/{session['key']}/close")
            left = client.get(f"{API}/groups/{key}").get_json()["pot_cents"]
            checks.append(conservation(client, key))
            opening = german_euros(carried) if carried else "stakes 2,00 €"
            print(
                f"{number:2d}  {', '.join(players):32s} {opening:>12s} "
                f"{german_euros(left):>16s}  {checks[-1]:+d}"
            )

        print()
        print("season standings:")
        for line in client.get(f"{API}/groups/{key}/standings").get_json():
            print(
                f"  {line['place']}. {line['player']:10s} {line['evenings']:2d} evenings "
                f"{line['hands']:3d} hands {line['declared']:3d} declared {line['won']:3d} won "
                f"{german_euros(line['net_cents'], signed=True):>10s}"
            )

        collected = client.get(f"{API}/groups/{key}/settlement").get_json()
        print()
        print(f"collected settle-up of {len(collected['evenings'])} evenings:")
        for transfer in collected["transfers"]:
            payer = "the Haferl" if transfer["from"] == "pot" else transfer["from"]
            payee = "the Haferl" if transfer["to"] == "pot" else transfer["to"]
            print(f"  {payer} pays {payee} {german_euros(transfer['cents'])}")
        parties = sum(1 for cents in collected["balances"].values() if cents)
        print(f"  {len(collected['transfers'])} transfers for {parties} parties")
        client.post(f"{API}/groups/{key}/settlement/close")
        checks.append(conservation(client, key))

        pot = client.get(f"{API}/groups/{key}").get_json()["pot_cents"]
        shares = client.post(f"{API}/groups/{key}/season/close").get_json()["shares"]
        checks.append(conservation(client, key))
        print()
        print(f"season closed: the Haferl of {german_euros(pot)} shared out equally:")
        print("  " + ", ".join(f"{p} {german_euros(c)}" for p, c in shares.items()))
        print()
        print(
            f"conservation checked {len(checks)} times: "
            f"{'every time 0' if not any(checks) else 'NOT ZERO: ' + str(checks)}"
        )


if __name__ == "__main__":
    main()
