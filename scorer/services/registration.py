"""The event's door: who registers, who is on the waiting list, who checked in, who paid.

- **Registration.** The organiser registers players at any time before the last round is
  drawn; while registration is open players sign themselves up on the public page. Beyond
  the tournament's `cap` a player goes on the waiting list; he moves up, first come first
  served, when a registered player withdraws before he was drawn. Look-alike names are one
  name, as everywhere.
- **Check-in.** A tournament with a desk (`check_in`) draws only the players checked in;
  one made with its list of players has everyone present from the start. The desk checks a
  player in (and ticks his fee paid or waived); a player may check himself in on his phone
  with the desk's code. A player checked in after a round was drawn joins from the next
  draw; **[decision]** for each round he missed he scores the tournament's
  `missed_round_points` (0 unless the organiser chose points), counted as an adjustment.
  A check-in is undone only while the player has not been drawn; after that he withdraws.
  A player never checked in (a no-show) is never seated and is not in the standings.
  The desk may check in a player from the waiting list while fewer than `cap` are checked
  in (no-shows leave room at the door); his own phone may not.
- **The charity pot** takes gifts of its own (integer cents), apart from the fees.

Every write holds the tournament's lock (the caller locks it: `get_tournament(...,
for_write=True)`) and writes a line of the tournament's log.
"""

from __future__ import annotations

import secrets

from scorer.domain import RuleError
from scorer.domain.limits import (
    MAX_TOURNAMENT_PLAYERS,
)
from scorer.domain.message import msg
from scorer.domain.names import alike_message, same_name
from scorer.domain.tournament_commands import CheckIn, GiveToCharity, Register, SetRegistration
from scorer.services import director, policies
from scorer.services.tournaments import TournamentError, current_round, next_round_number
from scorer.store.database import db, unit_of_work
from scorer.store.errors import NotFound
from scorer.store.models import CharityGift, Tournament, TournamentPlayer


def in_field(tournament: Tournament) -> list[TournamentPlayer]:
    """The registered players with a place (not on the waiting list)."""
    return [p for p in tournament.players if not p.waiting]


def waiting_list(tournament: Tournament) -> list[TournamentPlayer]:
    """The waiting list, first registered first."""
    return [p for p in tournament.players if p.waiting]


def find_player(tournament: Tournament, name: str) -> TournamentPlayer:
    """The registered player called `name` (look-alike spellings find him too)."""
    name = " ".join(name.split())
    player = next((p for p in tournament.players if p.name == name), None) or next(
        (p for p in tournament.players if same_name(p.name, name)), None
    )
    if player is None:
        raise NotFound(msg("no player called %(name)s in this tournament", name=name))
    return player


@unit_of_work
def register(
    tournament: Tournament, command: Register, *, by_self: bool = False
) -> TournamentPlayer:
    """Register a player: on the waiting list beyond the cap, present at once where the
    tournament has no desk. `by_self`: the player on the public page (registration open)."""
    policies.require_running(tournament)
    if by_self and not tournament.registration_open:
        raise TournamentError(msg("registration is closed: ask at the desk"))
    name, club = command.name, command.club
    taken = next((p.name for p in tournament.players if same_name(p.name, name)), None)
    if taken is not None:
        raise RuleError.one("name", alike_message(taken, name))
    if next_round_number(tournament) > tournament.rounds:
        raise TournamentError(msg("every round has been drawn"))
    if len(tournament.players) >= MAX_TOURNAMENT_PLAYERS:
        raise TournamentError(msg("at most %(count)s players", count=MAX_TOURNAMENT_PLAYERS))
    waiting = tournament.cap is not None and len(in_field(tournament)) >= tournament.cap
    player = TournamentPlayer(
        name=name,
        club=club,
        joined_round=next_round_number(tournament),
        checked_in=not tournament.check_in,
        waiting=waiting,
    )
    tournament.players.append(player)
    director.log(
        tournament,
        "enter",
        director.SELF if by_self else None,
        player=name,
        round=player.joined_round,
        club=club,
        waiting=waiting,
    )
    db.session.flush()
    return player


