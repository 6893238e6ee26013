"""The one registry of games and payment systems that the API and the pages read.

A game module calls `register_game`, a payment system module `register_system`; nothing
else in the app lists games or systems by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from scorer.domain.message import Msg, msg
from scorer.domain.model import RuleError
from scorer.domain.params import Param

CALL_WORDS = (msg("Kontra"), msg("Re"), msg("Supp"), msg("Resupp"), msg("Hirsch"))
"""The doublings as called at the table, one word each."""
BONUS_OUTCOMES = {
    (False, True): msg("made"),
    (False, False): msg("lost"),  # a bird lost in its trick; `Game.extras` says the others
    (True, True): msg("announced, made"),
    (True, False): msg("announced, lost"),
}
BONUS_SIDES = {
    "declarer": msg("%(bonus)s, declarer: %(state)s"),
    "opponents": msg("%(bonus)s, opponents: %(state)s"),
}

if TYPE_CHECKING:
    from scorer.domain.model import Hand, Line, Posting, Result


@dataclass(frozen=True)
class Deal:
    """A hand ready to be paid: validated facts, resolved parameters and the seats."""

    game: Game
    params: Mapping[str, Any]
    hand: Hand
    defenders: tuple[str, ...]

    @property
    def declarer(self) -> str:
        return self.hand.declarer

    @property
    def points(self) -> int:
        return self.hand.points if self.hand.points is not None else 0

    @property
    def target(self) -> int:
        """The points the declarer needs: the bid where there is one."""
        bid = self.hand.bid
        if bid == "durch":
            return self.game.total
        return max(self.game.target, bid)


@dataclass(frozen=True)
class Draft:
    """What a payment system says a hand pays, before Kontra doublings and the pot cap."""

    result: Result
    postings: list[Posting]
    explanation: list[Line]


@dataclass(frozen=True)
class System:
    """A payment system: how a hand's outcome turns into money."""

    id: str
    name: Msg
    params: tuple[Param, ...]
    pay: Callable[[Deal], Draft]
    has_pot: Callable[[Mapping[str, Any]], bool] = lambda params: False
    pot_name: Msg = field(default_factory=lambda: msg("Haferl"))
    """What the players call the shared pot at this system's tables: Haferl, or Kasse."""
    durch_bid: bool = False
    pays_durch: bool = True
    """Whether a Durch (every trick; a Bettel-like no trick when lost) pays something of its
    own; where it does not, the explanation says so (the card points count as they are)."""
    description: Msg | str = ""


