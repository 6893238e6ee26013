"""Stammtisch groups: the same people every week, one set of rules, the Haferl carried from
evening to evening, seasons, and one settle-up for many evenings.

An evening of a group is an ordinary table (`scorer.services.tables`) that knows its group.
When an evening closes, what is left in its Haferl goes back to the group
(`evening_closed`, called by `scorer.services.evenings`); the next evening starts with it
and pays no stake until it runs empty.
Money is conserved: the members' settle-ups, the shares of closed seasons and the group's
Haferl add up to zero.

Locks are taken group → table, as a tournament's round → table (see `scorer.store.locks`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import func, select

from scorer.domain import RuleError, commands
from scorer.domain.group_commands import (
    AddMembers,
    ChangeMember,
    ChangeRules,
    FoundGroup,
    StartEvening,
)
from scorer.domain.limits import MAX_GROUP_MEMBERS
from scorer.domain.message import msg
from scorer.domain.names import alike_message, same_name
from scorer.domain.scoring import Rules
from scorer.domain.season import share_out
from scorer.domain.settle import settle
from scorer.services import table_reads, tables
from scorer.store import table_rows
from scorer.store.database import db, unit_of_work
from scorer.store.errors import Conflict, NotFound
from scorer.store.locks import begin_write, lock_more
from scorer.store.models import Group, GroupEvent, TableSession, utcnow

# --- reading and locking ------------------------------------------------------------------


def get_group(key: str) -> Group:
    group = None
    if table_rows.KEY_SHAPE.fullmatch(key or ""):
        group = db.session.scalar(select(Group).where(Group.key == key))
    if group is None:
        raise NotFound(msg("no group with this key"))
    return group


def group_for_write(key: str) -> Group:
    """The group named by `key`, locked for this transaction."""
    if not table_rows.KEY_SHAPE.fullmatch(key or ""):
        raise NotFound(msg("no group with this key"))
    begin_write()
    group = lock_more(Group, Group.key == key)
    if group is None:
        raise NotFound(msg("no group with this key"))
    return group


def group_of_evening(session: TableSession) -> Group | None:
    """The group an evening belongs to (read only), or None."""
    return db.session.get(Group, session.group_id) if session.group_id is not None else None


def live_version(group: Group) -> tuple[int, int, int]:
    """What changes whenever the group's page changes: the group's version, and how many
    evenings it has and their versions added up (every hand bumps its evening's). One small
    read, for the page's ETag."""
    count, versions = db.session.execute(
        select(func.count(), func.coalesce(func.sum(TableSession.version), 0)).where(
            TableSession.group_id == group.id
        )
    ).one()
    return group.version, count, versions


def evenings(group: Group, season: int | None = None) -> list[TableSession]:
    query = select(TableSession).where(TableSession.group_id == group.id)
    if season is not None:
        query = query.where(TableSession.season == season)
    return list(db.session.scalars(query.order_by(TableSession.id)))


# --- making and changing a group ------------------------------------------------------------


@unit_of_work
def create_group(command: FoundGroup) -> Group:
    group = Group(
        key=table_rows.new_key(),
        name=command.name,
        game=command.rules.game.id,
        system=command.rules.system.id,
        params=command.rules.stored_params(),
        members=list(command.members),
        carry_pot=command.carry_pot,
        settle=command.settle,
        share_by=command.share_by,
    )
    db.session.add(group)
    db.session.flush()
    return group


@unit_of_work
def add_members(group: Group, command: AddMembers) -> None:
    new = []
    for name in command.names:
        known = next((m for m in group.members if same_name(m, name)), None)
        if known is None:
            new.append(name)
        elif known != name:
            raise RuleError.one("members", msg("'%(name)s' is '%(known)s'", name=name, known=known))
    if len(group.members) + len(new) > MAX_GROUP_MEMBERS:
        raise RuleError.one("members", msg("at most %(count)s names", count=MAX_GROUP_MEMBERS))
    if new:
        group.members = [*group.members, *new]
        _changed(group)


@unit_of_work
def change_member(group: Group, command: ChangeMember) -> str:
    """A member's new name and whether they still come, either or both, in one unit; the
    member's name afterwards."""
    name = command.member
    if name not in group.members:
        raise NotFound(msg("no member called %(name)s", name=name))
    if command.name is not None:
        name = _rename(group, name, command.name)
    if command.coming is not None:
        _set_coming(group, name, command.coming)
    return name


def _rename(group: Group, old: str, new: str) -> str:
    """A new name for a member, everywhere: the group, every evening of it (players, hands,
    dealers, lineups), its cached ledgers folded again. History keeps what was said then.
    Returns the new name as stored."""
    if new == old:
        return new
    taken = next((m for m in group.members if m != old and same_name(m, new)), None)
    if taken is not None:
        raise RuleError.one("name", alike_message(taken, new))
    group.members = [new if m == old else m for m in group.members]
    for session in evenings(group):
        tables.rename_in_evening(session, old, new)
    _event(group, "rename", {"from": old, "to": new})
    _changed(group)
    return new


@unit_of_work
def change_rules(group: Group, command: ChangeRules) -> int:
    """New rules and amounts for the group's next evenings (the game stays): an evening
    keeps the rules it started with. Returns the number of the first evening they apply to
    (the history says so too)."""
    rules = Rules.build(group.game, command.system, command.params)
    stored = rules.stored_params()
    if not rules.has_pot and group.carry_pot:
        raise RuleError.one(
            "system", msg("the group carries its Haferl: choose rules with a Haferl")
        )
    first = len(evenings(group)) + 1
    if (rules.system.id, stored) != (group.system, group.params):
        group.system, group.params = rules.system.id, stored
        _event(group, "rules", {"system": rules.system.id, "params": stored, "from_evening": first})
        _changed(group)
    return first


def rules_changes(group: Group) -> list[GroupEvent]:
    """When the group's rules were changed, and from which evening each change applies."""
    return [e for e in history(group) if e.action == "rules"]


def retired(group: Group) -> set[str]:
    """Members who stopped coming: kept in the history and the standings, not offered for
    a new evening until they play again."""
    away: set[str] = set()
    for event in history(group):
        if event.action == "retire":
            away.add(event.data["name"])
        elif event.action == "return":
            away.discard(event.data["name"])
        elif event.action == "rename" and event.data["from"] in away:
            away = (away - {event.data["from"]}) | {event.data["to"]}
    return away


def _set_coming(group: Group, name: str, coming: bool) -> None:
    """Mark a member as one who stopped coming (or comes again)."""
    if (name in retired(group)) != coming:
        return
    _event(group, "return" if coming else "retire", {"name": name})
    _changed(group)


# --- evenings -------------------------------------------------------------------------------


@unit_of_work
def new_evening(group: Group, command: StartEvening) -> TableSession:
    """An evening of the group with its rules (the command's `params` may change some for
    this evening). Players who are not members yet become members. With a carried Haferl,
    the first evening to start takes it: it pays no stake until the Haferl runs empty."""
    names = command.players
    add_members(group, AddMembers(names))
    for name in sorted(retired(group) & set(names)):  # they play again
        _event(group, "return", {"name": name})
    merged = {**group.params, **(command.params or {})}
    if group.carry_pot:
        merged["pot_at_end"] = "keep"  # the remainder goes back to the group
    opening = group.pot_cents if group.carry_pot else 0
    session = tables.create_session(
        commands.open_table(
            name=command.name or group.name,
            game=group.game,
            system=group.system,
            params=merged,
            players=list(names),
            first_dealer=command.first_dealer,
            opening_pot=opening,
        )
    )
    session.group_id = group.id
    session.season = group.season
    if opening:
        group.pot_cents = 0
        _event(group, "pot_out", {"evening": session.key, "cents": opening})
    _changed(group)
    return session


def evening_closed(session: TableSession) -> None:
    """The Haferl left at the end of a group's evening goes back to the group."""
    group = _group_of(session)
    if group is None or not group.carry_pot:
        return
    pot = session.state["pot"]
    if pot:
        group.pot_cents += pot
        _event(group, "pot_back", {"evening": session.key, "cents": pot})
    _changed(group)


def evening_reopened(session: TableSession) -> None:
    """A closed evening of a group opened again takes its Haferl back, which is only
    possible while no later evening has carried it on and its season is not closed."""
    group = _group_of(session)
    if group is None:
        return
    if session.season != group.season:
        raise Conflict(msg("the evening's season is closed: it cannot be reopened"))
    if session.paid_at is not None:
        raise Conflict(msg("the evening is paid in a collected settle-up"))
    if not group.carry_pot:
        return
    later = db.session.scalar(
        select(TableSession.id).where(
            TableSession.group_id == group.id, TableSession.id > session.id
        )
    )
    if later is not None:
        raise Conflict(
            msg("a later evening carried this Haferl on: this evening cannot be reopened")
        )
    pot = session.state["pot"]
    group.pot_cents -= pot
    _event(group, "pot_out", {"evening": session.key, "cents": pot, "reopened": True})
    _changed(group)


def _group_of(session: TableSession) -> Group | None:
    if session.group_id is None:
        return None
    return lock_more(Group, Group.id == session.group_id)


# --- seasons, standings, statistics ---------------------------------------------------------


def planned_shares(group: Group) -> dict[str, int]:
    """How the Haferl would be shared out if the season ended now: among the season's
    players, equally or by evenings attended. Refused while an evening is open."""
    season = evenings(group, group.season)
    if not season:
        # Also what keeps a second tap (or a second device) from closing an empty season.
        raise Conflict(msg("this season has no evening yet: nothing to close"))
    if any(not s.closed for s in season):
        raise Conflict(msg("an evening of this season is still open: close it first"))
    attended: dict[str, int] = {}
    for session in season:
        for player in table_reads.ledger_for(session).everyone:
            attended[player] = attended.get(player, 0) + 1
    order = [m for m in group.members if m in attended]
    weights = attended if group.share_by == "evenings" else None
    shares = share_out(group.pot_cents, order, weights) if order else {}
    if group.pot_cents and not shares:
        raise Conflict(msg("nobody played this season: the Haferl stays"))
    return shares


@unit_of_work
def close_season(group: Group) -> dict[str, int]:
    """End the season: the Haferl is shared out (`planned_shares`) and a new season
    begins. Returns the shares."""
    shares = planned_shares(group)
    _event(group, "season_close", {"pot": group.pot_cents, "shares": shares})
    group.pot_cents -= sum(shares.values())
    group.season += 1
    _changed(group)
    return shares


# --- one settle-up for many evenings -----------------------------------------------------------


def unpaid(group: Group) -> list[TableSession]:
    return [s for s in evenings(group) if s.closed and s.paid_at is None]


def collected_settlement(group: Group) -> tuple[dict[str, int], list[Any], list[TableSession]]:
    """Every closed, unpaid evening summed into balances (the Haferl a party where money
    went into it or out of it) and the fewest transfers that settle them."""
    sessions = unpaid(group)
    balances: dict[str, int] = {}
    for session in sessions:
        for account, cents in table_reads.settlement(session).balances.items():
            balances[account] = balances.get(account, 0) + cents
    balances = {a: c for a, c in balances.items() if c}
    return balances, settle(balances), sessions


@unit_of_work
def close_settlement(group: Group) -> list[TableSession]:
    """Mark the evenings of the collected settle-up paid (their history kept). With
    nothing left to pay (a second tablet, a double tap) nothing is written."""
    balances, transfers, sessions = collected_settlement(group)
    if not sessions:
        return []
    now = utcnow()
    for session in sessions:
        session.paid_at = now
    _event(
        group,
        "paid",
        {
            "evenings": [s.key for s in sessions],
            "balances": balances,
            "transfers": [{"from": t.payer, "to": t.payee, "cents": t.cents} for t in transfers],
        },
    )
    _changed(group)
    return sessions


def history(group: Group) -> Iterable[GroupEvent]:
    return db.session.scalars(
        select(GroupEvent).where(GroupEvent.group_id == group.id).order_by(GroupEvent.id)
    )


def _event(group: Group, action: str, data: dict[str, Any]) -> None:
    db.session.add(GroupEvent(group_id=group.id, season=group.season, action=action, data=data))


def _changed(group: Group) -> None:
    group.version += 1
