"""The commands of a tournament that carry what a person chose or typed, and their
builders: make it (`NewTournament`, with its `Door`), draw a round (`DrawRound`), swap two
seats (`SwapPlayers`), register a player (`Register`), check one in (`CheckIn`), open the
public registration (`SetRegistration`), a gift to charity (`GiveToCharity`), a director's
adjustment (`Adjust`).

Every way in builds them here: the API from its bodies (`scorer.api.tournaments`, `.door`,
`.director`), the organiser's and the public pages from their forms
(`scorer.tournaments`), an archive read back from its checked file
(`scorer.services.tournament_archives`), the benches. A builder takes values of the right
type (the body's model and the form have checked that) and refuses at once, by field,
everything only the rules can say: a name once its spaces are folded, the rounds and deals,
the tie-breaks, a game of two, the list of players, the prizes, an amount's range. The
services (`scorer.services.tournaments`, `.registration`, `.director`) take the command and
check what needs the stored tournament (a name taken, a round drawn, the cap).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any, Literal

from scorer.domain.limits import (
    MAX_ADJUSTMENT_POINTS,
    MAX_ADJUSTMENT_REASON,
    MAX_CHARITY_CENTS,
    MAX_CLUB_NAME,
    MAX_DEALS_PER_PLAYER,
    MAX_PLAYER_NAME,
    MAX_TOURNAMENT_NAME,
    MAX_TOURNAMENT_PLAYERS,
    MAX_TOURNAMENT_ROUNDS,
)
from scorer.domain.message import msg
from scorer.domain.model import POT, Refusals, RuleError, pot_name_taken
from scorer.domain.names import alike_message, clean_name, look_alike, same_name
from scorer.domain.prizes import Fee, plan_from_json
from scorer.domain.scoring import Rules
from scorer.domain.tournament import DEFAULT_TIE_BREAKS, check_tie_breaks, tournament_rules
from scorer.domain.validation import is_whole, whole_number_in

DEFAULT_ROUNDS = 4
"""A tournament plays this many rounds unless its organiser says otherwise."""
DEFAULT_DEALS = 4
"""Each player deals this often per round: 16 hands at a table of four (the dealer sits
out, so everyone plays 12), 12 at a table of three (everyone plays all 12)."""


@dataclass(frozen=True)
class Door:
    """What happens at the event's door: whether players check in (only they are drawn;
    None: when no players are listed), whether they may register themselves and up to how
    many, what a late player scores for a missed round, the entry fee and the prizes
    (`scorer.domain.prizes`, as JSON: `prize_plan`)."""

    check_in: bool | None = None
    registration_open: bool = False
    cap: int | None = None
    missed_round_points: int = 0
    entry_fee_cents: int = 0
    prize_plan: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class NewTournament:
    """A tournament to make. Its door's `check_in` is decided (True or False); a list of
    `players` with check-in is a registration list: nobody is here yet."""

    name: str
    day: date
    rules: Rules
    rounds: int
    deals_per_player: int
    tie_breaks: tuple[str, ...]
    players: tuple[str, ...]
    door: Door
    final: bool = False


def new_tournament(
    *,
    name: str,
    day: date,
    game: str,
    system: str,
    params: Mapping[str, Any] | None,
    players: str | Sequence[str],
    rounds: int = DEFAULT_ROUNDS,
    deals_per_player: int = DEFAULT_DEALS,
    tie_breaks: Sequence[str] = DEFAULT_TIE_BREAKS,
    door: Door | None = None,
    final: bool = False,
    registered: bool = False,
) -> NewTournament:
    """The tournament these say, or a RuleError with every field refused at once.
    `players`: see `parse_player_list` (`registered`: an archive's, any number)."""
    refusals = Refusals()
    rules = tournament_rules(game, system, params)
    names = refusals.check(parse_player_list, players, registered=registered)
    cleaned = refusals.check(clean_name, name, "name", MAX_TOURNAMENT_NAME)
    refusals.check(whole_number_in, rounds, "rounds", low=1, high=MAX_TOURNAMENT_ROUNDS)
    refusals.check(
        whole_number_in, deals_per_player, "deals_per_player", low=1, high=MAX_DEALS_PER_PLAYER
    )
    breaks = refusals.check_as("tie_breaks", check_tie_breaks, tie_breaks)
    if not set(rules.game.players) & {3, 4}:
        refusals.refuse(
            "game", msg("tournaments seat tables of 3 and 4: not for a two-player game")
        )
    refusals.done()
    door = door or Door()
    if door.check_in is None:
        door = replace(door, check_in=not names)
    return NewTournament(
        name=cleaned,
        day=day,
        rules=rules,
        rounds=rounds,
        deals_per_player=deals_per_player,
        tie_breaks=breaks,
        players=tuple(names),
        door=door,
        final=final,
    )


def parse_player_list(text: str | Sequence[str], *, registered: bool = False) -> list[str]:
    """Names pasted as a list: one per line (or comma-separated); blank lines ignored.
    None at all is a tournament whose players register and check in later; else at least 3,
    but any number of `registered` ones (an archive's: a desk may have 1 or 2 so far)."""
    lines = text.replace(",", "\n").splitlines() if isinstance(text, str) else text
    names = [clean_name(line, "players", MAX_PLAYER_NAME) for line in lines if line.strip()]
    errors = []
    if 0 < len(names) < 3 and not registered:
        errors.append(msg("a tournament needs at least 3 players"))
    if len(names) > MAX_TOURNAMENT_PLAYERS:
        errors.append(msg("at most %(count)s players", count=MAX_TOURNAMENT_PLAYERS))
    if any(same_name(n, POT) for n in names):
        errors.append(pot_name_taken())
    if clash := look_alike(names):
        errors.append(alike_message(*clash))
    if errors:
        raise RuleError({"players": errors})
    return names


def prize_plan(
    entry_fee_cents: int, *, pool_percent: int | None, pool_cents: int | None, prizes: Any
) -> dict[str, Any]:
    """The pool and the prizes as sent, checked (`scorer.domain.prizes.plan_from_json`),
    to be kept with the tournament and read again by `scorer.services.cash`."""
    plan_from_json(entry_fee_cents, pool_percent, prizes, pool_cents=pool_cents)
    return {"pool_percent": pool_percent, "pool_cents": pool_cents, "prizes": prizes}


Seating = Literal["random", "standings"]
"""How a round is seated: drawn at random (avoiding repeat table-mates), or by the
standings (the leaders at table 1)."""


@dataclass(frozen=True)
class DrawRound:
    """The next round: how it is seated, club-mates kept apart (`keep_apart="club"`) as far
    as the numbers allow, and players who keep a table from now on (`fixed`: a number, or
    None: no longer). Its choices are the body's and the form's own (no text to fold);
    table numbers are checked at the draw, which knows how many tables there are."""

    seating: Seating = "random"
    keep_apart: Literal["club"] | None = None
    fixed: Mapping[str, int | None] = field(default_factory=dict)


@dataclass(frozen=True)
class SwapPlayers:
    """Two seated players who swap seats before the round starts."""

    a: str
    b: str


def swap_players(a: str, b: str) -> SwapPlayers:
    if a == b:
        raise RuleError.one("a", msg("name two different seated players as 'a' and 'b'"))
    return SwapPlayers(a, b)


# --- the door and the director ------------------------------------------------------------


@dataclass(frozen=True)
class Register:
    """A player to register: the name as stored, the club (None: none given)."""

    name: str
    club: str | None = None


@dataclass(frozen=True)
class CheckIn:
    """A registered player at the door (`name`: as registered, or a look-alike spelling of
    it), with his entry fee now (None: as it is)."""

    name: str
    fee: Fee | None = None


@dataclass(frozen=True)
class SetRegistration:
    """Whether players may sign themselves up on the public page, and the cap (None: none)."""

    is_open: bool
    cap: int | None = None


@dataclass(frozen=True)
class GiveToCharity:
    giver: str
    cents: int


@dataclass(frozen=True)
class Adjust:
    """A director's `points` for (or, negative, against) a `player` of the tournament."""

    player: str
    points: int
    reason: str


def register(name: str, club: str | None = None) -> Register:
    """`name` and `club` as stored (a blank club is none), or every field refused at once;
    nobody may be called like the Haferl."""
    refusals = Refusals()
    cleaned = refusals.check(clean_name, name, "name", MAX_PLAYER_NAME)
    kept = None if club is None or not club.strip() else club
    if kept is not None:
        kept = refusals.check(clean_name, kept, "club", MAX_CLUB_NAME)
    refusals.done()
    if same_name(cleaned, POT):
        raise RuleError.one("name", pot_name_taken())
    return Register(cleaned, kept)


def set_registration(*, is_open: bool, cap: int | None) -> SetRegistration:
    if cap is not None:
        cap = whole_number_in(cap, "cap", low=3, high=MAX_TOURNAMENT_PLAYERS)
    return SetRegistration(is_open, cap)


def give_to_charity(giver: str, cents: int) -> GiveToCharity:
    refusals = Refusals()
    cleaned = refusals.check(clean_name, giver, "giver", MAX_PLAYER_NAME)
    amount = refusals.check(whole_number_in, cents, "cents", low=1, high=MAX_CHARITY_CENTS)
    refusals.done()
    return GiveToCharity(cleaned, amount)


def adjust(player: str, points: int, *, reason: str, players: Collection[str]) -> Adjust:
    """`points` for `player`, one of the tournament's `players`, with its `reason`."""
    refusals = Refusals()
    if player not in players:
        refusals.refuse("player", msg("must be a player of this tournament"))
    if not is_whole(points) or not 0 < abs(points) <= MAX_ADJUSTMENT_POINTS:
        refusals.refuse(
            "points",
            msg(
                "must be a whole number of points other than 0, at most %(limit)s either way",
                limit=MAX_ADJUSTMENT_POINTS,
            ),
        )
    cleaned = refusals.check(clean_name, reason, "reason", MAX_ADJUSTMENT_REASON)
    refusals.done()
    return Adjust(player, points, cleaned)
