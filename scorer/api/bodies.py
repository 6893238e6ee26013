"""What the API's requests send: each body's model (see `scorer.api.contract`), with the
message each field is refused with."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, StringConstraints, WithJsonSchema

from scorer.api.contract import Body, Refusal, Said
from scorer.domain.limits import (
    MAX_ADJUSTMENT_POINTS,
    MAX_ADJUSTMENT_REASON,
    MAX_BONUSES,
    MAX_CHARITY_CENTS,
    MAX_CLUB_NAME,
    MAX_DEALS_PER_PLAYER,
    MAX_ENTRY_FEE_CENTS,
    MAX_GROUP_MEMBERS,
    MAX_GROUP_NAME,
    MAX_ID,
    MAX_PLAYER_NAME,
    MAX_SEATS,
    MAX_TABLE_NAME,
    MAX_TOURNAMENT_NAME,
    MAX_TOURNAMENT_PLAYERS,
    MAX_TOURNAMENT_ROUNDS,
)
from scorer.domain.message import Msg, msg, one_of
from scorer.domain.prizes import MAX_PRIZE_CENTS
from scorer.domain.scoring import SUIT_NAMES
from scorer.domain.tournament import DEFAULT_TIE_BREAKS, TIE_BREAKS
from scorer.domain.tournament_commands import DEFAULT_DEALS, DEFAULT_ROUNDS

# --- the kinds of value -------------------------------------------------------------------


def Filled(limit: int) -> StringConstraints:  # noqa: N802 (reads as a type)
    """Text with something in it (not only spaces), at most `limit` characters."""
    return StringConstraints(pattern=r"\S", max_length=limit)


def Name(limit: int) -> WithJsonSchema:  # noqa: N802
    """A name as the services take it (`names.clean_name`: spaces folded, then 1..`limit`
    characters, nothing invisible): its length is checked there, after the folding."""
    return WithJsonSchema({"type": "string", "maxLength": limit})


AnyObject = dict[str, Any]
TRUE_OR_FALSE = Refusal(msg("must be true or false"))
TEXT = Refusal(msg("must be text"))
NAMES = msg("must be a list of names")
PlayerNames = list[Annotated[str, Name(MAX_PLAYER_NAME)]]
Seated = Annotated[
    PlayerNames,
    Field(max_length=MAX_SEATS),
    Refusal(NAMES, by_type={"too_long": msg("at most %(count)s names", count=MAX_SEATS)}),
]
"""The players of a table: at most MAX_SEATS names."""
MemberNames = Annotated[
    PlayerNames,
    Field(max_length=MAX_GROUP_MEMBERS),
    Refusal(NAMES, by_type={"too_long": msg("at most %(count)s names", count=MAX_GROUP_MEMBERS)}),
]
"""The members of a Stammtisch group: at most MAX_GROUP_MEMBERS names."""


def _game_total(context: Mapping[str, Any]) -> Msg:
    return msg("must be a whole number 0..%(maximum)s", maximum=context["game"].total)


def _contracts(context: Mapping[str, Any]) -> Msg:
    return one_of(context["game"].contracts.values())


# --- a hand ----------------------------------------------------------------------------------


class Bonus(Body, extra="forbid"):
    """A Tapp Tarock or Strohmandeln bonus as entered."""

    unknown: ClassVar[Said] = lambda context: msg(  # noqa: E731
        "unknown bonus fields: %(fields)s", fields=context["fields"]
    )
    unknown_under: ClassVar[str | None] = "bonuses"

    id: Annotated[
        str,
        Filled(MAX_ID),
        Refusal(msg("each bonus is an object with an 'id'"), field="bonuses"),
    ]
    side: Annotated[
        Literal["declarer", "defenders"],
        Refusal(msg("a bonus's side is 'declarer' or 'defenders'"), field="bonuses"),
    ] = "declarer"
    announced: Annotated[
        bool, Refusal(msg("'announced' and 'made' are true or false"), field="bonuses")
    ] = False
    made: Annotated[
        bool, Refusal(msg("'announced' and 'made' are true or false"), field="bonuses")
    ] = True


BONUS_ITEM = Refusal(msg("each bonus is an object with an 'id'"))


# A hand recorded or corrected is not validated by these models: its command is
# (`scorer.domain.commands`, through `facts.parse_hand`), as the table page's is, with the
# same messages. `NewHand` and `HandEdit` are the shapes the OpenAPI document shows for
# those bodies; `Hand` also validates the `hand` of a `ScoreRequest` (nothing is stored),
# and says what `parse_hand` says (tests/test_contract.py). (The docstrings are the
# document's descriptions.)


class Hand(Body, extra="forbid"):
    """The facts of a hand (API.md, "Hands"): who declared what, and the card points. The
    game's own choices (its contracts, bids, points, doublings) are checked when it is
    scored; the messages name them (`context["game"]`)."""

    declarer: Annotated[str, Filled(MAX_PLAYER_NAME), Refusal(msg("name the declarer"))]
    contract: Annotated[str, Filled(MAX_ID), Refusal(_contracts)]
    trump: Annotated[str | None, Filled(MAX_ID), Refusal(one_of(SUIT_NAMES.values()))] = None
    bid: Annotated[
        int | Literal["durch"] | None, Refusal(msg("must be 61..116 in steps of 5 or 'durch'"))
    ] = None
    points: Annotated[int | None, Refusal(_game_total)] = None
    defender_points: Annotated[int | None, Refusal(_game_total)] = None
    all_tricks: Annotated[bool | None, TRUE_OR_FALSE] = None
    no_tricks: Annotated[bool | None, TRUE_OR_FALSE] = None
    doublings: Annotated[
        int | None,
        Field(description="Kontra, Re, …: 0 up to the table's max_doublings (at most 5)"),
        Refusal(msg("must be a whole number 0..5")),
    ] = None
    bonuses: Annotated[
        list[Bonus] | None,
        Field(max_length=MAX_BONUSES),
        Refusal(
            BONUS_ITEM.message,
            by_type={
                "list_type": msg("must be a list of at most %(count)s bonuses", count=MAX_BONUSES),
                "too_long": msg("must be a list of at most %(count)s bonuses", count=MAX_BONUSES),
            },
        ),
    ] = None
    dealer: Annotated[
        str | None, Filled(MAX_PLAYER_NAME), Refusal(msg("must be a player's name"))
    ] = None


class NewHand(Hand):
    """A hand to record, and the number the device showed for it."""

    number: Annotated[
        int | None,
        Field(
            ge=1,
            description="The number the device showed for the hand it enters: 409 "
            "hand_exists when that hand is stored already, 422 beyond the next.",
        ),
        Refusal(lambda context: msg("the next hand is number %(number)s", **context)),
    ] = None


class HandEdit(Hand):
    """A corrected hand, and the version it was read at."""

    version: Annotated[int, Refusal(msg("the version the hand was read at is needed"))]


# --- tables and scoring ----------------------------------------------------------------------


GAME = Refusal(msg("unknown game; see GET /api/v1/games"))
SYSTEM = Refusal(msg("unknown payment system"))
PARAMS = Refusal(msg("must be an object of parameter names and values"))


class ChosenRules(Body):
    """The rules a body chooses: a game, its payment system and their parameters."""

    game: Annotated[str, GAME]
    system: Annotated[str, SYSTEM]
    params: Annotated[AnyObject | None, PARAMS] = None


class NewSession(ChosenRules):
    """A table to open."""

    name: Annotated[str, Name(MAX_TABLE_NAME), TEXT] = ""
    players: Seated
    first_dealer: Annotated[str | None, Refusal(msg("must be one of the players"))] = None


class ScoreTable(ChosenRules):
    """The table a hand is scored at without storing it (`ScoreRequest` without its hand,
    which `facts.parse_hand` validates, as every hand)."""

    players: Seated
    pot_cents: Annotated[
        int | None, Field(ge=0), Refusal(msg("must be a whole number of cents ≥ 0, or null"))
    ] = None


class ScoreRequest(ScoreTable):
    """One hand to score without storing it (documents the body: see `ScoreTable`)."""

    hand: Annotated[Hand, Refusal(msg("must be an object"))]


# --- tournaments -----------------------------------------------------------------------------


def _whole_between(low: int, high: int) -> Refusal:
    return Refusal(msg("must be a whole number %(low)s..%(high)s", low=low, high=high))


class NewTournament(ChosenRules):
    """A tournament to create: its players one per line, or as a list."""

    name: Annotated[str, Name(MAX_TOURNAMENT_NAME), TEXT] = ""
    date: Annotated[
        Annotated[str, WithJsonSchema({"type": "string", "format": "date"})] | None,
        Refusal(msg("must be a date like 2026-12-24")),
    ] = None
    rounds: Annotated[
        int, Field(ge=1, le=MAX_TOURNAMENT_ROUNDS), _whole_between(1, MAX_TOURNAMENT_ROUNDS)
    ] = DEFAULT_ROUNDS
    deals_per_player: Annotated[
        int, Field(ge=1, le=MAX_DEALS_PER_PLAYER), _whole_between(1, MAX_DEALS_PER_PLAYER)
    ] = DEFAULT_DEALS
    players: Annotated[
        list[Annotated[str, Name(MAX_PLAYER_NAME)]] | str,
        Field(description=f"none, or 3..{MAX_TOURNAMENT_PLAYERS} names, or one per line"),
        Refusal(NAMES),
    ] = []
    tie_breaks: Annotated[
        list[str],
        WithJsonSchema(
            {
                "type": "array",
                "items": {"type": "string", "enum": list(TIE_BREAKS)},
                "uniqueItems": True,
            }
        ),
        Refusal(msg("must be a list of tie-breaks")),
    ] = list(DEFAULT_TIE_BREAKS)
    check_in: Annotated[
        bool | None,
        Field(description="players check in at the door; by default when `players` is empty"),
        TRUE_OR_FALSE,
    ] = None
    registration_open: Annotated[bool, TRUE_OR_FALSE] = False
    cap: Annotated[
        int | None,
        Field(ge=3, le=MAX_TOURNAMENT_PLAYERS),
        _whole_between(3, MAX_TOURNAMENT_PLAYERS),
    ] = None
    missed_round_points: Annotated[
        int,
        Field(ge=-MAX_ADJUSTMENT_POINTS, le=MAX_ADJUSTMENT_POINTS),
        _whole_between(-MAX_ADJUSTMENT_POINTS, MAX_ADJUSTMENT_POINTS),
    ] = 0
    entry_fee_cents: Annotated[
        int, Field(ge=0, le=MAX_ENTRY_FEE_CENTS), _whole_between(0, MAX_ENTRY_FEE_CENTS)
    ] = 0
    pool_percent: Annotated[int | None, Field(ge=0, le=100), _whole_between(0, 100)] = 100
    pool_cents: Annotated[
        int | None, Field(ge=0, le=MAX_PRIZE_CENTS), _whole_between(0, MAX_PRIZE_CENTS)
    ] = None
    series: Annotated[
        int | None,
        Field(description="the id of the series (cup) it is part of"),
        Refusal(msg("must be the id of one of your series")),
    ] = None
    final: Annotated[bool, TRUE_OR_FALSE] = False
    prizes: Annotated[
        Annotated[
            Any,
            WithJsonSchema(
                {
                    "description": 'by place: {"percent": [30, 25, 15, 10]}, {"cents": [...]},'
                    ' {"goods": [...]} or a list of {"percent"|"cents"|"goods": ...}'
                }
            ),
        ],
        Refusal(msg("must be the prizes by place")),
    ] = None


class Player(Body):
    """A player registered by the organiser (a late entry once rounds are drawn)."""

    name: Annotated[
        str,
        Name(MAX_PLAYER_NAME),
        Refusal(msg("must have 1..%(limit)s characters", limit=MAX_PLAYER_NAME)),
    ]
    club: Annotated[str | None, Name(MAX_CLUB_NAME), TEXT] = None


class CheckIn(Body):
    """A player at the door: whether he paid the entry fee in cash (or it is waived)."""

    paid: Annotated[bool, TRUE_OR_FALSE] = False
    waived: Annotated[bool, TRUE_OR_FALSE] = False


class Registration(Body):
    """Whether players may sign themselves up on the public page, and the cap."""

    open: Annotated[bool, TRUE_OR_FALSE]
    cap: Annotated[
        int | None,
        Field(ge=3, le=MAX_TOURNAMENT_PLAYERS),
        _whole_between(3, MAX_TOURNAMENT_PLAYERS),
    ] = None


class Gift(Body):
    """A gift to the charity pot."""

    giver: Annotated[str, Name(MAX_PLAYER_NAME), TEXT]
    cents: Annotated[int, Field(ge=1, le=MAX_CHARITY_CENTS), _whole_between(1, MAX_CHARITY_CENTS)]


class Draw(Body):
    """How the next round is seated: drawn at random (avoiding repeat table-mates) or by
    the standings; club-mates kept apart; players who keep a table of their own."""

    seating: Annotated[
        Literal["random", "standings"], Refusal(msg("must be 'random' or 'standings'"))
    ] = "random"
    keep_apart: Annotated[Literal["club"] | None, Refusal(msg("must be 'club' or null"))] = None
    fixed: Annotated[
        dict[str, int | None] | None,
        Field(description="player: the table he keeps from now on (null: none)"),
        Refusal(msg("must map players to table numbers")),
    ] = None


class Swap(Body):
    """Two seated players to swap before the round starts."""

    a: Annotated[str, Refusal(msg("name two different seated players as 'a' and 'b'"))]
    b: Annotated[str, Refusal(msg("name two different seated players as 'a' and 'b'"), field="a")]


class NewAdjustment(Body):
    """A director's points for or against a player, with the reason."""

    player: Annotated[
        str, Name(MAX_PLAYER_NAME), Refusal(msg("must be a player of this tournament"))
    ]
    points: Annotated[
        int,
        Field(
            ge=-MAX_ADJUSTMENT_POINTS,
            le=MAX_ADJUSTMENT_POINTS,
            json_schema_extra={"not": {"const": 0}},
        ),
        Refusal(
            msg(
                "must be a whole number of points other than 0, at most %(limit)s either way",
                limit=MAX_ADJUSTMENT_POINTS,
            )
        ),
    ]
    reason: Annotated[
        str,
        Name(MAX_ADJUSTMENT_REASON),
        TEXT,
    ]