@unit_of_work
def withdraw(tournament: Tournament, name: str) -> TournamentPlayer:
    """A withdrawal: plays no round after the current one; one never drawn leaves the
    list, and the first on the waiting list takes his place."""
    policies.require_running(tournament)
    player = find_player(tournament, name)
    current = current_round(tournament)
    player.withdrawn_after = current.number if current else 0
    left = player.joined_round > player.withdrawn_after
    if left:
        tournament.players.remove(player)
    director.log(tournament, "withdraw", player=player.name, after_round=player.withdrawn_after)
    if left and not player.waiting:
        moving_up = next(iter(waiting_list(tournament)), None)
        if moving_up is not None:
            moving_up.waiting = False
            director.log(tournament, "move_up", player=moving_up.name)
    db.session.flush()
    return player


@unit_of_work
def check_in(
    tournament: Tournament, command: CheckIn, *, by_self: bool = False
) -> TournamentPlayer:
    """Check a player in at the door (again: only his fee changes; a fee of None leaves
    it as it is)."""
    policies.require_running(tournament)
    fee = command.fee
    player = find_player(tournament, command.name)
    if not player.checked_in:
        if next_round_number(tournament) > tournament.rounds:
            raise TournamentError(msg("every round has been drawn"))
        if player.waiting:
            _take_from_waiting_list(tournament, player, by_self=by_self)
        player.checked_in = True
        player.joined_round = next_round_number(tournament)
    if fee is not None:
        player.fee = fee
    director.log(
        tournament,
        "check_in",
        director.SELF if by_self else None,
        player=player.name,
        round=player.joined_round,
        fee=player.fee,
    )
    db.session.flush()
    return player


def _take_from_waiting_list(
    tournament: Tournament, player: TournamentPlayer, *, by_self: bool
) -> None:
    """A waiting player at the door: the desk may seat him while fewer than `cap` are
    checked in (the no-shows' places); his phone may not."""
    present = sum(1 for p in tournament.players if p.checked_in and not p.waiting)
    if by_self or (tournament.cap is not None and present >= tournament.cap):
        raise TournamentError(
            msg("%(name)s is on the waiting list: the field is full", name=player.name)
        )
    player.waiting = False


def check_in_by_phone(tournament: Tournament, name: str, code: str) -> TournamentPlayer:
    """A player checks himself in with the desk's code (his fee is ticked at the desk)."""
    if not tournament.check_in or tournament.desk_code is None:
        raise TournamentError(msg("this tournament has no check-in at the door"))
    if not secrets.compare_digest(code.strip().encode(), tournament.desk_code.encode()):
        raise RuleError.one("code", msg("this is not the desk's code: ask at the desk"))
    return check_in(tournament, CheckIn(name), by_self=True)


@unit_of_work
def undo_check_in(tournament: Tournament, name: str) -> TournamentPlayer:
    """Undo a check-in (a wrong tap) while the player has not been drawn."""
    policies.require_running(tournament)
    player = find_player(tournament, name)
    if not player.checked_in or not tournament.check_in:
        raise TournamentError(msg("%(name)s is not checked in", name=player.name))
    if player.joined_round < next_round_number(tournament):
        raise TournamentError(
            msg("%(name)s has been drawn already: withdraw him instead", name=player.name)
        )
    player.checked_in = False
    player.fee = "unpaid"
    director.log(tournament, "check_out", player=player.name)
    db.session.flush()
    return player


@unit_of_work
def set_registration(tournament: Tournament, command: SetRegistration) -> None:
    """Open or close the public registration page and set the cap (None: no cap)."""
    policies.require_running(tournament)
    tournament.registration_open = command.is_open
    tournament.cap = command.cap
    director.log(tournament, "registration", open=command.is_open, cap=command.cap)
    db.session.flush()


@unit_of_work
def give_to_charity(tournament: Tournament, command: GiveToCharity) -> CharityGift:
    """A gift to the tournament's charity pot, in cents."""
    policies.require_running(tournament)
    gift = CharityGift(giver=command.giver, cents=command.cents)
    tournament.gifts.append(gift)
    director.log(tournament, "charity", giver=command.giver, cents=command.cents)
    db.session.flush()
    return gift
