"""A command per change of a Stammtisch group (scorer.domain.group_commands): the builders
refuse by field with the API's messages, and the API's body and the group pages give the
same group for the same choices and the same refusal for the same bad name."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from scorer.domain import RuleError, group_commands
from scorer.domain.group_commands import ChangeMember, StartEvening
from scorer.store.database import db
from scorer.store.models import Group
from tests.conftest import PostedFields
from tests.support.groups import API, FOUR, create_group

RULES = {"game": "haferltarock", "system": "parlett-units", "params": None}


def refusal(build) -> dict[str, list[str]]:
    """The fields and English messages `build()` is refused with."""
    with pytest.raises(RuleError) as refused:
        build()
    return {field: [m.english() for m in ms] for field, ms in refused.value.fields.items()}


def test_a_group_without_a_name_is_a_stammtisch_and_names_are_folded():
    command = group_commands.found_group(name="  ", members=["  Anna   Maria ", "Bert"], **RULES)
    assert command.name == "Stammtisch"
    assert command.members == ("Anna Maria", "Bert")
    assert command.carry_pot and command.settle == "each_evening" and command.share_by == "equal"


def test_a_group_whose_rules_have_no_haferl_carries_none():
    command = group_commands.found_group(
        name="Tapp", members=FOUR, game="tapp-tarock", system="tapp-points", params=None
    )
    assert not command.rules.has_pot and command.carry_pot is False


@pytest.mark.parametrize(
    "build, field, said",
    [
        (
            lambda: group_commands.found_group(name="x", members=["Anna", "anna"], **RULES),
            "members",
            "look alike",
        ),
        (
            lambda: group_commands.found_group(name="x", members=["Anna", "POT"], **RULES),
            "members",
            "name of the pot",
        ),
        (lambda: group_commands.found_group(name="x" * 81, members=[], **RULES), "name", "1..80"),
        (
            lambda: group_commands.found_group(name="x", members=[], **{**RULES, "game": "skat"}),
            "game",
            "",
        ),
        (lambda: group_commands.add_members(["Anna"] * 2), "members", "twice"),
        (lambda: group_commands.add_members([f"P{n}" for n in range(41)]), "members", "at most 40"),
        (lambda: group_commands.change_member("Anna", name=" "), "name", "1..40"),
        (lambda: group_commands.start_evening(["Anna", "ANNA"]), "players", "look alike"),
        (lambda: group_commands.start_evening(["Anna"], name="y" * 81), "name", "1..80"),
    ],
)
def test_a_builder_refuses_by_field_with_the_apis_message(build, field, said):
    fields = refusal(build)
    assert list(fields) == [field], fields
    assert said in " ".join(fields[field]), fields


def test_a_member_change_says_only_what_changes():
    assert group_commands.change_member("Anna", coming=False) == ChangeMember("Anna", None, False)
    assert group_commands.change_member("Anna", name=" Anni ") == ChangeMember("Anna", "Anni")


def test_an_evening_without_a_name_takes_the_groups():
    assert group_commands.start_evening(["Anna", "Bert", "Carl"], name="  ") == StartEvening(
        ("Anna", "Bert", "Carl")
    )


def stored(app, key: str) -> tuple:
    with app.app_context():
        group = db.session.scalar(select(Group).where(Group.key == key))
        row = (group.name, group.members, group.game, group.system, group.params)
        row += (group.carry_pot, group.settle, group.share_by)
        db.session.remove()
    return row


def form_fields(client, url: str) -> dict[str, str]:
    html = client.get(url).get_data(as_text=True)
    marked = re.sub(rf'(<form method="post" action="[^"]*{re.escape(url)}")', r'\1 id="f"', html)
    parser = PostedFields("f")
    parser.feed(marked)
    return dict(parser.values)


def test_the_page_and_the_api_found_the_same_group(app, client):
    by_api = create_group(client, name=" Freitags  runde ", params=None, settle="collected")
    posted = form_fields(client, "/stammtisch/neu")
    posted |= {"name": " Freitags  runde ", "members": "\n".join(FOUR), "settle": "collected"}
    response = client.post("/stammtisch/neu", data=posted)
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    by_page = response.headers["Location"].rsplit("/", 1)[-1]
    assert stored(app, by_page) == stored(app, by_api["key"])
    assert stored(app, by_page)[0] == "Freitags runde"


def test_the_page_and_the_api_refuse_a_look_alike_new_name_alike(app, client):
    key = create_group(client)["key"]
    english = {"Accept-Language": "en"}
    by_api = client.put(
        f"{API}/groups/{key}/members/Anton", json={"name": "berta"}, headers=english
    )
    assert by_api.status_code == 422
    [said] = by_api.get_json()["error"]["fields"]["name"]
    url = f"/s/{key}/spieler/Anton/name"
    token = form_fields(client, f"/s/{key}/spieler/Anton").get("csrf_token", "")
    by_page = client.post(url, data={"name": "berta", "csrf_token": token}, headers=english)
    assert by_page.status_code == 302
    page = client.get(by_page.headers["Location"], headers=english).get_data(as_text=True)
    assert said in page.replace("&#39;", "'"), said
    assert stored(app, key)[1] == FOUR
