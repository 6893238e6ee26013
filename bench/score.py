"""Benchmark: hands scored per second.

    .venv/bin/python bench/score.py [--seconds 2]

1. the domain function `score_hand` (ids and raw params in, a Score out) over a mix of every
   game and payment system; also `Rules.score` with the rules built once, as a table would;
2. `POST /api/v1/score` through the Flask test client, the same mix as JSON.

Prints the figures beside the targets; asserts nothing.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorer import create_app  # noqa: E402
from scorer.domain import Bonus, Hand, score_hand  # noqa: E402
from scorer.domain.scoring import Rules  # noqa: E402

DOMAIN_TARGET = 50_000
API_TARGET = 1_500

P3 = ("Anton", "Berta", "Charlotte")
P2 = ("Anton", "Berta")

# (game, system, params, hand JSON): every payment system, wins, losses, pots and bonuses
MIX: list[tuple[str, str, dict, dict]] = [
    ("tarok", "points-kasse", {}, {"contract": "frage", "trump": "gras", "points": 71}),
    ("tarok", "points-kasse", {}, {"contract": "hand", "trump": "herz", "points": 49}),
    ("tarok-bettel", "points-kasse", {}, {"contract": "bettel", "no_tricks": True}),
    ("tarok", "fixed-direct", {}, {"contract": "hand", "trump": "eichel", "points": 95}),
    ("tarok", "fixed-direct", {}, {"contract": "frage", "trump": "gras", "points": 50}),
    (
        "tarok-bettel",
        "multiples",
        {},
        {"contract": "hand", "trump": "herz", "points": 120, "all_tricks": True},
    ),
    (
        "tarok-bettel",
        "multiples",
        {"payout": "pot"},
        {"contract": "frage", "trump": "herz", "points": 40},
    ),
    ("haferltarock", "parlett-units", {}, {"contract": "hand", "bid": 76, "points": 83}),
    ("haferltarock", "parlett-units", {}, {"contract": "frage", "points": 58}),
    ("haferltarock", "levels", {}, {"contract": "hand", "bid": 71, "points": 82, "doublings": 1}),
    ("haferltarock", "danyliuk-cents", {}, {"contract": "frage", "points": 71}),
    ("scharfer-tarock", "scharf-fixed", {}, {"contract": "hand", "trump": "herz", "points": 91}),
    (
        "tapp-tarock",
        "tapp-points",
        {},
        {
            "contract": "solo",
            "points": 40,
            "bonuses": [{"id": "pagat_ultimo", "side": "declarer", "announced": True}],
        },
    ),
    ("strohmandeln", "beck", {}, {"contract": "game", "points": 40}),
    (
        "strohmandeln",
        "furr",
        {},
        {"contract": "game", "points": 50, "bonuses": [{"id": "uhu", "side": "defenders"}]},
    ),
    ("strohmandeln", "mayr-sedlaczek", {}, {"contract": "passed", "points": 30}),
]


def players_of(game: str) -> tuple[str, ...]:
    return P2 if game == "strohmandeln" else P3


def to_hand(data: dict) -> Hand:
    fields = {k: v for k, v in data.items() if k != "bonuses"}
    bonuses = tuple(Bonus(**b) for b in data.get("bonuses", []))
    return Hand(declarer="Anton", bonuses=bonuses, **fields)


def rate(step: Callable[[int], None], n_items: int, seconds: float) -> float:
    """Items per second: call `step(i)` round-robin over the mix for about `seconds`."""
    for i in range(n_items * 20):  # warm-up
        step(i % n_items)
    done, start = 0, time.perf_counter()
    deadline = start + seconds
    while True:
        for i in range(n_items):
            step(i)
        done += n_items
        now = time.perf_counter()
        if now >= deadline:
            return done / (now - start)


def bench_domain(seconds: float) -> tuple[float, float]:
    cases = [(g, s, p, players_of(g), to_hand(h)) for g, s, p, h in MIX]

    def one_call(i: int) -> None:
        game, system, params, players, hand = cases[i]
        score_hand(game, system, params, players=players, hand=hand)

    built = [(Rules.build(g, s, p), players, hand) for g, s, p, players, hand in cases]

    def prebuilt(i: int) -> None:
        rules, players, hand = built[i]
        rules.score(players, hand)

    return rate(one_call, len(cases), seconds), rate(prebuilt, len(built), seconds)


def bench_api(seconds: float) -> float:
    app = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "bench"}
    )
    client = app.test_client()
    bodies = [
        {
            "game": g,
            "system": s,
            "params": p,
            "players": list(players_of(g)),
            "hand": {"declarer": "Anton", **h},
        }
        for g, s, p, h in MIX
    ]
    for body in bodies:
        response = client.post("/api/v1/score", json=body)
        if response.status_code != 200:
            raise SystemExit(
                f"the mix is broken: {body} → {response.status_code} {response.get_json()}"
            )

    def post(i: int) -> None:
        client.post("/api/v1/score", json=bodies[i])

    return rate(post, len(bodies), seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    args = parser.parse_args()
    systems = sorted({s for _, s, _, _ in MIX})
    print(
        f"Python {platform.python_version()} on {platform.machine()}; "
        f"mix of {len(MIX)} hands, {len(systems)} payment systems"
    )
    one_call, prebuilt = bench_domain(args.seconds)
    rows = [
        ("domain score_hand()", one_call, DOMAIN_TARGET),
        ("domain Rules.score(), rules built once", prebuilt, None),
    ]
    rows.append(("POST /api/v1/score, Flask test client", bench_api(args.seconds), API_TARGET))
    for label, value, target in rows:
        verdict = ""
        if target is not None:
            verdict = f"target ≥ {target:,}: {'met' if value >= target else 'NOT met'}"
        print(f"{label:<40} {value:>10,.0f} hands/s   {verdict}".rstrip())


if __name__ == "__main__":
    main()
