"""Card points (RULES.md §1): the Bavarian count, the Tarock count in threes and the
declarer's points from the defenders'."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.domain import RuleError
from scorer.domain.cardpoints import bavarian_points, declarer_points, tarock_points
from scorer.domain.message import Msg

# ---- Bavarian: Ace 11, Ten 10, King 4, Ober 3, Unter 2, four of each ----------------------


@pytest.mark.parametrize(
    ("counts", "points"),
    [
        ({}, 0),
        ({"aces": 1}, 11),
        ({"tens": 1}, 10),
        ({"kings": 1}, 4),
        ({"obers": 1}, 3),
        ({"unters": 1}, 2),
        ({"aces": 0, "tens": 0}, 0),
        ({"tens": 2, "kings": 1}, 24),  # 20 + 4
        ({"obers": 3, "unters": 4}, 17),  # 9 + 8
        ({"aces": 4, "tens": 4}, 84),  # 44 + 40
        ({"aces": 2, "tens": 1, "kings": 3, "obers": 2, "unters": 1}, 52),  # 22+10+12+6+2
        ({"aces": 4, "tens": 4, "kings": 4, "obers": 4, "unters": 4}, 120),  # 4 × 30
    ],
)
def test_bavarian_points(counts, points):
    assert bavarian_points(counts) == points


@settings(max_examples=100, deadline=None)
@given(
    counts=st.fixed_dictionaries(
        {k: st.integers(0, 4) for k in ("aces", "tens", "kings", "obers", "unters")}
    )
)
def test_bavarian_piles_add_up_to_120(counts):
    rest = {name: 4 - n for name, n in counts.items()}
    assert bavarian_points(counts) + bavarian_points(rest) == 120


@pytest.mark.parametrize(
    ("counts", "field"),
    [
        ({"nines": 1}, "nines"),
        ({"aces": 5}, "aces"),
        ({"unters": -1}, "unters"),
        ({"tens": True}, "tens"),
        ({"kings": 1.0}, "kings"),
        ({"obers": "2"}, "obers"),
        ({"obers": None}, "obers"),
    ],
)
def test_bavarian_points_rejections(counts, field):
    with pytest.raises(RuleError) as exc:
        bavarian_points(counts)
    assert field in exc.value.fields
    assert exc.value.fields[field] and all(isinstance(m, Msg) for m in exc.value.fields[field])


# ---- Tarock: counted in threes: sum of values − ⅔ per card, ⅓ down, ⅔ up -------------------

ALL = {"honours_kings": 7, "queens": 4, "cavaliers": 4, "jacks": 4}


@pytest.mark.parametrize(
    ("counts", "cards", "points"),
    [
        ({}, 0, 0),
        ({}, 1, 0),  # 1 − ⅔ = ⅓ → down to 0
        ({}, 2, 1),  # 2 − 4/3 = ⅔ → up to 1
        ({}, 3, 1),  # 3 − 2 = 1: three blanks make one point
        ({}, 27, 9),  # 27 − 18
        ({"honours_kings": 1}, 1, 4),  # 5 − ⅔ = 4⅓ → 4
        ({"honours_kings": 1}, 2, 5),  # 6 − 4/3 = 4⅔ → 5
        ({"honours_kings": 1}, 3, 5),  # 7 − 2 = 5: a King with two blanks
        ({"honours_kings": 1}, 4, 5),  # 8 − 8/3 = 5⅓ → 5
        ({"honours_kings": 1}, 5, 6),  # 9 − 10/3 = 5⅔ → 6
        ({"honours_kings": 2}, 2, 9),  # 10 − 4/3 = 8⅔ → 9
        ({"queens": 1}, 1, 3),  # 4 − ⅔ = 3⅓ → 3
        ({"queens": 1}, 3, 4),  # 6 − 2
        ({"cavaliers": 1}, 3, 3),  # 5 − 2
        ({"jacks": 1}, 3, 2),  # 4 − 2
        ({"cavaliers": 1, "jacks": 1}, 2, 4),  # 5 − 4/3 = 3⅔ → 4
        ({"honours_kings": 3, "queens": 1}, 6, 17),  # 15 + 4 + 2 − 4 = 17
        (ALL, 19, 58),  # 71 − 38/3 = 58⅓ → 58: every counting card, no blank
        (ALL, 54, 70),  # 71 + 35 blanks − 36 = 70: the whole pack
    ],
)
def test_tarock_points(counts, cards, points):
    assert tarock_points(counts, cards) == points


def test_whole_pack_is_70():
    assert tarock_points(ALL, 54) == 70
    assert tarock_points(dict(ALL), cards=54) == 70


@st.composite
def splits(draw):
    """The 54 cards split between the declarer's pile and the defenders'."""
    mine = {name: draw(st.integers(0, top)) for name, top in ALL.items()}
    blanks = draw(st.integers(0, 35))
    theirs = {name: top - mine[name] for name, top in ALL.items()}
    cards = sum(mine.values()) + blanks
    return mine, cards, theirs, 54 - cards


@settings(max_examples=200, deadline=None)
@given(split=splits())
def test_tarock_piles_add_up_to_70(split):
    mine, cards, theirs, their_cards = split
    a, b = tarock_points(mine, cards), tarock_points(theirs, their_cards)
    assert a + b == 70
    assert 0 <= a <= 70 and 0 <= b <= 70


@pytest.mark.parametrize(
    ("counts", "cards", "field"),
    [
        ({"honours_kings": 8}, 8, "honours_kings"),
        ({"queens": 5}, 5, "queens"),
        ({"cavaliers": -1}, 3, "cavaliers"),
        ({"jacks": True}, 3, "jacks"),
        ({"jacks": 1.5}, 3, "jacks"),
        ({"pagat": 1}, 3, "pagat"),
        ({"queens": 2}, 1, "cards"),  # fewer cards than the counted ones
        ({}, 55, "cards"),
        ({}, -1, "cards"),
        ({}, True, "cards"),
        ({}, 3.0, "cards"),
    ],
)
def test_tarock_points_rejections(counts, cards, field):
    with pytest.raises(RuleError) as exc:
        tarock_points(counts, cards)
    assert field in exc.value.fields


# ---- the declarer's points from the defenders' -------------------------------------------


@pytest.mark.parametrize(
    ("defender_points", "total", "points"),
    [
        (49, 120, 71),
        (0, 120, 120),
        (120, 120, 0),
        (60, 120, 60),
        (30, 70, 40),
        (0, 70, 70),
        (70, 70, 0),
    ],
)
def test_declarer_points(defender_points, total, points):
    assert declarer_points(defender_points, total) == points


@pytest.mark.parametrize(("defender_points", "total"), [(-1, 120), (121, 120), (71, 70), (-5, 70)])
def test_declarer_points_rejections(defender_points, total):
    with pytest.raises(RuleError) as exc:
        declarer_points(defender_points, total)
    assert "defender_points" in exc.value.fields


def test_defender_points_through_the_api(client):
    body = {
        "game": "tapp-tarock",
        "system": "tapp-points",
        "players": ["Anton", "Berta", "Charlotte"],
        "hand": {"declarer": "Anton", "contract": "dreier", "defender_points": 34},
    }
    # the declarer has 70 − 34 = 36: the Dreier is won, 3 × 10 from each defender
    response = client.post("/api/v1/score", json=body)
    assert response.status_code == 200
    assert response.get_json()["net"] == {"Anton": 60, "Berta": -30, "Charlotte": -30, "pot": 0}
    body["hand"]["defender_points"] = 71
    response = client.post("/api/v1/score", json=body)
    assert response.status_code == 422
    assert "defender_points" in response.get_json()["error"]["fields"]
