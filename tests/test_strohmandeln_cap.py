"""Strohmandeln's doubling after a draw, held at the cap `max_draw_factor` (RULES.md §3.9:
"35–35 is a draw: only bonuses are paid and the next hand counts double (a second draw in a
row doubles again)"; the cap is a [decision] of scorer/domain/strohmandeln.py).

Every expected figure is worked out from the rules, not copied from the output: the factor
after `n` draws in a row is `min(2**n, cap)`, and a hand pays its table's points ×
`point_cents` × that factor.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.domain import GAMES, SYSTEMS, Bonus, Hand, RuleError
from scorer.domain.ledger import Ledger, LedgerState
from scorer.domain.message import Msg
from scorer.domain.model import POT
from scorer.domain.scoring import Rules
from scorer.domain.strohmandeln import DRAW_FACTORS, TABLES
from scorer.i18n.catalogue import say
from scorer.i18n.words import speaking
from tests.conftest import DefaultFields, dispose, make_app

PLAYERS = ("A", "B")
SYSTEM_IDS = tuple(TABLES)


def book(system: str = "beck", **params: Any) -> Ledger:
    return Ledger(Rules.build("strohmandeln", system, params), PLAYERS, "A")


def draw(declarer: str = "A", *bonuses: Bonus) -> Hand:
    return Hand(declarer=declarer, contract="game", points=35, bonuses=bonuses)


def won(declarer: str = "B", points: int = 40) -> Hand:
    """A declarer's simple win (36–44) in every table."""
    return Hand(declarer=declarer, contract="game", points=points)


def draws_then(n: int, last: Hand, ledger: Ledger):
    """`n` draws in a row (alternating declarers), then `last`: (entries, state)."""
    hands = [(i + 1, draw("AB"[i % 2]), None) for i in range(n)]
    return ledger.fold([*hands, (n + 1, last, None)])


def expected_factor(draws: int, cap: int) -> int:
    """RULES.md §3.9: each draw in a row doubles; the decision: never beyond the cap."""
    return min(2**draws, cap)


CAPPED = "the cap: further draws do not double it"


# --- the default cap: three draws in a row ----------------------------------------------------


def test_the_default_cap_is_8():
    assert Rules.build("strohmandeln", "beck", {}).params["max_draw_factor"] == 8
    for system_id in SYSTEM_IDS:
        names = [p.name for p in GAMES["strohmandeln"].all_params(SYSTEMS[system_id])]
        assert "max_draw_factor" in names


def test_factor_after_two_three_and_four_draws_with_the_default_cap():
    ledger = book()
    state = ledger.start()
    factors = [state.factor]
    for number in range(1, 5):
        _, state = ledger.play(state, number, draw("AB"[number % 2]))
        factors.append(state.factor)
    # 0 draws ×1, 1 draw ×2, 2 draws ×4, 3 draws ×8 (the cap), 4 draws still ×8
    assert factors == [1, 2, 4, 8, 8]


def test_entries_record_the_factor_they_were_played_at():
    entries, state = draws_then(5, won(), book())
    assert [e.factor for e in entries] == [expected_factor(n, 8) for n in range(6)]
    assert [e.factor for e in entries] == [1, 2, 4, 8, 8, 8]
    assert state.factor == 1, "a hand that is not a draw starts the count again"


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
@pytest.mark.parametrize("cap", [None, *DRAW_FACTORS])
def test_a_hundred_draws_then_a_win_pays_the_hand_times_the_cap(system_id, cap):
    params = {} if cap is None else {"max_draw_factor": cap}
    ledger = book(system_id, **params)
    cap = ledger.rules.params["max_draw_factor"]
    entries, state = draws_then(100, won("B", 40), ledger)

    assert all(e.score.result == "draw" for e in entries[:100])
    assert all(e.net == {"A": 0, "B": 0, POT: 0} for e in entries[:100]), "draws pay nothing"
    assert max(e.factor for e in entries) == cap
    # RULES.md §3.9: the declarer's simple win (36–44) is the table's `win` points; the
    # loser pays the winner points × point_cents, here times the factor after 100 draws.
    factor = expected_factor(100, cap)
    assert factor == cap
    cents = TABLES[system_id].win * ledger.rules.params["point_cents"] * factor
    last = entries[-1]
    assert last.factor == cap
    assert last.net == {"A": -cents, "B": cents, POT: 0}
    assert state.balances == {"A": -cents, "B": cents}
    assert state.factor == 1