class Nothing(Body):
    """An action without anything to say: send `{}` (anything in it is ignored)."""


# --- Stammtisch groups -----------------------------------------------------------------------


class NewGroup(ChosenRules):
    """A Stammtisch group to found; its key is the permission."""

    name: Annotated[str, Name(MAX_GROUP_NAME), TEXT] = ""
    members: MemberNames = []
    carry_pot: Annotated[bool, TRUE_OR_FALSE] = True
    settle: Annotated[
        Literal["each_evening", "collected"], Refusal(msg("must be 'each_evening' or 'collected'"))
    ] = "each_evening"
    share_by: Annotated[
        Literal["equal", "evenings"], Refusal(msg("must be 'equal' or 'evenings'"))
    ] = "equal"


class Members(Body):
    """Members to add."""

    members: MemberNames


class MemberChange(Body):
    """A member's new name, and/or `coming`: false for one who stopped coming."""

    name: Annotated[str, Name(MAX_PLAYER_NAME), Refusal(NAMES)] = ""
    coming: Annotated[bool, TRUE_OR_FALSE] = True


class GroupRules(Body):
    """The rules and amounts of the group's next evenings (the game stays)."""

    system: Annotated[str | None, SYSTEM] = None
    params: Annotated[AnyObject | None, PARAMS] = None


