"""Group API: a Stammtisch addressed by its key (the key is the permission, as a table's).
See API.md's conventions; the endpoints are documented in the OpenAPI document."""

from __future__ import annotations

from typing import Any

from flask import g, jsonify, request

from scorer.api import answers, bodies
from scorer.api.blueprint import bp, group_bp
from scorer.api.contract import WRITES, described, read_body
from scorer.api.errors import error_response
from scorer.api.sessions import session_to_json
from scorer.domain import group_commands
from scorer.domain.message import msg
from scorer.domain.validation import whole_number
from scorer.extensions import NEW_TABLES
from scorer.services import groups, seasons, table_reads
from scorer.store.models import Group


def group_to_json(group: Group, **more: Any) -> dict[str, Any]:
    return answers.Group(
        key=group.key,
        name=group.name,
        game=group.game,
        system=group.system,
        params=group.params,
        members=group.members,
        not_coming=sorted(groups.retired(group)),
        carry_pot=group.carry_pot,
        settle=group.settle,
        share_by=group.share_by,
        pot_cents=group.pot_cents,
        season=group.season,
        closed_seasons=seasons.closed_seasons(group),
        evenings=[
            answers.Evening(
                key=s.key,
                name=s.name,
                date=s.created_at.date().isoformat(),
                season=s.season,
                players=list(table_reads.ledger_for(s).everyone),
                closed=s.closed,
                paid=s.paid_at is not None,
            )
            for s in groups.evenings(group)
        ],
        **more,
    ).as_json()


@group_bp.url_value_preprocessor
def _load_group(endpoint: str | None, values: dict[str, Any] | None) -> None:
    if values and "group_key" in values:
        key = values.pop("group_key")
        writes = request.method not in ("GET", "HEAD")
        g.group = (groups.group_for_write if writes else groups.get_group)(key)


AT_GROUP = (*WRITES, 404)
"""What a change to a group may be refused with: a bad body, or no such group."""


@bp.post("/groups")
@described(
    "Found a Stammtisch group (its key is the permission)",
    {201: ("The group", answers.Group)},
    body=bodies.NewGroup,
    refusals=WRITES,
)
@NEW_TABLES
def group_create():
    body = read_body(bodies.NewGroup)
    group = groups.create_group(
        group_commands.found_group(
            name=body.name,
            game=body.game,
            system=body.system,
            params=body.params,
            members=body.members,
            carry_pot=body.carry_pot,
            settle=body.settle,
            share_by=body.share_by,
        )
    )
    return jsonify(group_to_json(group)), 201


@group_bp.get("")
@described(
    "A group: members, the Haferl, the season, its evenings",
    {200: ("The group", answers.Group)},
    refusals=(404,),
)
def group_read():
    return jsonify(group_to_json(g.group))


@group_bp.post("/members")
@described(
    "Add members", {200: ("The group", answers.Group)}, body=bodies.Members, refusals=AT_GROUP
)
def group_add_members():
    body = read_body(bodies.Members)
    groups.add_members(g.group, group_commands.add_members(body.members))
    return jsonify(group_to_json(g.group))


@group_bp.put("/members/<name>")
@described(
    "Rename a member everywhere (`name`), or mark one who stopped coming (`coming`: false)",
    {200: ("The group", answers.Group)},
    body=bodies.MemberChange,
    refusals=AT_GROUP,
)
def group_rename_member(name: str):
    """A new `name` for a member, and/or `coming`: false for one who stopped coming."""
    body = read_body(bodies.MemberChange)
    sent = body.model_fields_set
    groups.change_member(
        g.group,
        group_commands.change_member(
            name,
            name=body.name if "name" in sent else None,
            coming=body.coming if "coming" in sent else None,
        ),
    )
    return jsonify(group_to_json(g.group))


@group_bp.put("/rules")
@described(
    "The rules and amounts of the group's next evenings (an evening keeps its own)",
    {200: ("The group, with `from_evening`", answers.Group)},
    body=bodies.GroupRules,
    refusals=AT_GROUP,
)
def group_rules():
    """The rules and amounts of the group's next evenings (`system`, `params`)."""
    body = read_body(bodies.GroupRules)
    system = (body.system or "") if "system" in body.model_fields_set else g.group.system
    first = groups.change_rules(g.group, group_commands.change_rules(system, body.params))
    return jsonify(group_to_json(g.group, from_evening=first))


@group_bp.post("/evenings")
@described(
    "Start an evening with the group's rules (and its carried Haferl)",
    {201: ("The session, with `group`", answers.Session)},
    body=bodies.NewEvening,
    refusals=AT_GROUP,
)
@NEW_TABLES
def group_new_evening():
    body = read_body(bodies.NewEvening)
    session = groups.new_evening(
        g.group,
        group_commands.start_evening(
            body.players, first_dealer=body.first_dealer, name=body.name, params=body.params
        ),
    )
    return jsonify(session_to_json(session)), 201


@group_bp.post("/season/close")
@described(
    "End the season: share out the Haferl (send `{}`)",
    {200: ("The shares and the group", answers.SeasonClosed)},
    body=bodies.Nothing,
    refusals=(*AT_GROUP, 409),
)
def group_close_season():
    shares = groups.close_season(g.group)
    return jsonify(answers.SeasonClosed(shares=shares, group=group_to_json(g.group)).as_json())


@group_bp.get("/standings")
@described(
    "The season table (`?season=N`, default the current one)",
    {200: ("Standings", list)},
    refusals=(400, 404),
    parameters=({"name": "season", "in": "query", "schema": {"type": "integer"}},),
)
def group_standings():
    season = request.args.get("season")
    number = whole_number(season) if season is not None else g.group.season
    if not isinstance(number, int) or not 1 <= number <= g.group.season:
        return error_response(
            400, "bad_request", msg("season must be 1..%(last)s", last=g.group.season)
        )
    return jsonify(seasons.standings(g.group, number))


@group_bp.get("/players/<name>")
@described("A member's statistics this season", {200: ("Statistics", dict)}, refusals=(404,))
def group_player(name: str):
    stats, running = seasons.stats(g.group, name, g.group.season)
    return jsonify({**stats.to_json(), "season": g.group.season, "balance_after_evening": running})


@group_bp.get("/settlement")
@described(
    "One settle-up for every closed, unpaid evening",
    {200: ("Balances and the fewest transfers", answers.GroupSettlement)},
    refusals=(404,),
)
def group_settlement():
    balances, transfers, sessions = groups.collected_settlement(g.group)
    return jsonify(
        answers.GroupSettlement(
            evenings=[s.key for s in sessions],
            balances=balances,
            transfers=[
                answers.Transfer(from_=t.payer, to=t.payee, cents=t.cents) for t in transfers
            ],
        ).as_json()
    )


@group_bp.post("/settlement/close")
@described(
    "Mark the collected settle-up paid (send `{}`)",
    {200: ("The evenings paid", answers.Paid)},
    body=bodies.Nothing,
    refusals=AT_GROUP,
)
def group_close_settlement():
    sessions = groups.close_settlement(g.group)
    return jsonify(answers.Paid(paid=[s.key for s in sessions]).as_json())