def test_a_hundred_draws_pay_their_bonuses_at_most_at_the_cap():
    # Beck: a Pagat Ultimo is 1 point = 10 ct; in a draw only the bonuses are paid.
    pagat = Bonus("pagat_ultimo", "declarer", False, True)
    ledger = book("beck")
    hands = [(i + 1, draw("A", pagat), None) for i in range(100)]
    entries, state = ledger.fold(hands)
    paid = [e.net["A"] for e in entries]
    assert paid == [10 * expected_factor(n, 8) for n in range(100)]
    assert state.balances == {"A": sum(paid), "B": -sum(paid)}
    assert state.factor == 8


def test_with_cap_1_a_draw_never_doubles():
    ledger = book("furr", max_draw_factor=1)
    entries, state = draws_then(10, won("B", 40), ledger)
    assert [e.factor for e in entries] == [1] * 11
    assert state.factor == 1
    # Furr: the declarer's simple win = 3 points × 10 ct, counted once.
    assert entries[-1].net == {"A": -30, "B": 30, POT: 0}
    texts = [str(line.text) for e in entries for line in e.score.explanation]
    assert not any("after a draw" in t for t in texts)


def test_with_cap_1_the_state_after_each_draw_stays_1():
    ledger = book(max_draw_factor=1)
    state = ledger.start()
    for number in range(1, 6):
        _, state = ledger.play(state, number, draw())
        assert state.factor == 1


def test_draw_doubles_next_false_still_wins_over_the_cap():
    entries, state = draws_then(3, won(), book(draw_doubles_next=False, max_draw_factor=64))
    assert [e.factor for e in entries] == [1, 1, 1, 1]


@settings(max_examples=60, deadline=None)
@given(
    cap=st.sampled_from(DRAW_FACTORS),
    results=st.lists(st.sampled_from([35, 40, 20]), max_size=30),
)
def test_the_factor_is_a_power_of_two_and_never_above_the_cap(cap, results):
    ledger = book("mayr-sedlaczek", max_draw_factor=cap)
    hands = [(i + 1, won("AB"[i % 2], p), None) for i, p in enumerate(results)]
    entries, state = ledger.fold(hands)
    run = 0  # draws in a row before the hand
    for entry, points in zip(entries, results, strict=True):
        assert entry.factor == expected_factor(run, cap)
        run = run + 1 if points == 35 else 0
    assert state.factor == expected_factor(run, cap)
    for factor in [*(e.factor for e in entries), state.factor]:
        assert 1 <= factor <= cap and factor & (factor - 1) == 0


def test_a_saved_state_above_the_cap_is_played_at_the_cap():
    # A session saved while the doubling had no cap may hold ×16: it now counts ×8.
    ledger = book()
    state = LedgerState.from_json({**ledger.start().to_json(), "factor": 16})
    entry, after = ledger.play(state, 5, won("B", 40))
    assert entry.factor == 8
    assert entry.net == {"A": -2 * 10 * 8, "B": 2 * 10 * 8, POT: 0}
    _, after = ledger.play(state, 5, draw())
    assert after.factor == 8


def test_scoring_alone_never_multiplies_by_more_than_the_cap():
    rules = Rules.build("strohmandeln", "beck", {"max_draw_factor": 4})
    plain = rules.score(PLAYERS, won("B", 40)).net([*PLAYERS, POT])
    scaled = rules.score(PLAYERS, won("B", 40), factor=2**40).net([*PLAYERS, POT])
    assert scaled == {name: cents * 4 for name, cents in plain.items()}


# --- the explanation says when the factor is at the cap ---------------------------------------


def factor_lines(entry) -> list[str]:
    return [str(line.text) for line in entry.score.explanation if "after a draw" in str(line.text)]


def test_the_explanation_says_when_the_factor_is_capped():
    entries, _ = draws_then(4, won(), book())
    # factors 1, 2, 4, 8, 8: no line at ×1, a plain line below the cap, the cap said at ×8
    assert factor_lines(entries[0]) == []
    assert factor_lines(entries[1]) == ["after a draw this hand counts ×2"]
    assert factor_lines(entries[2]) == ["after a draw this hand counts ×4"]
    assert factor_lines(entries[3]) == [f"after a draw this hand counts ×8, {CAPPED}"]
    assert factor_lines(entries[4]) == [f"after a draw this hand counts ×8, {CAPPED}"]