class NewEvening(Body):
    """An evening of the group: who plays, who deals first, its name and its own amounts."""

    players: Seated
    first_dealer: Annotated[str | None, TEXT] = None
    name: Annotated[Annotated[str, Name(MAX_TABLE_NAME)] | None, TEXT] = None
    params: Annotated[AnyObject | None, Refusal(msg("must be an object"))] = None


class NewSeries(Body):
    """A cup over a season: cup points by place (or the field rule), the best N results
    that count, what ties in its table, the points its final starts with by series place."""

    name: Annotated[str, Name(MAX_GROUP_NAME), TEXT]
    cup_points: Annotated[
        Annotated[
            Any,
            WithJsonSchema({"description": 'by place, [100, 90, 82, …], or {"rule": "field"}'}),
        ],
        Refusal(msg("must be cup points by place")),
    ]
    best_of: Annotated[int | None, Field(ge=1, le=100), _whole_between(1, 100)] = None
    final_carry: Annotated[
        Annotated[Any, WithJsonSchema({"type": ["array", "null"], "items": {"type": "integer"}})],
        Refusal(msg("must be points by series place")),
    ] = None
    tie_breaks: Annotated[
        Annotated[Any, WithJsonSchema({"type": ["array", "null"], "items": {"type": "string"}})],
        Refusal(msg("must be a list of tie-breaks")),
    ] = None


class Rename(Body):
    """One person's name in a series: `from` (as he played) is `into` from now on."""

    from_: Annotated[str, Field(alias="from"), Name(MAX_PLAYER_NAME), TEXT]
    into: Annotated[str, Name(MAX_PLAYER_NAME), TEXT]
