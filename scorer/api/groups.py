"""Group API: a Stammtisch addressed by its key (the key is the permission, as a table's).
See API.md's conventions; the endpoints are documented in the OpenAPI document."""

from __future__ import annotations

from typing import Any

from flask import g, jsonify, request

from scorer.api.blueprint import bp
from scorer.api.errors import error_response
from scorer.api.schema import json_body
from scorer.api.sessions import session_to_json
from scorer.domain import RuleError
from scorer.domain.message import msg
from scorer.domain.validation import whole_number
from scorer.extensions import NEW_TABLES
from scorer.services import groups, seasons, table_ledger
from scorer.store.models import Group


def group_to_json(group: Group) -> dict[str, Any]:
    return {
        "key": group.key,
        "name": group.name,
        "game": group.game,
        "system": group.system,
        "params": group.params,
        "members": group.members,
        "not_coming": sorted(groups.retired(group)),
        "carry_pot": group.carry_pot,
        "settle": group.settle,
        "share_by": group.share_by,
        "pot_cents": group.pot_cents,
        "season": group.season,
        "closed_seasons": seasons.closed_seasons(group),
        "evenings": [
            {
                "key": s.key,
                "name": s.name,
                "date": s.created_at.date().isoformat(),
                "season": s.season,
                "players": table_ledger.ledger_for(s).everyone,
                "closed": s.closed,
                "paid": s.paid_at is not None,
            }
            for s in groups.evenings(group)
        ],
    }


@bp.url_value_preprocessor
def _load_group(endpoint: str | None, values: dict[str, Any] | None) -> None:
    if endpoint and endpoint.startswith("api.group") and values and "group_key" in values:
        key = values.pop("group_key")
        writes = request.method not in ("GET", "HEAD")
        g.group = (groups.group_for_write if writes else groups.get_group)(key)


@bp.post("/groups")
@NEW_TABLES
def group_create():
    data = json_body()
    group = groups.create_group(
        data.get("name", ""),
        data.get("game"),
        data.get("system"),
        data.get("params"),
        data.get("members", []),
        data.get("carry_pot", True),
        data.get("settle", "each_evening"),
        data.get("share_by", "equal"),
    )
    return jsonify(group_to_json(group)), 201


@bp.get("/groups/<group_key>")
def group_read():
    return jsonify(group_to_json(g.group))


@bp.post("/groups/<group_key>/members")
def group_add_members():
    data = json_body()
    groups.add_members(g.group, groups.member_names(data.get("members"), "members"))
    return jsonify(group_to_json(g.group))


@bp.put("/groups/<group_key>/members/<name>")
def group_rename_member(name: str):
    """A new `name` for a member, and/or `coming`: false for one who stopped coming."""
    data = json_body()
    if "coming" in data and not isinstance(data["coming"], bool):
        raise RuleError.one("coming", msg("must be true or false"))
    groups.change_member(g.group, name, data)
    return jsonify(group_to_json(g.group))


@bp.put("/groups/<group_key>/rules")
def group_rules():
    """The rules and amounts of the group's next evenings (`system`, `params`)."""
    data = json_body()
    first = groups.change_rules(g.group, data.get("system", g.group.system), data.get("params"))
    return jsonify({**group_to_json(g.group), "from_evening": first})


@bp.post("/groups/<group_key>/evenings")
@NEW_TABLES
def group_new_evening():
    data = json_body()
    session = groups.new_evening(
        g.group,
        data.get("players"),
        data.get("first_dealer"),
        data.get("name"),
        data.get("params"),
    )
    return jsonify(session_to_json(session)), 201


@bp.post("/groups/<group_key>/season/close")
def group_close_season():
    shares = groups.close_season(g.group)
    return jsonify({"shares": shares, "group": group_to_json(g.group)})


@bp.get("/groups/<group_key>/standings")
def group_standings():
    season = request.args.get("season")
    number = whole_number(season) if season is not None else g.group.season
    if not isinstance(number, int) or not 1 <= number <= g.group.season:
        return error_response(
            400, "bad_request", msg("season must be 1..%(last)s", last=g.group.season)
        )
    return jsonify(seasons.standings(g.group, number))


@bp.get("/groups/<group_key>/players/<name>")
def group_player(name: str):
    stats, running = seasons.stats(g.group, name, g.group.season)
    return jsonify({**stats.to_json(), "season": g.group.season, "balance_after_evening": running})


@bp.get("/groups/<group_key>/settlement")
def group_settlement():
    balances, transfers, sessions = groups.collected_settlement(g.group)
    return jsonify(
        {
            "evenings": [s.key for s in sessions],
            "balances": balances,
            "transfers": [{"from": t.payer, "to": t.payee, "cents": t.cents} for t in transfers],
        }
    )


@bp.post("/groups/<group_key>/settlement/close")
def group_close_settlement():
    sessions = groups.close_settlement(g.group)
    return jsonify({"paid": [s.key for s in sessions]})