def test_the_capped_line_is_in_german(app):
    capped = Msg(f"after a draw this hand counts ×%(factor)s, {CAPPED}", {"factor": 8})
    plain = Msg("after a draw this hand counts ×%(factor)s", {"factor": 4})
    with app.test_request_context(), speaking("de"):
        assert say(capped) == (
            "nach einem Unentschieden zählt dieses Spiel ×8, die Obergrenze: weitere "
            "Unentschieden verdoppeln nicht mehr"
        )
        assert say(plain) == "nach einem Unentschieden zählt dieses Spiel ×4"


# --- the parameter is validated ---------------------------------------------------------------


@pytest.mark.parametrize("value", [0, -8, 3, 5, 65, 128, 2**63, "8", 8.0, True, None, [8]])
def test_a_cap_out_of_range_is_refused_naming_the_parameter(value):
    with pytest.raises(RuleError) as caught:
        Rules.build("strohmandeln", "beck", {"max_draw_factor": value})
    assert set(caught.value.fields) == {"params.max_draw_factor"}
    (message,) = caught.value.fields["params.max_draw_factor"]
    assert str(message) in ("must be one of: 1, 2, 4, 8, 16, 32, 64", "must be a whole number")


def test_the_refusal_reads_in_german(app):
    with pytest.raises(RuleError) as caught:
        Rules.build("strohmandeln", "beck", {"max_draw_factor": 3})
    (message,) = caught.value.fields["params.max_draw_factor"]
    with app.test_request_context(), speaking("de"):
        assert say(message) == "bitte eines wählen: 1, 2, 4, 8, 16, 32, 64"


@pytest.mark.parametrize("value", DRAW_FACTORS)
def test_every_power_of_two_up_to_64_is_a_cap(value):
    assert (
        Rules.build("strohmandeln", "furr", {"max_draw_factor": value}).params["max_draw_factor"]
        == value
    )


def test_other_games_have_no_cap():
    with pytest.raises(RuleError) as caught:
        Rules.build("tarok", "points-kasse", {"max_draw_factor": 8})
    assert "params.max_draw_factor" in caught.value.fields


# --- through the web: the API, the new-table form and the rules page --------------------------


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("cap"))
    yield app.test_client()
    dispose(app)


def test_api_refuses_a_bad_cap_with_422(client):
    body = {
        "game": "strohmandeln",
        "system": "beck",
        "params": {"max_draw_factor": 100},
        "players": list(PLAYERS),
        "hand": {"declarer": "A", "contract": "game", "points": 40},
    }
    response = client.post("/api/v1/score", json=body)
    assert response.status_code == 422
    assert "params.max_draw_factor" in response.get_json()["error"]["fields"]


def test_api_lists_the_cap_with_its_default(client):
    games = {g["id"]: g for g in client.get("/api/v1/games").get_json()}
    for system in games["strohmandeln"]["systems"]:
        assert system["params"]["max_draw_factor"] == 8


def test_rules_page_lists_the_cap(client):
    html = client.get("/regeln/strohmandeln").get_data(as_text=True)
    assert "Höchstens ×: 8" in html  # in players' words


def test_new_table_form_offers_the_powers_of_two_with_8_chosen(client):
    html = client.get("/neu?game=strohmandeln&system=beck").get_data(as_text=True)
    parser = DefaultFields()
    parser.feed(html)
    assert parser.values["param_max_draw_factor"] == "8"
    select = html[html.index('<select id="param_max_draw_factor"') :]
    select = select[: select.index("</select>")]
    assert re.findall(r'<option[^>]*value="(\d+)"', select) == [str(v) for v in DRAW_FACTORS]


def test_new_table_form_saves_the_chosen_cap_and_refuses_another(client):
    parser = DefaultFields()
    parser.feed(client.get("/neu?game=strohmandeln&system=beck").get_data(as_text=True))
    data = {
        "game": "strohmandeln",
        "system": "beck",
        "name": "Zu zweit",
        "first_dealer": "0",
        "player_0": "A",
        "player_1": "B",
        **parser.values,
    }
    refused = client.post("/neu", data={**data, "param_max_draw_factor": "5"})
    assert refused.status_code == 422
    assert "bitte eines wählen: 1, 2, 4, 8, 16, 32, 64" in refused.get_data(as_text=True)
    created = client.post("/neu", data={**data, "param_max_draw_factor": "2"})
    assert created.status_code == 302, created.get_data(as_text=True)[:2000]
    key = created.headers["Location"].rstrip("/").rsplit("/", 1)[-1]
    session = client.get(f"/api/v1/sessions/{key}").get_json()
    assert session["params"]["max_draw_factor"] == 2
