"""The ledger of an evening: folding the recorded hands, in order, through the rules.

Balances are derived, never stored as a second truth: the state after the last hand is the
fold of every hand before it. The fold knows the pot (stakes, caps, round ends and refills),
the four-player rotation with the dealer sitting out, and Strohmandeln's doubling after a
draw, held at the cap `max_draw_factor`. Recording a hand continues from the state after the
last one; an edit or a void in the middle folds the evening again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from scorer.domain.model import POT, Hand, RuleError, Score
from scorer.domain.scoring import Rules
from scorer.domain.settle import Transfer, settle, share_pot


@dataclass
class LedgerState:
    """Where the evening stands after a number of hands."""

    balances: dict[str, int]
    pot: int
    round: int
    next_dealer: str
    factor: int = 1
    round_over: bool = False
    stakes_paid: int = 0
    hands: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "balances": dict(self.balances),
            "pot": self.pot,
            "round": self.round,
            "next_dealer": self.next_dealer,
            "factor": self.factor,
            "round_over": self.round_over,
            "stakes_paid": self.stakes_paid,
            "hands": self.hands,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LedgerState:
        return cls(**{**data, "balances": dict(data["balances"])})


@dataclass(frozen=True)
class Entry:
    """One hand as the ledger saw it: seats, score, and the pot around it."""

    number: int
    dealer: str
    sitting_out: str | None
    active: tuple[str, ...]
    score: Score
    net: dict[str, int]
    round: int
    new_round: bool
    pot_after: int
    round_end: bool
    factor: int = 1
    balances_after: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Settlement:
    """The end of an evening: each player's net position (the pot's when it keeps the
    remainder) and the transfers that settle it."""

    balances: dict[str, int]
    transfers: tuple[Transfer, ...]


@dataclass(frozen=True)
class Ledger:
    """The rules of a table, its players in dealing order and who dealt first."""

    rules: Rules
    players: tuple[str, ...]
    first_dealer: str
    points_only: bool = False
    """Tournament scoring (RULES §5): one unit or cent is one point, no pot, no cap, no
    stakes. A payment out of the pot counts for its receiver only."""

    def __post_init__(self) -> None:
        game = self.rules.game
        if len(self.players) not in game.players:
            counts = " or ".join(str(n) for n in game.players)
            raise RuleError.one("players", f"{game.name} is played by {counts} players")
        if len({p.casefold() for p in self.players}) != len(self.players):
            raise RuleError.one("players", "names must be different")
        if any(p.casefold() == POT for p in self.players):
            raise RuleError.one("players", f"'{POT}' is the name of the pot: choose another name")
        if self.rules.params.get("berliner") and len(self.players) > game.active:
            raise RuleError.one(
                "params.berliner",
                "the Berliner rule needs three at the table: at four the dealer sits out",
            )
        if self.first_dealer not in self.players:
            raise RuleError.one("first_dealer", "must be one of the players")

    @property
    def has_pot(self) -> bool:
        return self.rules.has_pot and not self.points_only

    @property
    def stake(self) -> int:
        return self.rules.params["stake_cents"] if self.has_pot else 0

    def start(self) -> LedgerState:
        """The state before the first hand: the first stake is paid where there is a pot."""
        state = LedgerState({p: 0 for p in self.players}, 0, 1, self.first_dealer)
        if self.has_pot:
            self._pay_stakes(state)
        return state

    def seats(self, dealer: str) -> tuple[tuple[str, ...], str | None]:
        """The active players and who sits out: at a table of four the dealer does."""
        if len(self.players) > self.rules.game.active:
            return tuple(p for p in self.players if p != dealer), dealer
        return self.players, None

    def next_after(self, dealer: str) -> str:
        seat = self.players.index(dealer)
        return self.players[(seat + 1) % len(self.players)]

    def play(
        self, state: LedgerState, number: int, hand: Hand, dealer: str | None = None
    ) -> tuple[Entry, LedgerState]:
        """Score one more hand after `state`; returns the entry and the new state.

        `state` is not changed. Raises RuleError when the hand breaks a rule."""
        dealer = dealer or state.next_dealer
        if dealer not in self.players:
            raise RuleError.one("dealer", "must be one of the players")
        active, sitting_out = self.seats(dealer)
        if hand.declarer == sitting_out:
            raise RuleError.one("declarer", f"{sitting_out} deals and sits out this hand")
        if hand.dealer is None:
            hand = replace(hand, dealer=dealer)
        new = LedgerState.from_json(state.to_json())
        new_round = False
        if self.has_pot and new.round_over and self.rules.params["refill"]:
            new.round += 1
            self._pay_stakes(new)
            new_round = True
        # A state saved before the cap existed may hold more than the cap: it counts as the cap.
        factor = self.rules.cap_factor(new.factor)
        score = self.rules.score(
            active, hand, pot_cents=new.pot if self.has_pot else None, factor=factor
        )
        net = score.net([*self.players, POT])
        if self.points_only:
            net[POT] = 0
        for account, cents in net.items():
            if account == POT:
                new.pot += cents
            else:
                new.balances[account] += cents
        round_end = self.has_pot and new.pot == 0
        new.round_over = round_end
        new.next_dealer = self.next_after(dealer)
        new.hands += 1
        params = self.rules.params
        if score.result == "draw" and params.get("draw_doubles_next"):
            new.factor = self.rules.cap_factor(factor * 2)
        else:
            new.factor = 1
        entry = Entry(
            number=number,
            dealer=dealer,
            sitting_out=sitting_out,
            active=active,
            score=score,
            net=net,
            round=new.round,
            new_round=new_round,
            pot_after=new.pot,
            round_end=round_end,
            factor=factor,
            balances_after=dict(new.balances),
        )
        return entry, new

    def fold(
        self, hands: Iterable[tuple[int, Hand, str | None]]
    ) -> tuple[list[Entry], LedgerState]:
        """Every hand in order from the start: (number, hand, dealer) → entries, state."""
        state = self.start()
        entries = []
        for number, hand, dealer in hands:
            entry, state = self.play(state, number, hand, dealer)
            entries.append(entry)
        return entries, state

    def settle_up(self, state: LedgerState) -> Settlement:
        """Each player's net position after `state` with the pot shared out per the table's
        `pot_at_end`, and the fewest transfers that settle it. Points (a tournament table)
        are not paid: their balances are the points, with no transfers."""
        if self.points_only:
            return Settlement(dict(state.balances), ())
        balances = final_balances(state, self.players, self.rules.params.get("pot_at_end"))
        return Settlement(balances, tuple(settle(balances)))

    def _pay_stakes(self, state: LedgerState) -> None:
        for player in self.players:
            state.balances[player] -= self.stake
        state.pot += self.stake * len(self.players)
        state.stakes_paid += 1


def final_balances(
    state: LedgerState, players: Sequence[str], pot_at_end: str | None
) -> dict[str, int]:
    """Each player's net position at the end with the pot remainder per `pot_at_end`:
    `split` shares it out (odd cents one each in seat order), `keep` shows it as held by the
    pot."""
    if state.pot and pot_at_end == "split":
        return share_pot(dict(state.balances), state.pot, list(players))
    balances = dict(state.balances)
    if state.pot:
        balances[POT] = state.pot
    return balances
