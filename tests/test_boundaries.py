"""Boundary tests for every payment system of RULES.md §3.

Every expected amount is worked out by hand from RULES.md; the arithmetic is in the comment
beside each case. Nets are given as the declarer Anton, the defenders Berta and Charlotte,
and the pot. Helpers:

- `direct(x)`: each defender pays `x` to the declarer (negative `x`: the declarer pays each).
- `from_pot(x)`: the pot pays `x` to the declarer.
- `half_pot(x)`: lost "one from the declarer, one from the pot": defenders `+x` each,
  declarer `-x`, pot `-x`.
- `kasse_loss(a, h)`: points-kasse loss: the declarer pays `a`, each defender gets `h`, the
  Kasse pays `2h - a`.
- `duel(x)`: Strohmandeln, the defender Berta pays `x` to Anton.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorer.domain import Bonus, Hand, RuleError, score_hand
from scorer.domain.scoring import Rules

P3 = ("Anton", "Berta", "Charlotte")
P2 = ("Anton", "Berta")


def direct(x: int) -> dict[str, int]:
    return {"Anton": 2 * x, "Berta": -x, "Charlotte": -x, "pot": 0}


def from_pot(x: int) -> dict[str, int]:
    return {"Anton": x, "Berta": 0, "Charlotte": 0, "pot": -x}


def half_pot(x: int) -> dict[str, int]:
    return {"Anton": -x, "Berta": x, "Charlotte": x, "pot": -x}


def kasse_loss(a: int, h: int) -> dict[str, int]:
    return {"Anton": -a, "Berta": h, "Charlotte": h, "pot": -(2 * h - a)}


def duel(x: int) -> dict[str, int]:
    return {"Anton": x, "Berta": -x, "pot": 0}


NOTHING = direct(0)
NOTHING2 = duel(0)


def bonus(id: str, side: str = "declarer", announced: bool = False, made: bool = True) -> Bonus:
    return Bonus(id, side, announced, made)


def play(
    game: str,
    system: str,
    params: dict[str, Any] | None = None,
    *,
    pot_cents: int | None = None,
    factor: int = 1,
    **hand: Any,
):
    players = P2 if game == "strohmandeln" else P3
    hand.setdefault("declarer", "Anton")
    if "bonuses" in hand:
        hand["bonuses"] = tuple(hand["bonuses"])
    score = score_hand(
        game,
        system,
        params or {},
        players=players,
        hand=Hand(**hand),
        pot_cents=pot_cents,
        factor=factor,
    )
    assert all(p.cents > 0 for p in score.postings)
    return score, score.net([*players, "pot"])


def check(game, system, params, hand, result, net, **kwargs):
    score, got = play(game, system, params, **kwargs, **hand)
    assert (score.result, got) == (result, net)
    return score


def texts(score) -> list[str]:
    return [str(line.text) for line in score.explanation]


# --------------------------------------------------------------------------------------
# 3.1 points-kasse: A = round_up5((p - 60) × rate), frage ½ ct, hand 1 ct, tie = draw
# --------------------------------------------------------------------------------------

PK_FRAGE = [
    (0, "lost", kasse_loss(30, 15)),  # 60 short × ½ = 30 → 30; half 15; Kasse 0
    (29, "lost", kasse_loss(20, 10)),  # 31 × ½ = 15.5 → up5 20; half 10; Kasse 0
    (30, "lost", kasse_loss(15, 10)),  # 30 × ½ = 15 → 15; half 7.5 → 10; Kasse 2·10−15 = 5
    (31, "lost", kasse_loss(15, 10)),  # 29 × ½ = 14.5 → 15; half 10; Kasse 5
    (55, "lost", kasse_loss(5, 5)),  # 5 × ½ = 2.5 → 5; half 2.5 → 5; Kasse 5
    (56, "lost", kasse_loss(5, 5)),  # 4 × ½ = 2 → 5; half 5; Kasse 5
    (59, "lost", kasse_loss(5, 5)),  # 1 × ½ → 5; half 5; Kasse 5
    (60, "draw", NOTHING),  # p = 60: draw
    (61, "won", from_pot(5)),  # 1 × ½ = 0.5 → 5
    (65, "won", from_pot(5)),  # 5 × ½ = 2.5 → 5
    (66, "won", from_pot(5)),  # 6 × ½ = 3 → 5
    (71, "won", from_pot(10)),  # 11 × ½ = 5.5 → 10 (the source example at ½)
    (90, "won", from_pot(15)),  # 30 × ½ = 15
    (91, "won", from_pot(20)),  # 31 × ½ = 15.5 → 20
    (119, "won", from_pot(30)),  # 59 × ½ = 29.5 → 30
    (120, "won", from_pot(30)),  # 60 × ½ = 30
]

PK_HAND = [
    (29, "lost", kasse_loss(35, 20)),  # 31 × 1 → up5 35; half 17.5 → 20; Kasse 40−35 = 5
    (30, "lost", kasse_loss(30, 15)),  # 30 → 30; half 15; Kasse 0
    (31, "lost", kasse_loss(30, 15)),  # 29 → 30; half 15
    (49, "lost", kasse_loss(15, 10)),  # 11 → 15; half 7.5 → 10; Kasse 5 (source example 2)
    (50, "lost", kasse_loss(10, 5)),  # 10 → 10; half 5 (source example 2)
    (55, "lost", kasse_loss(5, 5)),  # 5 → 5; half 2.5 → 5; Kasse 5
    (56, "lost", kasse_loss(5, 5)),  # 4 → 5
    (59, "lost", kasse_loss(5, 5)),  # 1 → 5
    (60, "draw", NOTHING),
    (61, "won", from_pot(5)),  # 1 → 5
    (65, "won", from_pot(5)),  # 5 → 5
    (66, "won", from_pot(10)),  # 6 → 10
    (90, "won", from_pot(30)),  # 30 → 30
    (91, "won", from_pot(35)),  # 31 → 35
    (119, "won", from_pot(60)),  # 59 → 60
    (120, "won", from_pot(60)),  # 60 → 60 (not Durch: no all_tricks flag)
]


@pytest.mark.parametrize(("points", "result", "net"), PK_FRAGE, ids=[str(c[0]) for c in PK_FRAGE])
def test_points_kasse_frage(points, result, net):
    check(
        "tarok",
        "points-kasse",
        {},
        dict(contract="frage", trump="gras", points=points),
        result,
        net,
    )


@pytest.mark.parametrize(("points", "result", "net"), PK_HAND, ids=[str(c[0]) for c in PK_HAND])
@pytest.mark.parametrize("trump", ["eichel", "herz"])  # Solo and Herzsolo pay alike
def test_points_kasse_hand(points, result, net, trump):
    check(
        "tarok", "points-kasse", {}, dict(contract="hand", trump=trump, points=points), result, net
    )


def test_points_kasse_durch_doubles_before_rounding():
    # Frage Durch: 60 × ½ × 2 = 60 → 60 (doubling after rounding would also give 60)
    check(
        "tarok",
        "points-kasse",
        {},
        dict(contract="frage", trump="gras", points=120, all_tricks=True),
        "won",
        from_pot(60),
    )
    # hand Durch: 60 × 1 × 2 = 120
    check(
        "tarok",
        "points-kasse",
        {},
        dict(contract="hand", trump="eichel", points=120, all_tricks=True),
        "won",
        from_pot(120),
    )
    # 0.35 ct per point, up5: 60 × 0.35 = 21, doubled first = 42 → up5 45
    # (rounding first would give 25 × 2 = 50)
    check(
        "tarok",
        "points-kasse",
        {"rate_frage": "0.35"},
        dict(contract="frage", trump="gras", points=120, all_tricks=True),
        "won",
        from_pot(45),
    )
    # rounding none: 60 × ¼ × 2 = 30 exactly
    check(
        "tarok",
        "points-kasse",
        {"rounding": "none", "rate_frage": 0.25},
        dict(contract="frage", trump="gras", points=120, all_tricks=True),
        "won",
        from_pot(30),
    )


@pytest.mark.parametrize(
    ("rounding", "points", "result", "net"),
    [
        ("none", 71, "won", from_pot(6)),  # 11 × ½ = 5.5 → nearest cent, halves up: 6
        ("none", 61, "won", from_pot(1)),  # 0.5 → 1
        ("none", 49, "lost", kasse_loss(6, 3)),  # 5.5 → 6; half 3; Kasse 0
        ("none", 47, "lost", kasse_loss(7, 4)),  # 6.5 → 7; half 3.5 → 4; Kasse 1
        ("nearest5", 71, "won", from_pot(5)),  # 5.5 → nearest 5: 5
        ("nearest5", 75, "won", from_pot(10)),  # 7.5 → nearest 5, halves up: 10
        ("nearest5", 61, "won", NOTHING),  # 0.5 → 0: nothing to pay
        ("nearest5", 40, "lost", kasse_loss(10, 5)),  # 20 × ½ = 10; half 5
        ("nearest5", 30, "lost", kasse_loss(15, 10)),  # 15; half 7.5 → 10; Kasse 5
    ],
)
def test_points_kasse_rounding(rounding, points, result, net):
    check(
        "tarok",
        "points-kasse",
        {"rounding": rounding},
        dict(contract="frage", trump="gras", points=points),
        result,
        net,
    )


def test_points_kasse_tie_param():
    hand = dict(contract="hand", trump="eichel", points=60)
    check("tarok", "points-kasse", {}, hand, "draw", NOTHING)  # default tie = draw
    check("tarok", "points-kasse", {"tie": "draw"}, hand, "draw", NOTHING)
    score, net = play("tarok", "points-kasse", {"tie": "loss"}, **hand)
    # RULES.md gives no amount for a 60-60 loss here ((60 − 60) × rate = 0); only the result
    # and the sign are fixed: the declarer does not gain.
    assert score.result == "lost"
    assert net["Anton"] <= 0


@pytest.mark.parametrize(
    ("game", "params", "no_tricks", "result", "net"),
    [
        ("tarok-bettel", {}, True, "won", from_pot(20)),  # Kasse pays bettel_cents 20
        ("tarok-bettel", {}, False, "lost", kasse_loss(20, 10)),  # A = 20; half 10; Kasse 0
        ("tarok-bettel", {"bettel_cents": 30}, True, "won", from_pot(30)),
        ("tarok-bettel", {"bettel_cents": 30}, False, "lost", kasse_loss(30, 15)),
        # A = 25; half 12.5 → up5 15; the Kasse pays 2·15 − 25 = 5
        ("tarok-bettel", {"bettel_cents": 25}, False, "lost", kasse_loss(25, 15)),
    ],
)
def test_points_kasse_bettel(game, params, no_tricks, result, net):
    check(game, "points-kasse", params, dict(contract="bettel", no_tricks=no_tricks), result, net)


# Regression: a bettel_cents that is not a multiple of 5 under up5/nearest5 rounding makes
# round(A/2) > A or < A/2; each defender must still get round(A/2) and the Kasse the rest.
@pytest.mark.parametrize(
    ("bettel_cents", "half"),
    [
        (1, 5),  # A = 1; half 0.5 → up5 5; the Kasse pays 2·5 − 1 = 9
        (3, 5),  # A = 3; half 1.5 → 5; the Kasse pays 7
    ],
)
def test_points_kasse_bettel_odd_amount_up5(bettel_cents, half):
    check(
        "tarok-bettel",
        "points-kasse",
        {"bettel_cents": bettel_cents},
        dict(contract="bettel", no_tricks=False),
        "lost",
        kasse_loss(bettel_cents, half),
    )


def test_points_kasse_bettel_odd_amount_nearest5():
    # A = 12; half 6 → nearest5 5; the Kasse "pays" 2·5 − 12 = −2, i.e. receives 2:
    # declarer −12, each defender +5, Kasse +2
    check(
        "tarok-bettel",
        "points-kasse",
        {"bettel_cents": 12, "rounding": "nearest5"},
        dict(contract="bettel", no_tricks=False),
        "lost",
        kasse_loss(12, 5),
    )


def test_points_kasse_kontra_doubles_after_rounding():
    frage = dict(contract="frage", trump="gras")
    # 61: ½ ct → up5 5, then Kontra ×2 = 10 (doubling before rounding would give 5)
    check("tarok", "points-kasse", {}, dict(frage, points=61, doublings=1), "won", from_pot(10))
    # 71: 10 × 2 = 20; Re: 10 × 4 = 40
    check("tarok", "points-kasse", {}, dict(frage, points=71, doublings=1), "won", from_pot(20))
    check("tarok", "points-kasse", {}, dict(frage, points=71, doublings=2), "won", from_pot(40))
    # hand 29 lost: A 35, halves 20, Kasse 5; ×2: 70, 40 each, Kasse 10
    check(
        "tarok",
        "points-kasse",
        {},
        dict(contract="hand", trump="eichel", points=29, doublings=1),
        "lost",
        kasse_loss(70, 40),
    )


def test_points_kasse_pot_cap():
    hand = dict(contract="hand", trump="eichel", points=120, all_tricks=True)
    full, net = play("tarok", "points-kasse", **hand)
    assert net == from_pot(120)
    # the pot holds 100 of the 120 due: it pays 100 and a line says so
    capped = check("tarok", "points-kasse", {}, hand, "won", from_pot(100), pot_cents=100)
    new = [t for t in texts(capped) if t not in texts(full)]
    assert new and any("haferl" in t.lower() for t in new)
    # a pot holding enough pays in full, with no extra line
    exact = check("tarok", "points-kasse", {}, hand, "won", from_pot(120), pot_cents=120)
    assert texts(exact) == texts(full)
    # an empty pot pays nothing
    check("tarok", "points-kasse", {}, hand, "won", NOTHING, pot_cents=0)
    # the Kasse's top-up in a loss is capped too: hand 29 → declarer 35, halves 20, Kasse 5;
    # an empty Kasse leaves the second defender with the declarer's 15 only
    score, net = play(
        "tarok", "points-kasse", pot_cents=0, contract="hand", trump="eichel", points=29
    )
    assert score.result == "lost"
    assert net["Anton"] == -35 and net["pot"] == 0
    assert sorted([net["Berta"], net["Charlotte"]]) == [15, 20]


# --------------------------------------------------------------------------------------
# 3.2 fixed-direct: win 50, Schneider 60, Durch = Schneider, Frage ½, Bettel 4 × 25, tie draw
# --------------------------------------------------------------------------------------

FD_HAND = [
    (29, "lost", direct(-60)),  # ≤ 29: Schneider 60 to each defender
    (30, "lost", direct(-50)),  # simple 50
    (31, "lost", direct(-50)),
    (55, "lost", direct(-50)),
    (56, "lost", direct(-50)),
    (59, "lost", direct(-50)),
    (60, "draw", NOTHING),  # tie = draw
    (61, "won", direct(50)),
    (65, "won", direct(50)),
    (66, "won", direct(50)),
    (90, "won", direct(50)),  # 61–90: win_cents
    (91, "won", direct(60)),  # ≥ 91: Schneider
    (119, "won", direct(60)),
    (120, "won", direct(60)),
]
FD_FRAGE = [
    (29, "lost", direct(-30)),  # 60 × ½
    (30, "lost", direct(-25)),  # 50 × ½
    (31, "lost", direct(-25)),
    (59, "lost", direct(-25)),
    (60, "draw", NOTHING),
    (61, "won", direct(25)),
    (90, "won", direct(25)),
    (91, "won", direct(30)),
    (120, "won", direct(30)),
]


@pytest.mark.parametrize(("points", "result", "net"), FD_HAND, ids=[str(c[0]) for c in FD_HAND])
@pytest.mark.parametrize("trump", ["schellen", "herz"])
def test_fixed_direct_hand(points, result, net, trump):
    check(
        "tarok", "fixed-direct", {}, dict(contract="hand", trump=trump, points=points), result, net
    )


@pytest.mark.parametrize(("points", "result", "net"), FD_FRAGE, ids=[str(c[0]) for c in FD_FRAGE])
def test_fixed_direct_frage(points, result, net):
    check(
        "tarok",
        "fixed-direct",
        {},
        dict(contract="frage", trump="gras", points=points),
        result,
        net,
    )


@pytest.mark.parametrize(
    ("params", "hand", "result", "net"),
    [
        # Durch / Schwarz: durch_cents, by default the Schneider amount 60
        ({}, dict(contract="hand", points=120, all_tricks=True), "won", direct(60)),
        ({}, dict(contract="hand", points=0, no_tricks=True), "lost", direct(-60)),
        ({}, dict(contract="frage", points=120, all_tricks=True), "won", direct(30)),  # 60 × ½
        (
            {"durch_cents": 100},
            dict(contract="hand", points=120, all_tricks=True),
            "won",
            direct(100),
        ),
        (
            {"durch_cents": 100},
            dict(contract="hand", points=0, no_tricks=True),
            "lost",
            direct(-100),
        ),
        # durch_cents 100 at 120 points without the flag: Schneider 60
        ({"durch_cents": 100}, dict(contract="hand", points=120), "won", direct(60)),
        (
            {"win_cents": 40, "schneider_cents": 80},
            dict(contract="hand", points=95),
            "won",
            direct(80),
        ),
        (
            {"win_cents": 40, "schneider_cents": 80},
            dict(contract="frage", points=70),
            "won",
            direct(20),
        ),
        ({"tie": "loss"}, dict(contract="hand", points=60), "lost", direct(-50)),
        ({"tie": "loss"}, dict(contract="frage", points=60), "lost", direct(-25)),
    ],
)
def test_fixed_direct_durch_and_params(params, hand, result, net):
    check("tarok", "fixed-direct", params, dict(hand, trump="eichel"), result, net)


@pytest.mark.parametrize(
    ("params", "no_tricks", "result", "net"),
    [
        ({}, True, "won", direct(100)),  # 4 × 50 × ½ = 100 from each defender
        ({}, False, "lost", direct(-100)),  # the same to each defender
        ({"bettel_factor": 2}, True, "won", direct(50)),  # 2 × 50 × ½
        ({"win_cents": 30}, False, "lost", direct(-60)),  # 4 × 30 × ½
    ],
)
def test_fixed_direct_bettel(params, no_tricks, result, net):
    check(
        "tarok-bettel",
        "fixed-direct",
        params,
        dict(contract="bettel", no_tricks=no_tricks),
        result,
        net,
    )


# ---- Kontra / Re, max_doublings and kontra_shifts_burden (on fixed-direct, Solo 50) ----


@pytest.mark.parametrize(
    ("params", "points", "doublings", "result", "net"),
    [
        ({}, 75, 1, "won", direct(100)),  # 50 × 2
        ({}, 75, 2, "won", direct(200)),  # 50 × 4
        ({}, 95, 2, "won", direct(240)),  # Schneider 60 × 4
        ({}, 50, 1, "lost", direct(-100)),  # 50 × 2 to each defender
        ({}, 20, 2, "lost", direct(-240)),  # Schneider 60 × 4
        ({}, 60, 2, "draw", NOTHING),  # a draw doubled is still nothing
        ({"max_doublings": 3}, 75, 3, "won", direct(400)),  # Supp: 50 × 8
        ({"max_doublings": 5}, 75, 5, "won", direct(1600)),  # Hirsch: 50 × 32
        ({"max_doublings": 5}, 75, 4, "won", direct(800)),  # Resupp: 50 × 16
    ],
)
def test_kontra_re(params, points, doublings, result, net):
    score = check(
        "tarok",
        "fixed-direct",
        params,
        dict(contract="hand", trump="eichel", points=points, doublings=doublings),
        result,
        net,
    )
    assert any("Kontra" in t for t in texts(score))


@pytest.mark.parametrize(
    ("params", "doublings"),
    [
        ({}, 3),  # default max_doublings 2: Kontra and Re
        ({"max_doublings": 0}, 1),
        ({"max_doublings": 1}, 2),
        ({"max_doublings": 5}, 6),
        ({}, -1),
    ],
)
def test_max_doublings_enforced(params, doublings):
    with pytest.raises(RuleError) as exc:
        play(
            "tarok",
            "fixed-direct",
            params,
            contract="hand",
            trump="eichel",
            points=75,
            doublings=doublings,
        )
    assert "doublings" in exc.value.fields


@pytest.mark.parametrize(
    ("points", "doublings", "result", "net"),
    [
        # declarer 50: the defenders took 70 ≥ 61 → declarer loses the smallest, 50 × 2
        (50, 1, "lost", direct(-100)),
        # declarer 60: the defenders took 60 < 61 → the declarer wins the smallest, 50 × 2
        (60, 1, "won", direct(100)),
        # declarer 61: defenders 59 → won, smallest 50 × 2
        (61, 1, "won", direct(100)),
        # declarer 59: defenders 61 → lost
        (59, 1, "lost", direct(-100)),
        # declarer 95: Schneider would be 60, but the burden shifted: smallest 50 × 2
        (95, 1, "won", direct(100)),
        # declarer 120 with every trick: still the smallest amount, 50 × 4 after Re
        (120, 2, "won", direct(200)),
        # declarer 20: defenders 100 → lost the smallest 50 × 4 (not Schneider 60)
        (20, 2, "lost", direct(-200)),
        # no Kontra: the param changes nothing; 50 lost, 95 Schneider won
        (50, 0, "lost", direct(-50)),
        (95, 0, "won", direct(60)),
    ],
)
def test_kontra_shifts_burden(points, doublings, result, net):
    check(
        "tarok",
        "fixed-direct",
        {"kontra_shifts_burden": True},
        dict(
            contract="hand",
            trump="eichel",
            points=points,
            doublings=doublings,
            all_tricks=points == 120,
        ),
        result,
        net,
    )


def test_kontra_shifts_burden_other_systems():
    # parlett-units hand bid 76: the defenders need 76; declarer 40 → defenders 80 → lost the
    # smallest hand loss 2·⌈1/5⌉ = 2 units = 20, × 2 for Kontra = 40 each
    check(
        "haferltarock",
        "parlett-units",
        {"kontra_shifts_burden": True},
        dict(contract="hand", bid=76, points=40, doublings=1),
        "lost",
        direct(-40),
    )
    # declarer 50: defenders 70 < 76 → won the smallest: 2 units = 20, × 2 = 40 each
    check(
        "haferltarock",
        "parlett-units",
        {"kontra_shifts_burden": True},
        dict(contract="hand", bid=76, points=50, doublings=1),
        "won",
        direct(40),
    )
    # points-kasse Frage 100: defenders 20 → won smallest: 1 point × ½ → 5; × 2 = 10 from the pot
    check(
        "tarok",
        "points-kasse",
        {"kontra_shifts_burden": True},
        dict(contract="frage", trump="gras", points=100, doublings=1),
        "won",
        from_pot(10),
    )


# --------------------------------------------------------------------------------------
# 3.3 multiples: Frage 1, Herz-Frage 1, Solo 2, Herzsolo 3, Bettel 4; +1 Schneider,
#     +1 Schwarz; unit 10; pocket; tie = loss
# --------------------------------------------------------------------------------------

MU = [
    # (contract, trump, points, all_tricks, no_tricks, result, per-defender units signed)
    ("frage", "gras", 0, False, True, "lost", -3),  # 1 + Schneider + Schwarz
    ("frage", "gras", 0, False, False, "lost", -2),  # 1 + Schneider
    ("frage", "gras", 29, False, False, "lost", -2),  # 1 + Schneider (≤ 29)
    ("frage", "gras", 30, False, True, "lost", -2),  # 1 + Schwarz (no trick; stock 30)
    ("frage", "gras", 30, False, False, "lost", -1),
    ("frage", "gras", 31, False, False, "lost", -1),
    ("frage", "gras", 55, False, False, "lost", -1),
    ("frage", "gras", 56, False, False, "lost", -1),
    ("frage", "gras", 59, False, False, "lost", -1),
    ("frage", "gras", 60, False, False, "lost", -1),  # tie = loss
    ("frage", "gras", 61, False, False, "won", 1),
    ("frage", "gras", 65, False, False, "won", 1),
    ("frage", "gras", 66, False, False, "won", 1),
    ("frage", "gras", 90, False, False, "won", 1),
    ("frage", "gras", 91, False, False, "won", 2),  # + Schneider
    ("frage", "gras", 119, False, False, "won", 2),
    ("frage", "gras", 120, False, False, "won", 2),
    ("frage", "gras", 120, True, False, "won", 3),  # + Schneider + Schwarz
    ("frage", "herz", 70, False, False, "won", 1),  # Herz-Frage (Neischaugn) 1
    ("frage", "herz", 91, False, False, "won", 2),
    ("hand", "eichel", 29, False, False, "lost", -3),  # Solo 2 + Schneider
    ("hand", "eichel", 30, False, False, "lost", -2),
    ("hand", "eichel", 60, False, False, "lost", -2),
    ("hand", "eichel", 61, False, False, "won", 2),
    ("hand", "eichel", 90, False, False, "won", 2),
    ("hand", "eichel", 91, False, False, "won", 3),
    ("hand", "eichel", 120, True, False, "won", 4),  # 2 + 1 + 1
    ("hand", "herz", 29, False, False, "lost", -4),  # Herzsolo 3 + Schneider
    ("hand", "herz", 61, False, False, "won", 3),
    ("hand", "herz", 90, False, False, "won", 3),
    ("hand", "herz", 91, False, False, "won", 4),
    ("hand", "herz", 120, True, False, "won", 5),  # 3 + 1 + 1
    ("hand", "herz", 0, False, True, "lost", -5),
]


@pytest.mark.parametrize(
    ("contract", "trump", "points", "all_tricks", "no_tricks", "result", "units"),
    MU,
    ids=[f"{c[0]}-{c[1]}-{c[2]}{'-durch' if c[3] else ''}{'-schwarz' if c[4] else ''}" for c in MU],
)
@pytest.mark.parametrize("game", ["tarok", "tarok-bettel"])
def test_multiples_pocket(game, contract, trump, points, all_tricks, no_tricks, result, units):
    hand = dict(
        contract=contract, trump=trump, points=points, all_tricks=all_tricks, no_tricks=no_tricks
    )
    check(game, "multiples", {}, hand, result, direct(units * 10))


@pytest.mark.parametrize(
    ("params", "hand", "result", "net"),
    [
        ({}, dict(contract="bettel", no_tricks=True), "won", direct(40)),  # 4 × 10
        ({}, dict(contract="bettel", no_tricks=False), "lost", direct(-40)),
        ({"unit_cents": 25}, dict(contract="bettel", no_tricks=True), "won", direct(100)),
        ({"tie": "draw"}, dict(contract="frage", trump="gras", points=60), "draw", NOTHING),
        ({"unit_cents": 20}, dict(contract="hand", trump="herz", points=91), "won", direct(80)),
        # pot payout: won → pot pays m·u; lost → each defender +m·u, declarer −m·u, pot −m·u
        ({"payout": "pot"}, dict(contract="frage", trump="gras", points=61), "won", from_pot(10)),
        ({"payout": "pot"}, dict(contract="hand", trump="herz", points=91), "won", from_pot(40)),
        ({"payout": "pot"}, dict(contract="frage", trump="gras", points=29), "lost", half_pot(20)),
        ({"payout": "pot"}, dict(contract="hand", trump="eichel", points=60), "lost", half_pot(20)),
        ({"payout": "pot"}, dict(contract="bettel", no_tricks=True), "won", from_pot(40)),
        ({"payout": "pot"}, dict(contract="bettel", no_tricks=False), "lost", half_pot(40)),
    ],
)
def test_multiples_bettel_params_and_pot(params, hand, result, net):
    check("tarok-bettel", "multiples", params, hand, result, net)


def test_multiples_pot_cap_and_kontra():
    # Herzsolo Durch from the pot: 5 × 10 = 50, Kontra ×2 = 100; the pot holds 70
    hand = dict(contract="hand", trump="herz", points=120, all_tricks=True, doublings=1)
    check("tarok", "multiples", {"payout": "pot"}, hand, "won", from_pot(100))
    score = check("tarok", "multiples", {"payout": "pot"}, hand, "won", from_pot(70), pot_cents=70)
    assert any("haferl holds only" in t.lower() for t in texts(score)[-1:])
    # pocket payout has no pot: pot_cents changes nothing
    check("tarok", "multiples", {}, hand, "won", direct(100), pot_cents=0)


# --------------------------------------------------------------------------------------
# 3.4 parlett-units: unit 10, tie = loss
# --------------------------------------------------------------------------------------

PA_FRAGE = [
    # won: the pot pays 1 + ⌊(p − 61)/5⌋ units
    (61, "won", from_pot(10)),  # 1
    (65, "won", from_pot(10)),  # 1 + ⌊4/5⌋ = 1
    (66, "won", from_pot(20)),  # 1 + 1
    (90, "won", from_pot(60)),  # 1 + ⌊29/5⌋ = 6
    (91, "won", from_pot(70)),  # 1 + 6 = 7
    (119, "won", from_pot(120)),  # 1 + ⌊58/5⌋ = 12
    (120, "won", from_pot(120)),  # 1 + ⌊59/5⌋ = 12
    # lost: m = 1 + ⌊(60 − p)/5⌋ to each defender, one from the declarer, one from the pot
    (60, "lost", half_pot(10)),  # tie = loss: 1
    (59, "lost", half_pot(10)),  # 1 + 0
    (56, "lost", half_pot(10)),  # 1 + ⌊4/5⌋ = 1
    (55, "lost", half_pot(20)),  # 1 + 1
    (31, "lost", half_pot(60)),  # 1 + ⌊29/5⌋ = 6
    (30, "lost", half_pot(70)),  # 1 + 6
    (29, "lost", half_pot(70)),  # 1 + ⌊31/5⌋ = 7
    (0, "lost", half_pot(130)),  # 1 + 12
]
PA_HAND = [
    # won: each defender pays 2 + 2·⌊(p − 61)/5⌋ units
    (61, "won", direct(20)),  # 2
    (65, "won", direct(20)),
    (66, "won", direct(40)),  # 2 + 2
    (90, "won", direct(120)),  # 2 + 2·5
    (91, "won", direct(140)),  # 2 + 2·6
    (120, "won", direct(240)),  # 2 + 2·11
    # lost: 2·⌈(61 − p)/5⌉ units to each defender
    (60, "lost", direct(-20)),  # 2·⌈1/5⌉ = 2
    (56, "lost", direct(-20)),  # 2·⌈5/5⌉ = 2
    (55, "lost", direct(-40)),  # 2·⌈6/5⌉ = 4
    (31, "lost", direct(-120)),  # 2·⌈30/5⌉ = 12
    (30, "lost", direct(-140)),  # 2·⌈31/5⌉ = 14
    (29, "lost", direct(-140)),  # 2·⌈32/5⌉ = 14
    (0, "lost", direct(-260)),  # 2·⌈61/5⌉ = 26
]


@pytest.mark.parametrize(("points", "result", "net"), PA_FRAGE, ids=[str(c[0]) for c in PA_FRAGE])
def test_parlett_frage(points, result, net):
    check("haferltarock", "parlett-units", {}, dict(contract="frage", points=points), result, net)


@pytest.mark.parametrize(("points", "result", "net"), PA_HAND, ids=[str(c[0]) for c in PA_HAND])
def test_parlett_hand(points, result, net):
    check("haferltarock", "parlett-units", {}, dict(contract="hand", points=points), result, net)


@pytest.mark.parametrize(
    ("bid", "points", "result", "net"),
    [
        (76, 76, "won", direct(20)),  # 2 + 2·0
        (76, 80, "won", direct(20)),  # 2 + 2·⌊4/5⌋
        (76, 81, "won", direct(40)),  # 2 + 2·1
        (76, 83, "won", direct(40)),  # source: bid 76, took 83 → 4 units from each
        (76, 75, "lost", direct(-20)),  # 2·⌈1/5⌉
        (76, 71, "lost", direct(-20)),  # 2·⌈5/5⌉
        (76, 70, "lost", direct(-40)),  # 2·⌈6/5⌉
        (76, 60, "lost", direct(-80)),  # 2·⌈16/5⌉ = 8
        (116, 116, "won", direct(20)),
        (116, 120, "won", direct(20)),  # 2 + 2·⌊4/5⌋
        (116, 115, "lost", direct(-20)),
        (116, 0, "lost", direct(-480)),  # 2·⌈116/5⌉ = 2·24 = 48
    ],
)
def test_parlett_hand_bids(bid, points, result, net):
    check(
        "haferltarock",
        "parlett-units",
        {},
        dict(contract="hand", bid=bid, points=points),
        result,
        net,
    )


@pytest.mark.parametrize(
    ("bid", "points", "result", "net"),
    [
        (66, 66, "won", from_pot(10)),  # 1 + ⌊(66 − 66)/5⌋
        (66, 70, "won", from_pot(10)),
        (66, 71, "won", from_pot(20)),  # 1 + 1
        (66, 65, "lost", half_pot(10)),  # 1 + ⌊(65 − 65)/5⌋
        (66, 61, "lost", half_pot(10)),  # 1 + ⌊4/5⌋
        (66, 60, "lost", half_pot(20)),  # 1 + ⌊5/5⌋
        (61, 61, "won", from_pot(10)),  # an unraised Frage is unchanged
    ],
)
def test_parlett_pickup_raises(bid, points, result, net):
    check(
        "haferltarock",
        "parlett-units",
        {"pickup_raises": True},
        dict(contract="frage", bid=bid, points=points),
        result,
        net,
    )


def test_parlett_pickup_raises_off_rejects_raised_frage():
    with pytest.raises(RuleError) as exc:
        play("haferltarock", "parlett-units", contract="frage", bid=66, points=70)
    assert "bid" in exc.value.fields


def test_parlett_tie_and_durch():
    check(
        "haferltarock",
        "parlett-units",
        {"tie": "draw"},
        dict(contract="frage", points=60),
        "draw",
        NOTHING,
    )
    check(
        "haferltarock",
        "parlett-units",
        {"tie": "draw"},
        dict(contract="hand", points=60),
        "draw",
        NOTHING,
    )
    # a draw is 60–60 against a target of 61 only: bid 66 with 60 loses 2·⌈6/5⌉ = 4 units
    check(
        "haferltarock",
        "parlett-units",
        {"tie": "draw"},
        dict(contract="hand", bid=66, points=60),
        "lost",
        direct(-40),
    )
    with pytest.raises(RuleError) as exc:
        play(
            "haferltarock",
            "parlett-units",
            contract="hand",
            bid="durch",
            points=120,
            all_tricks=True,
        )
    assert "bid" in exc.value.fields


def test_parlett_pot_cap():
    frage = dict(contract="frage", points=120)
    full, _ = play("haferltarock", "parlett-units", **frage)
    # 12 units = 120 due; the Haferl holds 100: it pays 100, a line notes the shortfall
    capped = check("haferltarock", "parlett-units", {}, frage, "won", from_pot(100), pot_cents=100)
    new = [t for t in texts(capped) if t not in texts(full)]
    assert len(new) == 1 and "haferl holds only" in new[0].lower() and "100" in new[0]
    # lost at 30: 7 units = 70 to each defender; the pot's share is capped at 50
    score, net = play("haferltarock", "parlett-units", pot_cents=50, contract="frage", points=30)
    assert score.result == "lost"
    assert net["Anton"] == -70 and net["pot"] == -50
    assert sorted([net["Berta"], net["Charlotte"]]) == [50, 70]
    # Kontra first, then the cap: 1 unit × 2 = 20 due, the pot holds 15
    check(
        "haferltarock",
        "parlett-units",
        {},
        dict(contract="frage", points=61, doublings=1),
        "won",
        from_pot(15),
        pot_cents=15,
    )
    # the hand game does not touch the pot: no cap
    check(
        "haferltarock",
        "parlett-units",
        {},
        dict(contract="hand", points=120),
        "won",
        direct(240),
        pot_cents=0,
    )


# --------------------------------------------------------------------------------------
# 3.5 levels: unit 10, tie = loss; count = 1 + hand + levels reached + raises
# --------------------------------------------------------------------------------------

LV = [
    # (contract, bid, points, all_tricks, result, net)
    ("frage", 61, 61, False, "won", from_pot(10)),  # 1
    ("frage", 61, 65, False, "won", from_pot(10)),  # 1 + ⌊4/5⌋
    ("frage", 61, 66, False, "won", from_pot(20)),  # 1 + 1
    ("frage", 61, 90, False, "won", from_pot(60)),  # 1 + ⌊29/5⌋ = 6
    ("frage", 61, 91, False, "won", from_pot(70)),  # 1 + 6
    ("frage", 61, 119, False, "won", from_pot(120)),  # 1 + 11
    ("frage", 61, 120, False, "won", from_pot(120)),  # 1 + 11
    ("frage", 61, 60, False, "lost", half_pot(10)),  # 1 + ⌊(60 − 60)/5⌋
    ("frage", 61, 59, False, "lost", half_pot(10)),  # 1 + ⌊1/5⌋
    ("frage", 61, 56, False, "lost", half_pot(10)),  # 1 + ⌊4/5⌋
    ("frage", 61, 55, False, "lost", half_pot(20)),  # 1 + 1
    ("frage", 61, 30, False, "lost", half_pot(70)),  # 1 + ⌊30/5⌋ = 7
    ("frage", 61, 31, False, "lost", half_pot(60)),  # 1 + ⌊29/5⌋ = 6
    ("frage", 61, 29, False, "lost", half_pot(70)),  # 1 + ⌊31/5⌋ = 7
    ("hand", 61, 61, False, "won", direct(20)),  # 1 + 1
    ("hand", 61, 65, False, "won", direct(20)),
    ("hand", 61, 66, False, "won", direct(30)),  # 1 + 1 + 1
    ("hand", 61, 91, False, "won", direct(80)),  # 2 + 6
    ("hand", 61, 120, False, "won", direct(130)),  # 2 + 11
    ("hand", 61, 60, False, "lost", direct(-20)),  # 1 + 1 + 0
    ("hand", 61, 55, False, "lost", direct(-30)),  # 2 + 1
    ("hand", 61, 31, False, "lost", direct(-70)),  # 2 + ⌊29/5⌋ = 7
    ("hand", 61, 30, False, "lost", direct(-80)),  # 2 + ⌊30/5⌋ = 8
    ("hand", 61, 29, False, "lost", direct(-80)),  # 2 + 6
    ("hand", 71, 82, False, "won", direct(80)),  # source: 1 + 1 + 4 + 2 = 8
    ("hand", 71, 70, False, "lost", direct(-40)),  # 1 + 1 + 2 raises + ⌊(70 − 70)/5⌋ = 4
    ("hand", 71, 66, False, "lost", direct(-40)),  # 4 + ⌊4/5⌋ = 4
    ("hand", 71, 65, False, "lost", direct(-50)),  # 4 + ⌊5/5⌋ = 5
    ("hand", 116, 115, False, "lost", direct(-130)),  # 1 + 1 + 11 + 0 = 13
    # Durch bid: 12 raises; made: + 12 levels
    ("hand", "durch", 120, True, "won", direct(260)),  # 1 + 1 + 12 + 12 = 26
    ("hand", "durch", 120, False, "lost", direct(-140)),  # 1 + 1 + 12 + 0 = 14
    ("hand", "durch", 110, False, "lost", direct(-140)),  # a lost Durch: no fives counted
    ("hand", "durch", 0, False, "lost", direct(-140)),
]


@pytest.mark.parametrize(
    ("contract", "bid", "points", "all_tricks", "result", "net"),
    LV,
    ids=[f"{c[0]}-{c[1]}-{c[2]}{'-durch' if c[3] else ''}" for c in LV],
)
def test_levels(contract, bid, points, all_tricks, result, net):
    check(
        "haferltarock",
        "levels",
        {},
        dict(contract=contract, bid=bid, points=points, all_tricks=all_tricks),
        result,
        net,
    )


@pytest.mark.parametrize(
    ("bid", "points", "units"),
    [
        # bid 71 made with exactly 71: 1 (won) + 1 (hand) + ⌊(71 − 61)/5⌋ = 2 levels + 2 raises
        (71, 71, 6),
        # bid 116 made with 116: 1 + 1 + ⌊55/5⌋ = 11 levels + 11 raises = 24
        (116, 116, 24),
        # bid 116, 120 with every trick (no Durch bid): 1 + 1 + 11 + 11 = 24
        (116, 120, 24),
    ],
)
def test_levels_raised_bid_made(bid, points, units):
    check(
        "haferltarock",
        "levels",
        {},
        dict(contract="hand", bid=bid, points=points),
        "won",
        direct(units * 10),
    )


def test_levels_durch_only_as_hand_and_tie():
    with pytest.raises(RuleError) as exc:
        play("haferltarock", "levels", contract="frage", bid="durch", points=120, all_tricks=True)
    assert "bid" in exc.value.fields
    check(
        "haferltarock",
        "levels",
        {"tie": "draw"},
        dict(contract="frage", points=60),
        "draw",
        NOTHING,
    )
    check(
        "haferltarock", "levels", {"tie": "draw"}, dict(contract="hand", points=60), "draw", NOTHING
    )
    # Kontra on a Durch bid: 26 × 10 × 2 = 520 from each defender
    check(
        "haferltarock",
        "levels",
        {},
        dict(contract="hand", bid="durch", points=120, all_tricks=True, doublings=1),
        "won",
        direct(520),
    )


# --------------------------------------------------------------------------------------
# 3.6 danyliuk-cents: tie = loss
# --------------------------------------------------------------------------------------

DY = [
    # Frage won: 5 + max(0, p − 65) from the pot
    ("frage", 61, 61, "won", from_pot(5)),
    ("frage", 61, 65, "won", from_pot(5)),
    ("frage", 61, 66, "won", from_pot(6)),  # 5 + 1
    ("frage", 61, 90, "won", from_pot(30)),  # 5 + 25
    ("frage", 61, 91, "won", from_pot(31)),
    ("frage", 61, 119, "won", from_pot(59)),  # 5 + 54
    ("frage", 61, 120, "won", from_pot(60)),
    # Frage lost: 5 + max(0, 56 − p), one defender from the declarer, one from the pot
    ("frage", 61, 60, "lost", half_pot(5)),
    ("frage", 61, 59, "lost", half_pot(5)),
    ("frage", 61, 56, "lost", half_pot(5)),
    ("frage", 61, 55, "lost", half_pot(6)),  # 5 + 1
    ("frage", 61, 31, "lost", half_pot(30)),  # 5 + 25
    ("frage", 61, 30, "lost", half_pot(31)),
    ("frage", 61, 29, "lost", half_pot(32)),
    # hand won: 10 + 2·max(0, p − 65) from each defender
    ("hand", 61, 61, "won", direct(10)),
    ("hand", 61, 65, "won", direct(10)),
    ("hand", 61, 66, "won", direct(12)),
    ("hand", 61, 90, "won", direct(60)),  # 10 + 2·25
    ("hand", 61, 91, "won", direct(62)),
    ("hand", 61, 120, "won", direct(120)),  # 10 + 2·55
    # hand lost: 10 + 2·max(0, 56 − p) to each defender
    ("hand", 61, 60, "lost", direct(-10)),
    ("hand", 61, 56, "lost", direct(-10)),
    ("hand", 61, 55, "lost", direct(-12)),
    ("hand", 61, 30, "lost", direct(-62)),  # 10 + 2·26
    ("hand", 61, 29, "lost", direct(-64)),
    # bid 76: the bands move with the target: won 10 + 2·max(0, p − 80),
    # lost 10 + 2·max(0, 71 − p)
    ("hand", 76, 76, "won", direct(10)),
    ("hand", 76, 80, "won", direct(10)),
    ("hand", 76, 81, "won", direct(12)),
    ("hand", 76, 75, "lost", direct(-10)),
    ("hand", 76, 71, "lost", direct(-10)),
    ("hand", 76, 70, "lost", direct(-12)),
    ("hand", 76, 60, "lost", direct(-32)),  # 10 + 2·11
]


@pytest.mark.parametrize(
    ("contract", "bid", "points", "result", "net"),
    DY,
    ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in DY],
)
def test_danyliuk(contract, bid, points, result, net):
    check(
        "haferltarock",
        "danyliuk-cents",
        {},
        dict(contract=contract, bid=bid, points=points),
        result,
        net,
    )


def test_danyliuk_tie_draw_and_cap():
    check(
        "haferltarock",
        "danyliuk-cents",
        {"tie": "draw"},
        dict(contract="frage", points=60),
        "draw",
        NOTHING,
    )
    # Frage 120: 60 due, the Haferl holds 45
    check(
        "haferltarock",
        "danyliuk-cents",
        {},
        dict(contract="frage", points=120),
        "won",
        from_pot(45),
        pot_cents=45,
    )


# --------------------------------------------------------------------------------------
# 3.7 scharf-fixed: solo 10, Schneider +10, Schwarz +10; Frage won half, lost full; tie loss
# --------------------------------------------------------------------------------------

SF = [
    # (contract, points, all_tricks, no_tricks, result, net)
    ("hand", 61, False, False, "won", direct(10)),
    ("hand", 65, False, False, "won", direct(10)),
    ("hand", 66, False, False, "won", direct(10)),
    ("hand", 90, False, False, "won", direct(10)),
    ("hand", 91, False, False, "won", direct(20)),  # + Schneider
    ("hand", 119, False, False, "won", direct(20)),
    ("hand", 120, False, False, "won", direct(20)),  # all points but no Durch flag
    ("hand", 120, True, False, "won", direct(30)),  # + Schneider + Schwarz
    ("hand", 60, False, False, "lost", direct(-10)),  # tie = loss
    ("hand", 59, False, False, "lost", direct(-10)),
    ("hand", 56, False, False, "lost", direct(-10)),
    ("hand", 55, False, False, "lost", direct(-10)),
    ("hand", 31, False, False, "lost", direct(-10)),
    ("hand", 30, False, False, "lost", direct(-10)),
    ("hand", 29, False, False, "lost", direct(-20)),  # + Schneider
    ("hand", 10, False, True, "lost", direct(-20)),  # no trick, but the stock held 10: no Schwarz
    ("hand", 0, False, True, "lost", direct(-30)),  # no trick and 0 points: Schwarz
    ("hand", 0, False, False, "lost", direct(-20)),
    ("frage", 61, False, False, "won", direct(5)),  # 10 / 2
    ("frage", 90, False, False, "won", direct(5)),
    ("frage", 91, False, False, "won", direct(10)),  # 20 / 2 (source)
    ("frage", 120, True, False, "won", direct(15)),  # 30 / 2
    ("frage", 60, False, False, "lost", direct(-10)),  # lost: the full value
    ("frage", 30, False, False, "lost", direct(-10)),
    ("frage", 29, False, False, "lost", direct(-20)),  # (source: 20 to each defender)
    ("frage", 0, False, True, "lost", direct(-30)),
]


@pytest.mark.parametrize(
    ("contract", "points", "all_tricks", "no_tricks", "result", "net"),
    SF,
    ids=[f"{c[0]}-{c[1]}{'-durch' if c[2] else ''}{'-notrick' if c[3] else ''}" for c in SF],
)
def test_scharf_fixed(contract, points, all_tricks, no_tricks, result, net):
    hand = dict(
        contract=contract, trump="herz", points=points, all_tricks=all_tricks, no_tricks=no_tricks
    )
    check("scharfer-tarock", "scharf-fixed", {}, hand, result, net)
    if contract == "hand":  # the Solo in another suit pays like the Herzsolo
        check("scharfer-tarock", "scharf-fixed", {}, dict(hand, trump="eichel"), result, net)


def test_scharf_fixed_params():
    check(
        "scharfer-tarock",
        "scharf-fixed",
        {"tie": "draw"},
        dict(contract="hand", trump="herz", points=60),
        "draw",
        NOTHING,
    )
    # 20 + 30 Schneider + 40 Schwarz = 90
    check(
        "scharfer-tarock",
        "scharf-fixed",
        {"solo_cents": 20, "schneider_cents": 30, "schwarz_cents": 40},
        dict(contract="hand", trump="herz", points=120, all_tricks=True),
        "won",
        direct(90),
    )
    # Frage won with 15: 15/2 = 7.5 → 8 (whole cents, halves up)
    check(
        "scharfer-tarock",
        "scharf-fixed",
        {"solo_cents": 15},
        dict(contract="frage", trump="herz", points=61),
        "won",
        direct(8),
    )
    # Kontra: 20 × 2 from each defender
    check(
        "scharfer-tarock",
        "scharf-fixed",
        {},
        dict(contract="hand", trump="herz", points=95, doublings=1),
        "won",
        direct(40),
    )


# --------------------------------------------------------------------------------------
# 3.8 tapp-points: Dreier 3, Unterer 4, Oberer 5, Solo 8; 10 ct per point; 36 of 70
# --------------------------------------------------------------------------------------

TAPP = [
    ("dreier", 0, "lost", direct(-30)),
    ("dreier", 26, "lost", direct(-30)),
    ("dreier", 27, "lost", direct(-30)),
    ("dreier", 34, "lost", direct(-30)),
    ("dreier", 35, "lost", direct(-30)),  # no draw: 35 loses
    ("dreier", 36, "won", direct(30)),
    ("dreier", 44, "won", direct(30)),
    ("dreier", 45, "won", direct(30)),
    ("dreier", 70, "won", direct(30)),
    ("unterer", 35, "lost", direct(-40)),
    ("unterer", 36, "won", direct(40)),
    ("oberer", 35, "lost", direct(-50)),
    ("oberer", 36, "won", direct(50)),
    ("solo", 35, "lost", direct(-80)),
    ("solo", 36, "won", direct(80)),
]


@pytest.mark.parametrize(
    ("contract", "points", "result", "net"), TAPP, ids=[f"{c[0]}-{c[1]}" for c in TAPP]
)
def test_tapp_contracts(contract, points, result, net):
    check("tapp-tarock", "tapp-points", {}, dict(contract=contract, points=points), result, net)


TAPP_BONUSES = [
    # (contract, points, bonuses, result, net points n → each defender pays n × 10)
    ("dreier", 40, [bonus("koepfe")], "won", 4),  # 3 + 1
    ("dreier", 40, [bonus("trull")], "won", 6),  # 3 + 3
    ("dreier", 40, [bonus("koenigstrull")], "won", 6),  # 3 + 3
    ("dreier", 40, [bonus("koenigstrull", "defenders")], "won", 0),  # 3 − 3
    ("dreier", 30, [bonus("trull", "defenders")], "lost", -6),  # −3 − 3
    ("dreier", 40, [bonus("pagat_ultimo")], "won", 7),  # silent 4: 3 + 4
    ("dreier", 40, [bonus("pagat_ultimo", made=False)], "won", 3),  # silent, not made: 0
    ("dreier", 40, [bonus("pagat_ultimo", announced=True)], "won", 11),  # announced 8
    ("unterer", 36, [bonus("pagat_ultimo", announced=True)], "won", 12),  # 4 + 8 (vector)
    ("dreier", 40, [bonus("pagat_ultimo", announced=True, made=False)], "won", -5),  # 3 − 8
    ("dreier", 40, [bonus("pagat_ultimo", "defenders")], "won", -1),  # 3 − 4
    # Pagat doubled in a Solo: silent 8, announced 16
    ("solo", 40, [bonus("pagat_ultimo")], "won", 16),  # 8 + 8
    ("solo", 40, [bonus("pagat_ultimo", announced=True)], "won", 24),  # 8 + 16
    ("solo", 40, [bonus("pagat_ultimo", announced=True, made=False)], "won", -8),  # 8 − 16
    ("solo", 30, [bonus("pagat_ultimo", announced=True, made=False)], "lost", -24),  # −8 − 16
    ("solo", 40, [bonus("pagat_ultimo", "defenders")], "won", 0),  # 8 − 8
    ("solo", 30, [bonus("pagat_ultimo", "defenders")], "lost", -16),  # −8 − 8
    # several at once: Oberer lost −5, Trull +3, defenders' Köpfe −1 → −3
    ("oberer", 30, [bonus("trull"), bonus("koepfe", "defenders")], "lost", -3),
    # Köpfe for both sides cancel: 3 + 1 − 1
    ("dreier", 40, [bonus("koepfe"), bonus("koepfe", "defenders")], "won", 3),
    # Valat replaces the contract and every other bonus
    ("dreier", 70, [bonus("valat")], "won", 12),  # silent 12
    ("solo", 70, [bonus("valat"), bonus("trull"), bonus("pagat_ultimo")], "won", 12),
    ("dreier", 70, [bonus("valat", announced=True)], "won", 24),  # announced 24
    ("solo", 70, [bonus("valat", announced=True), bonus("koenigstrull")], "won", 24),
    ("dreier", 0, [bonus("valat", "defenders")], "lost", -12),  # the defenders' Valat
    ("solo", 0, [bonus("valat", "defenders"), bonus("trull")], "lost", -12),
]


@pytest.mark.parametrize(
    ("contract", "points", "bonuses", "result", "n"),
    TAPP_BONUSES,
    ids=[
        f"{c[0]}-{c[1]}-"
        + "+".join(
            f"{b.id}.{b.side[:3]}{'.ann' if b.announced else ''}{'' if b.made else '.fail'}"
            for b in c[2]
        )
        for c in TAPP_BONUSES
    ],
)
def test_tapp_bonuses(contract, points, bonuses, result, n):
    check(
        "tapp-tarock",
        "tapp-points",
        {},
        dict(contract=contract, points=points, bonuses=bonuses),
        result,
        direct(n * 10),
    )


def test_tapp_point_cents():
    check(
        "tapp-tarock",
        "tapp-points",
        {"point_cents": 25},
        dict(contract="solo", points=50, bonuses=[bonus("trull")]),
        "won",
        direct(275),  # (8 + 3) × 25
    )


@pytest.mark.parametrize(
    ("hand", "field"),
    [
        (dict(contract="dreier", points=40, doublings=1), "doublings"),  # no Kontra in Tapp
        (dict(contract="dreier", points=69, bonuses=[bonus("valat")]), "bonuses"),  # Valat = 70
        (dict(contract="dreier", points=5, bonuses=[bonus("valat", "defenders")]), "bonuses"),
        (dict(contract="dreier", points=40, bonuses=[bonus("koepfe", announced=True)]), "bonuses"),
        (dict(contract="dreier", points=40, bonuses=[bonus("trull", announced=True)]), "bonuses"),
        (
            dict(
                contract="dreier",
                points=40,
                bonuses=[bonus("pagat_ultimo", "defenders", announced=True)],
            ),
            "bonuses",
        ),  # only the declarer announces
        (
            dict(
                contract="dreier",
                points=70,
                bonuses=[bonus("pagat_ultimo", announced=True), bonus("valat", announced=True)],
            ),
            "bonuses",
        ),  # one of the two
        (dict(contract="dreier", points=40, bonuses=[bonus("koepfe"), bonus("koepfe")]), "bonuses"),
        (dict(contract="dreier", points=40, bonuses=[bonus("uhu")]), "bonuses"),
        (dict(contract="dreier", points=36, bid=66), "bid"),
        (dict(contract="dreier", points=71), "points"),
        (dict(contract="hand", points=40), "contract"),
    ],
)
def test_tapp_rejections(hand, field):
    with pytest.raises(RuleError) as exc:
        play("tapp-tarock", "tapp-points", **hand)
    assert field in exc.value.fields


# --------------------------------------------------------------------------------------
# 3.9 Strohmandeln: Beck, Furr, Mayr & Sedlaczek; 10 ct per point, two players
# --------------------------------------------------------------------------------------

SM = [
    # (system, contract, points, result, signed game points)
    ("beck", "game", 0, "lost", -3),
    ("beck", "game", 26, "lost", -3),  # Beck has no big win: 3
    ("beck", "game", 27, "lost", -3),
    ("beck", "game", 34, "lost", -3),
    ("beck", "game", 35, "draw", 0),  # 35–35: a draw, nothing but bonuses
    ("beck", "game", 36, "won", 2),
    ("beck", "game", 44, "won", 2),
    ("beck", "game", 45, "won", 2),  # no big win: 2
    ("beck", "game", 70, "won", 2),
    ("beck", "passed", 34, "lost", -1),
    ("beck", "passed", 35, "draw", 0),
    ("beck", "passed", 36, "won", 1),
    ("furr", "game", 0, "lost", -5),
    ("furr", "game", 26, "lost", -5),  # the defender has 44: big win 5
    ("furr", "game", 27, "lost", -4),  # the defender has 43: simple 4
    ("furr", "game", 34, "lost", -4),
    ("furr", "game", 35, "draw", 0),
    ("furr", "game", 36, "won", 3),
    ("furr", "game", 44, "won", 3),
    ("furr", "game", 45, "won", 4),  # big win ≥ 45
    ("furr", "game", 70, "won", 4),
    ("furr", "passed", 26, "lost", -2),  # after both passed: 2, no big win
    ("furr", "passed", 34, "lost", -2),
    ("furr", "passed", 35, "draw", 0),
    ("furr", "passed", 36, "won", 2),
    ("furr", "passed", 45, "won", 2),
    ("mayr-sedlaczek", "game", 26, "lost", -4),  # no big win: 4
    ("mayr-sedlaczek", "game", 27, "lost", -4),
    ("mayr-sedlaczek", "game", 34, "lost", -4),
    ("mayr-sedlaczek", "game", 35, "draw", 0),
    ("mayr-sedlaczek", "game", 36, "won", 3),
    ("mayr-sedlaczek", "game", 44, "won", 3),
    ("mayr-sedlaczek", "game", 45, "won", 3),
    ("mayr-sedlaczek", "passed", 34, "lost", -2),
    ("mayr-sedlaczek", "passed", 36, "won", 2),
]


@pytest.mark.parametrize(
    ("system", "contract", "points", "result", "n"), SM, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in SM]
)
def test_strohmandeln(system, contract, points, result, n):
    check("strohmandeln", system, {}, dict(contract=contract, points=points), result, duel(n * 10))


SM_BONUSES = [
    # (system, params, points, bonuses, result, n)
    ("beck", {}, 40, [bonus("trull")], "won", 3),  # 2 + Trull held 1
    ("beck", {}, 40, [bonus("koenigstrull", "defenders")], "won", 1),  # 2 − 1
    ("beck", {}, 40, [bonus("pagat_ultimo")], "won", 3),  # 2 + 1
    ("beck", {}, 40, [bonus("pagat_ultimo", made=False)], "won", 1),  # lost bird: 2 − 1
    ("beck", {}, 30, [bonus("pagat_ultimo", "defenders", made=False)], "lost", -2),  # −3 + 1
    ("beck", {"mondfang": True}, 40, [bonus("mondfang")], "won", 3),  # 2 + 1
    ("furr", {}, 40, [bonus("trull")], "won", 4),  # 3 + Trull won 1
    ("furr", {}, 40, [bonus("uhu")], "won", 4),
    ("furr", {}, 40, [bonus("kakadu"), bonus("quapil")], "won", 5),
    ("furr", {}, 40, [bonus("rostopschin")], "won", 4),
    # birds played and lost score for the opponent
    ("furr", {}, 40, [bonus("uhu", made=False)], "won", 2),  # 3 − 1
    ("furr", {}, 40, [bonus("pagat_ultimo", "defenders", made=False)], "won", 4),  # 3 + 1
    ("furr", {}, 40, [bonus("kakadu"), bonus("quapil", made=False)], "won", 3),  # 3 + 1 − 1
    ("furr", {}, 50, [bonus("uhu", "defenders")], "won", 3),  # big win 4 − 1
    ("furr", {}, 20, [bonus("pagat_ultimo", "defenders")], "lost", -6),  # big loss −5 − 1
    ("furr", {}, 40, [bonus("trull", made=False)], "won", 3),  # a Trull not made: nothing
    # Valat (every trick) replaces everything else
    ("furr", {}, 70, [bonus("valat")], "won", 12),
    ("furr", {}, 70, [bonus("valat"), bonus("pagat_ultimo"), bonus("trull")], "won", 12),
    ("furr", {}, 0, [bonus("valat", "defenders")], "lost", -12),
    ("mayr-sedlaczek", {}, 70, [bonus("valat"), bonus("uhu")], "won", 12),
    ("mayr-sedlaczek", {}, 40, [bonus("quapil")], "won", 4),  # 3 + 1
    ("mayr-sedlaczek", {}, 40, [bonus("kakadu", made=False)], "won", 2),  # 3 − 1
    ("mayr-sedlaczek", {"mondfang": True}, 30, [bonus("mondfang", "defenders")], "lost", -5),
    # a draw pays only the bonuses
    ("beck", {}, 35, [bonus("pagat_ultimo")], "draw", 1),
    ("furr", {}, 35, [bonus("trull", "defenders")], "draw", -1),
    ("furr", {}, 35, [bonus("uhu"), bonus("kakadu", made=False)], "draw", 0),  # 1 − 1
    # draw_is_loss: 35–35 loses the simple amount
    ("beck", {"draw_is_loss": True}, 35, [], "lost", -3),
    ("furr", {"draw_is_loss": True}, 35, [], "lost", -4),  # defender 35 < 44: no big win
    ("mayr-sedlaczek", {"draw_is_loss": True}, 35, [bonus("pagat_ultimo")], "lost", -3),  # −4 + 1
    # point_cents
    ("beck", {"point_cents": 50}, 40, [bonus("trull")], "won", 15),  # (2 + 1) × 50 = 150 ct
]


@pytest.mark.parametrize(
    ("system", "params", "points", "bonuses", "result", "n"),
    SM_BONUSES,
    ids=[
        f"{c[0]}-{c[2]}-"
        + ("+".join(f"{b.id}.{b.side[:3]}{'' if b.made else '.lost'}" for b in c[3]) or "none")
        + ("-" + "-".join(c[1]) if c[1] else "")
        for c in SM_BONUSES
    ],
)
def test_strohmandeln_bonuses(system, params, points, bonuses, result, n):
    check(
        "strohmandeln",
        system,
        params,
        dict(contract="game", points=points, bonuses=bonuses),
        result,
        duel(n * 10),
    )


def test_strohmandeln_passed_draw_is_loss():
    # both passed, 35 each, draw_is_loss: the named player loses the "passed" amount
    check(
        "strohmandeln",
        "beck",
        {"draw_is_loss": True},
        dict(contract="passed", points=35),
        "lost",
        duel(-10),
    )
    check(
        "strohmandeln",
        "furr",
        {"draw_is_loss": True},
        dict(contract="passed", points=35),
        "lost",
        duel(-20),
    )


@pytest.mark.parametrize(
    ("system", "params", "bonus_id"),
    [
        ("beck", {}, "uhu"),  # Beck has no Uhu, Kakadu, Quapil, Rostopschin, Valat
        ("beck", {}, "kakadu"),
        ("beck", {}, "quapil"),
        ("beck", {}, "rostopschin"),
        ("beck", {}, "valat"),
        ("mayr-sedlaczek", {}, "rostopschin"),
        ("furr", {}, "mondfang"),  # Mondfang while the param is off
        ("beck", {}, "mondfang"),
        ("mayr-sedlaczek", {"mondfang": False}, "mondfang"),
        ("furr", {}, "koepfe"),  # a Tapp bonus
        ("furr", {"bonus_uhu": False}, "uhu"),  # switched off for the session
        ("beck", {"bonus_trull": False}, "trull"),
    ],
)
def test_strohmandeln_bonus_not_in_table(system, params, bonus_id):
    with pytest.raises(RuleError) as exc:
        play("strohmandeln", system, params, contract="game", points=40, bonuses=[bonus(bonus_id)])
    assert "bonuses" in exc.value.fields


@pytest.mark.parametrize(
    ("hand", "field"),
    [
        (dict(contract="game", points=40, doublings=1), "doublings"),
        (dict(contract="game", points=69, all_tricks=True), "all_tricks"),
        (dict(contract="game", points=0, no_tricks=True), "no_tricks"),
        (dict(contract="game", points=71), "points"),
        (dict(contract="hand", points=40), "contract"),
    ],
)
def test_strohmandeln_rejections(hand, field):
    with pytest.raises(RuleError) as exc:
        play("strohmandeln", "furr", **hand)
    assert field in exc.value.fields


@pytest.mark.parametrize(
    ("system", "points", "factor", "result", "n"),
    [
        ("beck", 40, 2, "won", 4),  # 2 × 2 after one draw
        ("beck", 40, 4, "won", 8),  # 2 × 4 after two draws in a row
        ("furr", 45, 2, "won", 8),  # big win 4 × 2
        ("furr", 20, 2, "lost", -10),  # big loss 5 × 2
        ("mayr-sedlaczek", 30, 2, "lost", -8),  # 4 × 2
        ("beck", 35, 2, "draw", 0),  # a draw after a draw: still nothing but bonuses
    ],
)
def test_strohmandeln_factor_after_draw(system, points, factor, result, n):
    score = check(
        "strohmandeln",
        system,
        {},
        dict(contract="game", points=points),
        result,
        duel(n * 10),
        factor=factor,
    )
    assert any(f"×{factor}" in t or f"x{factor}" in t for t in texts(score))


def test_strohmandeln_factor_doubles_bonuses():
    # a draw with a Pagat, doubled: (0 + 1) × 2 = 2 points = 20 ct
    check(
        "strohmandeln",
        "furr",
        {},
        dict(contract="game", points=35, bonuses=[bonus("pagat_ultimo")]),
        "draw",
        duel(20),
        factor=2,
    )


# --------------------------------------------------------------------------------------
# Validation of the Bavarian games that scoring depends on
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "system", "params", "hand", "field"),
    [
        ("tarok", "points-kasse", {}, dict(contract="bettel", no_tricks=True), "contract"),
        (
            "tarok-bettel",
            "multiples",
            {},
            dict(contract="bettel", points=0, no_tricks=True),
            "points",
        ),
        (
            "tarok-bettel",
            "multiples",
            {},
            dict(contract="bettel", trump="herz", no_tricks=True),
            "trump",
        ),
        (
            "tarok",
            "fixed-direct",
            {},
            dict(contract="hand", trump="eichel", points=90, all_tricks=True),
            "all_tricks",
        ),
        (
            "tarok",
            "fixed-direct",
            {},
            dict(contract="hand", trump="eichel", points=0, all_tricks=True, no_tricks=True),
            "all_tricks",
        ),
        (
            "tarok",
            "fixed-direct",
            {},
            dict(contract="hand", trump="eichel", points=50, no_tricks=True),
            "no_tricks",
        ),
        (
            "tarok",
            "fixed-direct",
            {},
            dict(contract="hand", trump="eichel", points=66, bid=66),
            "bid",
        ),
        ("haferltarock", "parlett-units", {}, dict(contract="hand", points=70, bid=63), "bid"),
        ("haferltarock", "parlett-units", {}, dict(contract="hand", points=70, bid=121), "bid"),
        ("haferltarock", "danyliuk-cents", {}, dict(contract="frage", points=70, bid=66), "bid"),
        ("haferltarock", "levels", {}, dict(contract="frage", points=70, bid=66), "bid"),
        (
            "tarok",
            "multiples",
            {"frage_hearts_only": True},
            dict(contract="frage", trump="gras", points=70),
            "trump",
        ),
        (
            "scharfer-tarock",
            "scharf-fixed",
            {},
            dict(contract="frage", trump="gras", points=70),
            "trump",
        ),
    ],
)
def test_bavarian_rejections(game, system, params, hand, field):
    with pytest.raises(RuleError) as exc:
        play(game, system, params, **hand)
    assert field in exc.value.fields


def test_frage_hearts_only_and_berliner_accept_the_legal_hand():
    check(
        "tarok",
        "multiples",
        {"frage_hearts_only": True},
        dict(contract="frage", trump="herz", points=70),
        "won",
        direct(10),
    )
    # Berliner: the dealer's Frage is fine, a hand game by anyone is fine
    check(
        "tarok",
        "multiples",
        {"berliner": True},
        dict(contract="frage", trump="gras", points=70, dealer="Anton"),
        "won",
        direct(10),
    )
    check(
        "tarok",
        "multiples",
        {"berliner": True},
        dict(contract="hand", trump="gras", points=70, dealer="Berta"),
        "won",
        direct(20),
    )
    with pytest.raises(RuleError) as exc:
        play(
            "tarok",
            "multiples",
            {"berliner": True},
            contract="frage",
            trump="gras",
            points=70,
            dealer="Berta",
        )
    assert "contract" in exc.value.fields


def test_rules_build_is_reusable():
    rules = Rules.build("tarok", "fixed-direct", {"win_cents": 40})
    a = rules.score(P3, Hand("Anton", "hand", trump="eichel", points=75))
    b = rules.score(P3, Hand("Berta", "hand", trump="eichel", points=45))
    assert a.net(P3) == {"Anton": 80, "Berta": -40, "Charlotte": -40}
    # Berta declares and loses: she pays 40 to each of Anton and Charlotte
    assert b.net(P3) == {"Anton": 40, "Berta": -80, "Charlotte": 40}
