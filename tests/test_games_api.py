"""GET /api/v1/games: every game of RULES.md §2 with its contracts, players and payment
systems, and every system's parameters with the defaults of RULES.md §1 and §3."""

from __future__ import annotations

import pytest

from tests.conftest import dispose, make_app

GAMES = {
    # game id: (players at the table, contracts, systems) as RULES.md §2 lists them
    "tarok": ([3, 4], ["frage", "hand"], ["points-kasse", "fixed-direct", "multiples"]),
    "tarok-bettel": (
        [3, 4],
        ["frage", "hand", "bettel"],
        ["points-kasse", "fixed-direct", "multiples"],
    ),
    "haferltarock": ([3, 4], ["frage", "hand"], ["parlett-units", "levels", "danyliuk-cents"]),
    "scharfer-tarock": ([3], ["frage", "hand"], ["scharf-fixed"]),
    "tapp-tarock": ([3], ["dreier", "unterer", "oberer", "solo"], ["tapp-points"]),
    "strohmandeln": ([2], ["game", "passed"], ["beck", "furr", "mayr-sedlaczek"]),
}

POT = {"stake_cents", "refill", "pot_at_end"}
POT_DEFAULTS = {"refill": True, "pot_at_end": "split"}
KONTRA = {"max_doublings": 2, "kontra_shifts_burden": False}

# the defaults RULES.md gives for each system (a subset of what the API lists)
DEFAULTS = {
    "points-kasse": {
        "stake_cents": 100,
        "rate_frage": 0.5,
        "rate_hand": 1,
        "rounding": "up5",
        "bettel_cents": 20,
        "tie": "draw",
        **POT_DEFAULTS,
    },
    "fixed-direct": {
        "win_cents": 50,
        "schneider_cents": 60,
        "frage_factor": 0.5,
        "bettel_factor": 4,
        "tie": "draw",
    },
    "multiples": {"unit_cents": 10, "payout": "pocket", "stake_cents": 100, "tie": "loss"},
    "parlett-units": {
        "unit_cents": 10,
        "stake_cents": 100,
        "tie": "loss",
        "pickup_raises": False,
        **POT_DEFAULTS,
    },
    "levels": {"unit_cents": 10, "stake_cents": 100, "tie": "loss", **POT_DEFAULTS},
    "danyliuk-cents": {"stake_cents": 50, "tie": "loss", **POT_DEFAULTS},
    "scharf-fixed": {
        "solo_cents": 10,
        "schneider_cents": 10,
        "schwarz_cents": 10,
        "bankroll_cents": 1000,
        "tie": "loss",
    },
    "tapp-points": {"point_cents": 10},
    "beck": {
        "point_cents": 10,
        "draw_is_loss": False,
        "draw_doubles_next": True,
        "mondfang": False,
    },
    "furr": {
        "point_cents": 10,
        "draw_is_loss": False,
        "draw_doubles_next": True,
        "mondfang": False,
    },
    "mayr-sedlaczek": {
        "point_cents": 10,
        "draw_is_loss": False,
        "draw_doubles_next": True,
        "mondfang": False,
    },
}
GAME_DEFAULTS = {
    "tarok": {"berliner": False, "frage_hearts_only": False, **KONTRA},
    "tarok-bettel": {"berliner": False, "frage_hearts_only": False, **KONTRA},
    "haferltarock": {"berliner": False, "frage_hearts_only": False, **KONTRA},
    "scharfer-tarock": {"berliner": False, **KONTRA},
    "tapp-tarock": {},
    "strohmandeln": {},
}


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("games"))
    yield app.test_client()
    dispose(app)


@pytest.fixture(scope="module")
def games(api):
    response = api.get("/api/v1/games")
    assert response.status_code == 200
    assert response.is_json
    return {game["id"]: game for game in response.get_json()}


def test_six_games(games):
    assert sorted(games) == sorted(GAMES)
    for game in games.values():
        assert game["name"] and isinstance(game["name"], str)


def test_eleven_distinct_systems(games):
    ids = {system["id"] for game in games.values() for system in game["systems"]}
    assert len(ids) == 11
    assert ids == set(DEFAULTS)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_game_as_rules_say(games, game_id):
    players, contracts, systems = GAMES[game_id]
    game = games[game_id]
    assert game["players"] == players
    assert game["contracts"] == contracts  # in ascending order
    assert [s["id"] for s in game["systems"]] == systems


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_system_lists_params_with_defaults(games, game_id):
    for system in games[game_id]["systems"]:
        assert system["name"]
        params = system["params"]
        assert isinstance(params, dict) and params, f"{system['id']} lists its params"
        for name, default in DEFAULTS[system["id"]].items():
            assert name in params, f"{system['id']} has {name}"
            assert params[name] == default, f"{system['id']}.{name}"
        for name, default in GAME_DEFAULTS[game_id].items():
            assert params[name] == default, f"{game_id}: {system['id']}.{name}"
        # every parameter's help and default is listed too
        info = {p["name"]: p for p in system.get("param_info", [])}
        if info:
            assert set(info) == set(params)
            for name, item in info.items():
                assert item["default"] == params[name]
                assert item.get("help")


@pytest.mark.parametrize("system_id", ["points-kasse", "parlett-units", "levels", "danyliuk-cents"])
def test_pot_systems_have_pot_params(games, system_id):
    systems = {s["id"]: s for game in games.values() for s in game["systems"]}
    assert set(systems[system_id]["params"]) >= POT


def test_doublings_belong_to_the_bavarian_games(games):
    for game_id in ("tapp-tarock", "strohmandeln"):
        for system in games[game_id]["systems"]:
            assert "max_doublings" not in system["params"]
            assert "kontra_shifts_burden" not in system["params"]


def test_scharfer_tarock_has_no_frage_hearts_only_switch(games):
    # always hearts-only there: no switch to turn it off
    (system,) = games["scharfer-tarock"]["systems"]
    assert "frage_hearts_only" not in system["params"]


def test_defaults_score_like_no_params(api, games):
    """Sending back every default as a param changes nothing."""
    for game in games.values():
        for system in game["systems"]:
            players = ["Anton", "Berta"] if game["id"] == "strohmandeln" else ["A", "B", "C"]
            points = game.get("total_points", 120) * 3 // 4
            contract = "hand" if "hand" in game["contracts"] else game["contracts"][0]
            hand = {"declarer": players[0], "contract": contract, "points": points}
            if game["id"] in ("tarok", "tarok-bettel", "scharfer-tarock"):
                hand["trump"] = "herz"
            body = {"game": game["id"], "system": system["id"], "players": players, "hand": hand}
            plain = api.post("/api/v1/score", json=body)
            assert plain.status_code == 200, (system["id"], plain.get_json())
            explicit = api.post("/api/v1/score", json={**body, "params": system["params"]})
            assert explicit.status_code == 200, (system["id"], explicit.get_json())
            assert explicit.get_json()["net"] == plain.get_json()["net"]
