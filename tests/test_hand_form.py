"""The hand form round-trips every hand the rules accept, for every game and system.

Two trips, both through the real pages:

- **entry**: the fields a player taps for a hand are posted to the table page; the stored
  hand is the hand (every field posted is one the page has);
- **edit**: a hand stored through the API is opened on the edit page and saved without a
  change (the browser posts what the page prefilled); the stored hand and its money stay
  as they were.

Hands come from two sources: the property tests' valid hands, and hands drawn from every
field's whole range, kept only when the rules accept them.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from scorer.domain import GAMES, Bonus, Hand, RuleError, commands
from scorer.domain.ledger import Ledger
from scorer.domain.scoring import BIDS, SUITS, Rules
from scorer.services import tables
from scorer.store.database import db
from tests.conftest import PostedFields
from tests.support.strategies import HANDS, PAIR_IDS, PAIRS, PLAYERS, bavarian_hands
from tests.support.strategies import tables as rules_tables

ROUND_TRIP = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.function_scoped_fixture,
        HealthCheck.data_too_large,
    ],
)


@st.composite
def any_hands(draw, rules: Rules, declarer: str, players, **_: Any) -> Hand:
    """A hand from the whole range of every field; many are refused and filtered out."""
    game = rules.game
    bonuses = []
    for bonus_id in game.bonus_ids(rules.system.id, rules.params):
        for side in ("declarer", "defenders"):
            if draw(st.integers(0, 3)) == 0:
                bonuses.append(Bonus(bonus_id, side, draw(st.booleans()), draw(st.booleans())))
    return Hand(
        declarer=declarer,
        contract=draw(st.sampled_from(list(game.contracts))),
        trump=draw(st.one_of(st.none(), st.sampled_from(SUITS))),
        bid=draw(st.sampled_from([61, 61, *BIDS, "durch"])),
        points=draw(st.one_of(st.none(), st.integers(0, game.total))),
        all_tricks=draw(st.booleans()),
        no_tricks=draw(st.booleans()),
        doublings=draw(st.integers(0, 5)),
        bonuses=tuple(draw(st.permutations(bonuses))),
    )


@st.composite
def accepted_hands(draw, game_id: str, system_id: str):
    """(raw params, players, hand): a hand the ledger accepts as the first of the evening."""
    raw = draw(rules_tables(game_id, system_id))
    rules = Rules.build(game_id, system_id, raw)
    players = PLAYERS[rules.game.active]
    declarer = draw(st.sampled_from(players))
    valid = HANDS.get(game_id, bavarian_hands)
    hand = draw(st.one_of(valid(rules, declarer, players), any_hands(rules, declarer, players)))
    hand = Hand.from_json(hand.to_json())  # the form carries no dealer
    ledger = Ledger(rules, players, players[-1])
    try:
        ledger.play(ledger.start(), 1, hand)
    except RuleError:
        assume(False)
    return raw, players, hand


def tapped(hand: Hand) -> dict[str, Any]:
    """The fields a player sets on the table page for `hand`."""
    fields: dict[str, Any] = {"declarer": hand.declarer, "contract": hand.contract}
    if hand.doublings:
        fields["doublings"] = str(hand.doublings)
    if hand.trump:
        fields["trump"] = hand.trump
    if hand.bid == "durch":  # the bid, then made or lost: once
        fields["durch"] = "y"
        fields["durch_result"] = "made" if hand.all_tricks else "lost"
    elif hand.bid != 61:
        fields["bid"] = str(hand.bid)
    if hand.points is not None:
        fields["points"] = str(hand.points)
    if hand.contract == "bettel":  # won or lost, tapped explicitly
        fields["bettel"] = "won" if hand.no_tricks else "lost"
    else:
        for flag in ("all_tricks", "no_tricks"):
            if getattr(hand, flag) and not (flag == "all_tricks" and hand.bid == "durch"):
                fields[flag] = "y"
    states = {(False, True): "made", (False, False): "lost", (True, True): "announced"}
    states[(True, False)] = "announced_failed"
    for bonus in hand.bonuses:
        fields[f"bonus_{bonus.id}__{bonus.side}"] = states[(bonus.announced, bonus.made)]
    return fields


def same_hand(stored: dict[str, Any], hand: Hand) -> None:
    """The stored facts are `hand`'s (bonuses compared as a set: their order means nothing)."""
    expected = hand.to_json()
    key = lambda b: (b["id"], b["side"])  # noqa: E731
    assert sorted(stored["bonuses"], key=key) == sorted(expected["bonuses"], key=key)
    assert {**stored, "bonuses": None} == {**expected, "bonuses": None}


