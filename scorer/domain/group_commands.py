"""The changes to a Stammtisch group, one typed command each (found it, add members,
change a member, change its rules, start an evening), and the builder of each.

Every way in builds its command here: the API from its body (`scorer.api.groups`), the
group pages from their forms (`scorer.stammtisch.routes`), an archive read back from its
file (`scorer.services.archives`). A builder takes values of the right type (the body's
model and the form have checked that) and refuses, by field and with the API's messages,
what only the rules can say: a name too long once its spaces are folded, two names alike,
a member called like the Haferl, rules and amounts the game does not know. The services
(`scorer.services.groups`) take the command and check only what needs the stored group.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from scorer.domain.facts import parse_players
from scorer.domain.limits import MAX_GROUP_MEMBERS, MAX_GROUP_NAME, MAX_PLAYER_NAME, MAX_TABLE_NAME
from scorer.domain.message import msg
from scorer.domain.model import POT, RuleError, pot_name_taken
from scorer.domain.names import alike_message, clean_name, look_alike, same_name
from scorer.domain.scoring import Rules

Settle = Literal["each_evening", "collected"]
"""How a group settles: every evening on its own, or many evenings in one settle-up."""
ShareBy = Literal["equal", "evenings"]
"""How a closed season's Haferl is shared: equally, or by evenings attended."""
SETTLE_MODES: tuple[Settle, ...] = get_args(Settle)
SHARE_MODES: tuple[ShareBy, ...] = get_args(ShareBy)
UNNAMED_GROUP = "Stammtisch"


@dataclass(frozen=True)
class FoundGroup:
    """A new group: its name, the rules of its evenings, its members and how it settles."""

    name: str
    rules: Rules
    members: tuple[str, ...]
    carry_pot: bool
    settle: Settle
    share_by: ShareBy


@dataclass(frozen=True)
class AddMembers:
    """Members to add (names the group knows already are left as they are)."""

    names: tuple[str, ...]


@dataclass(frozen=True)
class ChangeMember:
    """Member `member`'s new `name` (None: unchanged) and whether they still come (None:
    unchanged), either or both."""

    member: str
    name: str | None = None
    coming: bool | None = None


@dataclass(frozen=True)
class ChangeRules:
    """The payment system and amounts of the group's next evenings (the game stays)."""

    system: str
    params: Mapping[str, Any]


@dataclass(frozen=True)
class StartEvening:
    """An evening of the group: who plays, who deals first, its name (None: the group's)
    and the amounts it plays with other than the group's."""

    players: tuple[str, ...]
    first_dealer: str | None = None
    name: str | None = None
    params: Mapping[str, Any] | None = None


def found_group(
    *,
    name: str,
    game: str,
    system: str,
    params: Mapping[str, Any] | None,
    members: Sequence[str],
    carry_pot: bool = True,
    settle: Settle = "each_evening",
    share_by: ShareBy = "equal",
) -> FoundGroup:
    """The group these say (`name` blank: "Stammtisch"; `params` None: the defaults)."""
    rules = Rules.build(game, system, params)
    return FoundGroup(
        name=clean_name(name, "name", MAX_GROUP_NAME) if name.strip() else UNNAMED_GROUP,
        rules=rules,
        members=member_names(members),
        carry_pot=carry_pot and rules.has_pot,
        settle=settle,
        share_by=share_by,
    )


def add_members(names: Sequence[str]) -> AddMembers:
    return AddMembers(member_names(names))


def change_member(
    member: str, *, name: str | None = None, coming: bool | None = None
) -> ChangeMember:
    """Member `member` renamed to `name` (folded as every name is) and/or `coming`."""
    new = member_names([name], "name")[0] if name is not None else None
    return ChangeMember(member, name=new, coming=coming)


def change_rules(system: str, params: Mapping[str, Any] | None) -> ChangeRules:
    return ChangeRules(system, dict(params or {}))


def start_evening(
    players: Sequence[str],
    *,
    first_dealer: str | None = None,
    name: str | None = None,
    params: Mapping[str, Any] | None = None,
) -> StartEvening:
    """Tonight's players (as a table takes them, `facts.parse_players`); a blank `name`
    is the group's."""
    return StartEvening(
        tuple(parse_players(list(players))),
        first_dealer=first_dealer or None,
        name=clean_name(name, "name", MAX_TABLE_NAME) if name and name.strip() else None,
        params=params,
    )


def member_names(value: Sequence[str], field: str = "members") -> tuple[str, ...]:
    """Names as a table takes them (`names.clean_name`), different, at most
    MAX_GROUP_MEMBERS."""
    if len(value) > MAX_GROUP_MEMBERS:
        raise RuleError.one(field, msg("at most %(count)s names", count=MAX_GROUP_MEMBERS))
    names = tuple(clean_name(v, field, MAX_PLAYER_NAME) for v in value)
    if clash := look_alike(names):
        raise RuleError.one(field, alike_message(*clash))
    if any(same_name(n, POT) for n in names):
        raise RuleError.one(field, pot_name_taken())
    return names