@dataclass(frozen=True)
class Game:
    """A game: its contracts, players, points and the payment systems it is played with."""

    id: str
    name: Msg
    players: tuple[int, ...]
    active: int
    contracts: Mapping[str, Msg]
    total: int
    target: int
    systems: tuple[str, ...]
    validate: Callable[[Game, System, Hand, Mapping[str, Any]], dict[str, list[Msg]]]
    params: tuple[Param, ...] = ()
    clockwise: bool = True
    """Which way the deal passes; players are listed in that order (the new-table page says
    so for a counter-clockwise game)."""
    bids: bool = False
    doublings: bool = True
    trump_required: bool = False
    description: Msg | str = ""
    bonus_ids: Callable[[str, Mapping[str, Any]], tuple[str, ...]] = field(
        default=lambda system_id, params: ()
    )
    bonus_names: Mapping[str, Msg] = field(default_factory=dict)
    announceable: tuple[str, ...] = ()
    """Bonuses a side may announce before the play (and then fail)."""
    announcers: tuple[str, ...] = ("declarer", "defenders")
    """The sides that may announce them (Tapp: the declarer only)."""
    birds: tuple[str, ...] = ()
    """Bonuses played to a trick that score for the opponent when lost."""
    trumps: bool = True
    """Whether the page asks for a trump suit (the 32-card games). Elsewhere a trump may be
    given through the API and changes nothing; a Bettel never has one."""
    flags: tuple[str, ...] = ("all_tricks", "no_tricks")
    """The hand's yes/no facts this game knows: every trick, no trick."""
    counting: str = "bavarian"
    """How card points are counted from the cards taken (`cardpoints`): 'bavarian' (Aces 11,
    Tens 10 …) or 'tarock' (54 cards counted in threes)."""
    contract_words: Mapping[str, Msg] = field(default_factory=dict)
    """How players name a contract in a list of hands, where it differs from `contracts`."""
    heart_words: Mapping[str, Msg] = field(default_factory=dict)
    """A contract's own name when it is played with hearts (Herzsolo)."""

    def contract_label(self, facts: Mapping[str, Any]) -> Msg:
        """'Herzsolo', 'Frage', 'Hand 76', 'Hand Durch', 'Dreier' … as players say it."""
        contract = facts["contract"]
        word = self.heart_words.get(contract) if facts.get("trump") == "herz" else None
        word = word or self.contract_words.get(contract) or self.contracts[contract]
        bid = facts.get("bid", 61)
        if bid == "durch":
            return msg("%(contract)s Durch", contract=word)
        if isinstance(bid, int) and bid > 61:
            return msg("%(contract)s %(bid)s", contract=word, bid=bid)
        return word

    def contract_word(self, facts: Mapping[str, Any]) -> Msg:
        """The contract without its bid: 'Herzsolo', 'Frage', 'Hand' (a sheet has a column
        for the bid)."""
        return self.contract_label({**facts, "bid": 61})

    def extras(self, facts: Mapping[str, Any]) -> tuple[Msg, ...]:
        """What a hand was beside its contract and bid, each once: every trick (unless the
        bid says Durch), no trick, the Kontra, and each bonus with its side and how it went
        ("Pagat, opponents: announced, lost")."""
        said: list[Msg] = []
        if facts.get("all_tricks") and facts.get("bid") != "durch":
            said.append(msg("Durch") if self.trumps else msg("all tricks"))
        if facts.get("no_tricks") and facts.get("contract") != "bettel":
            said.append(msg("no trick"))
        doublings = facts.get("doublings") or 0
        if 0 < doublings <= len(CALL_WORDS):
            said.append(CALL_WORDS[doublings - 1])
        for bonus in facts.get("bonuses") or ():
            name = self.bonus_names.get(bonus["id"]) or bonus["id"]
            state = BONUS_OUTCOMES[(bool(bonus["announced"]), bool(bonus["made"]))]
            if not bonus["made"] and not bonus["announced"] and bonus["id"] not in self.birds:
                state = msg("not made")
            side = "declarer" if bonus["side"] == "declarer" else "opponents"
            said.append(BONUS_SIDES[side].with_args(bonus=name, state=state))
        return tuple(said)

    def asks_trump(self, params: Mapping[str, Any]) -> bool:
        """Whether the table page asks for the trump: only where it changes what a hand is
        worth (a Herzsolo) or whether it is allowed (a required trump, a hearts-only Frage).
        Elsewhere a trump changes nothing and is not asked; one given through the API is
        kept."""
        return self.trumps and (
            self.trump_required or bool(self.heart_words) or bool(params.get("frage_hearts_only"))
        )

    @staticmethod
    def takes_trump(contract: str) -> bool:
        """Whether a hand of this contract may name a trump suit: all but a Bettel."""
        return contract != "bettel"

    def all_params(self, system: System) -> tuple[Param, ...]:
        """The parameters a table of this game and system can set: the system's, then the
        game's."""
        return system.params + self.params

    def offered_params(self, system: System) -> tuple[Param, ...]:
        """The parameters a table of this game is offered (forms, the rules page, printed
        rules): `all_params` without those for a contract the game does not have (a Bettel's
        value at Tarock without Bettel). The others still take their defaults."""
        return tuple(
            p for p in self.all_params(system) if p.contract is None or p.contract in self.contracts
        )


GAMES: dict[str, Game] = {}
SYSTEMS: dict[str, System] = {}


def register_game(game: Game) -> Game:
    if game.id in GAMES:
        raise ValueError(f"game {game.id} registered twice")
    GAMES[game.id] = game
    return game


def register_system(system: System) -> System:
    if system.id in SYSTEMS:
        raise ValueError(f"payment system {system.id} registered twice")
    SYSTEMS[system.id] = system
    return system


def get_game(game_id: Any) -> Game:
    game = GAMES.get(game_id) if isinstance(game_id, str) else None
    if game is None:
        raise RuleError.one("game", msg("unknown game; see GET /api/v1/games"))
    return game


def get_system(game: Game, system_id: Any) -> System:
    system = SYSTEMS.get(system_id) if isinstance(system_id, str) else None
    if system is None:
        raise RuleError.one("system", msg("unknown payment system"))
    if system.id not in game.systems:
        raise RuleError.one(
            "system",
            msg(
                "'%(system)s' is not a payment system of %(game)s; choose one of: %(choices)s",
                system=system.name,
                game=game.name,
                choices=tuple(SYSTEMS[s].name for s in game.systems),
            ),
        )
    return system
