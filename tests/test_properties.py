"""Property tests: for every game and every payment system of it, random valid hands.

- nets (players and "pot") sum to 0, every posting carries cents > 0, accounts are players
  or the pot, and a system without a pot never touches it;
- without a cap, with the other facts fixed, the declarer's net never falls as his card
  points rise (sweep 0..total);
- Kontra/Re multiply the amounts by 2^k, Strohmandeln's factor multiplies them (up to the
  table's `max_draw_factor`);
- the balances do not depend on the seat order of the players.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.domain import GAMES, SYSTEMS, Hand, RuleError
from scorer.domain.scoring import Rules
from tests.support.strategies import HANDS, PAIR_IDS, PAIRS, PLAYERS, bavarian_hands, tables

BAVARIAN = {"tarok", "tarok-bettel", "haferltarock", "scharfer-tarock"}

FAST = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def test_every_pair_is_covered():
    assert len(PAIRS) == 14  # 3 + 3 + 3 + 1 + 1 + 3
    assert {s for _, s in PAIRS} == set(SYSTEMS)


# ---- strategies --------------------------------------------------------------------------


@st.composite
def deals(draw, game_id: str, system_id: str, amounts: bool = True, **kwargs: Any):
    rules = Rules.build(game_id, system_id, draw(tables(game_id, system_id, amounts)))
    players = PLAYERS[rules.game.active]
    declarer = draw(st.sampled_from(players))
    hand = draw(HANDS.get(game_id, bavarian_hands)(rules, declarer, players, **kwargs))
    factor = draw(st.sampled_from([1, 2, 4])) if game_id == "strohmandeln" else 1
    return rules, players, hand, factor


def accounts(players) -> list[str]:
    return [*players, "pot"]


def declarer_net(rules: Rules, players, hand: Hand, **kwargs: Any) -> int:
    return rules.score(players, hand, **kwargs).net(accounts(players))[hand.declarer]


# ---- properties --------------------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "system_id"), PAIRS, ids=PAIR_IDS)
@FAST
@given(data=st.data())
def test_nets_balance_and_postings_are_positive(game_id, system_id, data):
    rules, players, hand, factor = data.draw(deals(game_id, system_id))
    pot_cents = data.draw(st.one_of(st.none(), st.integers(0, 500)))
    score = rules.score(players, hand, pot_cents=pot_cents, factor=factor)
    net = score.net(accounts(players))
    assert set(net) == set(accounts(players)), "no account outside the players and the pot"
    assert sum(net.values()) == 0
    for posting in score.postings:
        assert posting.cents > 0
        assert isinstance(posting.cents, int)
        assert posting.from_account != posting.to_account
    assert score.result in ("won", "lost", "draw")
    assert score.explanation
    if not rules.has_pot:
        assert net["pot"] == 0
    if pot_cents is not None:
        assert -net["pot"] <= pot_cents, "the pot never pays more than it holds"
    if game_id in BAVARIAN:
        # no bonuses here: the result's sign is the declarer's
        sign = {"won": 1, "lost": -1, "draw": 0}[score.result]
        assert net[hand.declarer] * sign >= 0
        if score.result == "draw":
            assert all(v == 0 for v in net.values())


@pytest.mark.parametrize(("game_id", "system_id"), PAIRS, ids=PAIR_IDS)
@FAST  # each example sweeps every point count 0..total
@given(data=st.data())
def test_declarer_net_never_falls_as_points_rise(game_id, system_id, data):
    rules, players, hand, factor = data.draw(
        deals(game_id, system_id, amounts=False, valat_made=False)
    )
    if hand.contract == "bettel":
        hand = replace(hand, contract="hand", trump=hand.trump or "eichel", no_tricks=False)
    base = replace(hand, all_tricks=False, no_tricks=False)
    total = rules.game.total
    nets = [
        declarer_net(rules, players, replace(base, points=p), factor=factor)
        for p in range(total + 1)
    ]
    for p in range(total):
        assert nets[p] <= nets[p + 1], f"{nets[p]} at {p} points but {nets[p + 1]} at {p + 1}"
    if game_id in BAVARIAN:
        # every trick is worth at least as much as all the points; no trick at most as much
        durch = declarer_net(rules, players, replace(base, points=total, all_tricks=True))
        assert durch >= nets[total]
        schwarz = declarer_net(rules, players, replace(base, points=0, no_tricks=True))
        assert schwarz <= nets[0]


BAVARIAN_PAIRS = [(g, s) for g, s in PAIRS if g in BAVARIAN]


@pytest.mark.parametrize(
    ("game_id", "system_id"), BAVARIAN_PAIRS, ids=[f"{g}/{s}" for g, s in BAVARIAN_PAIRS]
)
@FAST
@given(data=st.data())
def test_kontra_multiplies_by_two_to_the_k(game_id, system_id, data):
    rules, players, hand, _ = data.draw(deals(game_id, system_id))
    rules = replace(
        rules, params={**rules.params, "max_doublings": 5, "kontra_shifts_burden": False}
    )
    plain = rules.score(players, replace(hand, doublings=0)).net(accounts(players))
    k = data.draw(st.integers(1, 5))
    doubled = rules.score(players, replace(hand, doublings=k)).net(accounts(players))
    assert doubled == {name: cents * 2**k for name, cents in plain.items()}


@pytest.mark.parametrize("system_id", GAMES["strohmandeln"].systems)
@FAST
@given(data=st.data())
def test_strohmandeln_factor_multiplies(system_id, data):
    rules, players, hand, _ = data.draw(deals("strohmandeln", system_id))
    factor = data.draw(st.sampled_from([2, 4, 8, 16, 128]))
    plain = rules.score(players, hand).net(accounts(players))
    scaled = rules.score(players, hand, factor=factor).net(accounts(players))
    # never by more than the table's cap on the doubling after draws
    counted = min(factor, rules.params["max_draw_factor"])
    assert scaled == {name: cents * counted for name, cents in plain.items()}


@pytest.mark.parametrize(("game_id", "system_id"), PAIRS, ids=PAIR_IDS)
@FAST
@given(data=st.data())
def test_balances_do_not_depend_on_seat_order(game_id, system_id, data):
    rules, players, hand, factor = data.draw(deals(game_id, system_id))
    shuffled = data.draw(st.permutations(players))
    a = rules.score(players, hand, factor=factor).net(accounts(players))
    b = rules.score(shuffled, hand, factor=factor).net(accounts(players))
    assert a == b


@pytest.mark.parametrize(("game_id", "system_id"), PAIRS, ids=PAIR_IDS)
@FAST
@given(data=st.data())
def test_generated_hands_are_valid_and_scoring_is_deterministic(game_id, system_id, data):
    rules, players, hand, factor = data.draw(deals(game_id, system_id))
    try:
        first = rules.score(players, hand, factor=factor)
    except RuleError as exc:  # pragma: no cover - a failure message, not a branch
        pytest.fail(f"a legal hand was refused: {exc.fields} for {hand}")
    assert rules.score(players, hand, factor=factor) == first