def new_table(app, game_id: str, system_id: str, raw: dict, players) -> str:
    with app.app_context():
        session = tables.create_session(
            commands.open_table(
                name="Runde",
                game=game_id,
                system=system_id,
                params=raw,
                players=list(players),
                first_dealer=players[-1],
            )
        )
        db.session.commit()
        return session.key


def stored_hands(client, key: str) -> list[dict[str, Any]]:
    return client.get(f"/api/v1/sessions/{key}").get_json()["hands"]


def posted_fields(client, url: str) -> PostedFields:
    page = client.get(url)
    assert page.status_code == 200
    parser = PostedFields("hand-form")
    parser.feed(page.get_data(as_text=True))
    return parser


@pytest.mark.parametrize(("game_id", "system_id"), PAIRS, ids=PAIR_IDS)
@ROUND_TRIP
@given(data=st.data())
def test_the_entry_form_stores_the_hand_tapped(app, client, game_id, system_id, data):
    raw, players, hand = data.draw(accepted_hands(game_id, system_id))
    params = Rules.build(game_id, system_id, raw).params
    # Where a trump changes nothing, the page does not ask for one.
    assume(hand.trump is None or GAMES[game_id].asks_trump(params))
    key = new_table(app, game_id, system_id, raw, players)
    fields = tapped(hand)
    offered = posted_fields(client, f"/t/{key}").names
    assert set(fields) <= offered, "every field tapped is on the page"
    response = client.post(f"/t/{key}/spiel", data=fields)
    assert response.status_code == 302, response.get_data(as_text=True)[-2000:]
    [stored] = stored_hands(client, key)
    same_hand(stored["hand"], hand)


@pytest.mark.parametrize(("game_id", "system_id"), PAIRS, ids=PAIR_IDS)
@ROUND_TRIP
@given(data=st.data())
def test_saving_the_edit_form_unchanged_changes_nothing(app, client, game_id, system_id, data):
    raw, players, hand = data.draw(accepted_hands(game_id, system_id))
    key = new_table(app, game_id, system_id, raw, players)
    recorded = client.post(f"/api/v1/sessions/{key}/hands", json=hand.to_json())
    assert recorded.status_code == 201, recorded.get_json()
    [before] = stored_hands(client, key)
    fields = posted_fields(client, f"/t/{key}/spiele/1").values
    response = client.post(f"/t/{key}/spiele/1", data=MultiDict(fields))
    assert response.status_code == 302, response.get_data(as_text=True)[-2000:]
    [after] = stored_hands(client, key)
    same_hand(after["hand"], hand)
    assert after["net"] == before["net"]
    lines = lambda hand: sorted(line["text"] for line in hand["explanation"])  # noqa: E731
    assert lines(after) == lines(before)


@pytest.mark.parametrize(
    ("game_id", "system_id", "players", "hand"),
    [
        # The defenders announced Rostopschin: saving unchanged once moved it to the declarer.
        (
            "strohmandeln",
            "furr",
            ("Anton", "Berta"),
            Hand("Anton", "game", points=40, bonuses=(Bonus("rostopschin", "defenders", True),)),
        ),
        # Köpfe for both sides: saving unchanged once kept one side only.
        (
            "tapp-tarock",
            "tapp-points",
            ("Anton", "Berta", "Charlotte"),
            Hand(
                "Anton",
                "dreier",
                points=40,
                bonuses=(Bonus("koepfe", "declarer"), Bonus("koepfe", "defenders")),
            ),
        ),
    ],
    ids=["rostopschin-defenders", "koepfe-both-sides"],
)
def test_the_bugs_the_review_found_stay_fixed(app, client, game_id, system_id, players, hand):
    key = new_table(app, game_id, system_id, {}, players)
    assert client.post(f"/api/v1/sessions/{key}/hands", json=hand.to_json()).status_code == 201
    [before] = stored_hands(client, key)
    fields = posted_fields(client, f"/t/{key}/spiele/1").values
    assert client.post(f"/t/{key}/spiele/1", data=MultiDict(fields)).status_code == 302
    [after] = stored_hands(client, key)
    same_hand(after["hand"], hand)
    assert after["net"] == before["net"]
