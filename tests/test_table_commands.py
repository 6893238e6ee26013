"""The commands that open a table and change who sits at it (scorer.domain.commands):
every bad field said at once, names folded as every name is, and the API's answer the
same."""

from __future__ import annotations

import pytest

from scorer.domain import RuleError, commands
from scorer.domain.commands import ChangePlayers
from scorer.domain.limits import MAX_TABLE_NAME

RULES = {"game": "haferltarock", "system": "parlett-units", "params": None}


def refused_fields(build) -> list[str]:
    with pytest.raises(RuleError) as refused:
        build()
    return list(refused.value.fields)


def test_a_table_without_a_name_is_a_tarockrunde_and_its_names_are_folded():
    command = commands.open_table(
        name="  ", players=[" Anna ", "Bert  Berg", "Cora"], first_dealer=" Cora", **RULES
    )
    assert command.name == "Tarockrunde"
    assert command.players == ("Anna", "Bert Berg", "Cora") and command.first_dealer == "Cora"
    assert command.scoring == "money" and command.opening_pot == 0


def test_every_bad_field_of_a_new_table_is_said_at_once():
    assert refused_fields(
        lambda: commands.open_table(
            name="x" * (MAX_TABLE_NAME + 1),
            game="skat",
            system="parlett-units",
            params=None,
            players=["Anna", "anna"],
            first_dealer="\u200b",
        )
    ) == ["game", "players", "first_dealer", "name"]


def test_a_change_of_players_folds_the_names_and_keeps_the_version():
    assert commands.change_players([" Anna", "Bert "], dealer=" Bert", version=7) == (
        ChangePlayers(("Anna", "Bert"), dealer="Bert", version=7)
    )
    assert refused_fields(lambda: commands.change_players(["Anna", "ANNA"], dealer=" ")) == [
        "players",
        "dealer",
    ]


def test_the_api_says_every_bad_field_of_a_new_table_at_once(client):
    body = {**RULES, "name": "Runde", "players": ["Anna", "anna", "Cora"], "first_dealer": "\t"}
    response = client.post("/api/v1/sessions", json={**body, "system": "tapp-points"})
    assert response.status_code == 422
    assert sorted(response.get_json()["error"]["fields"]) == ["first_dealer", "players", "system"]
