"""The ledger of an evening: folding the recorded hands, in order, through the rules.

Balances are derived, never stored as a second truth: the state after the last hand is the
fold of every hand before it. The fold knows the pot (stakes, caps, round ends and refills),
the four-player rotation with the dealer sitting out, players who come and go (`Lineup`),
and Strohmandeln's doubling after a draw, held at the cap `max_draw_factor`. Recording a
hand continues from the state after the last one; an edit or a void in the middle folds the
evening again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from scorer.domain.message import msg
from scorer.domain.model import POT, Hand, RuleError, Score, pot_name_taken
from scorer.domain.names import alike_message, look_alike, same_name
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
    seated: list[str] | None = None
    """Who sits at the table now, in dealing order; None: the players the evening began
    with (a state saved before players could come and go)."""
    lineups: int = 0
    """How many of the ledger's lineup changes are in effect."""

    def to_json(self) -> dict[str, Any]:
        extra: dict[str, Any] = {}
        if self.seated is not None:
            extra = {"seated": list(self.seated), "lineups": self.lineups}
        return {
            **extra,
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
class Lineup:
    """A change of who sits at the table: from hand `at` on, `players` (in dealing order)
    play, and `dealer` deals the first hand after the change. Someone new starts at 0 and,
    where there is a pot, pays the stake of the running round into it as he sits down; who
    leaves keeps his balance, to be settled at the end, and takes no share of the pot. (When
    the pot is empty and waits to be refilled, the newcomer pays with everyone else; in a
    round nobody paid a stake for, a Haferl carried in from the last evening, neither does
    he.)"""

    at: int
    players: tuple[str, ...]
    dealer: str

    def to_json(self) -> dict[str, Any]:
        return {"at": self.at, "players": list(self.players), "dealer": self.dealer}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Lineup:
        return cls(int(data["at"]), tuple(data["players"]), data["dealer"])


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
    lineups: tuple[Lineup, ...] = ()
    """Players who came and went after the start, in the order of their hands."""
    opening_pot: int = 0
    """A Haferl carried over from the group's last evening: the evening starts with it and
    no stake is paid until it runs empty (then the system refills as usual)."""

    def __post_init__(self) -> None:
        self._check_seats(self.players)
        if self.first_dealer not in self.players:
            raise RuleError.one("first_dealer", msg("must be one of the players"))
        known = list(self.players)
        last = 0
        for lineup in self.lineups:
            self._check_seats(lineup.players)
            if lineup.at <= last:
                raise RuleError.one("players", msg("changes of players must come in order"))
            last = lineup.at
            for name in lineup.players:
                spelled = next((k for k in known if same_name(k, name)), name)
                if spelled != name:
                    raise RuleError.one(
                        "players",
                        msg(
                            "'%(name)s' is '%(known)s', who played before", name=name, known=spelled
                        ),
                    )
                if spelled not in known:
                    known.append(name)
            if lineup.dealer not in lineup.players:
                raise RuleError.one("dealer", msg("must be one of the players"))

    def _check_seats(self, players: Sequence[str]) -> None:
        game = self.rules.game
        if len(players) not in game.players:
            if len(game.players) == 1:
                wrong = msg(
                    "%(game)s is played by %(count)s players", game=game.name, count=game.players[0]
                )
            else:
                wrong = msg(
                    "%(game)s is played by %(fewer)s or %(more)s players",
                    game=game.name,
                    fewer=game.players[0],
                    more=game.players[-1],
                )
            raise RuleError.one("players", wrong)
        if clash := look_alike(players):
            raise RuleError.one("players", alike_message(*clash))
        if any(same_name(p, POT) for p in players):
            raise RuleError.one("players", pot_name_taken())
        if self.rules.params.get("berliner") and len(players) > game.active:
            raise RuleError.one(
                "params.berliner",
                msg("the Berliner rule needs three at the table: at four the dealer sits out"),
            )

    @property
    def everyone(self) -> tuple[str, ...]:
        """Everyone who sat at the table this evening, in order of arrival."""
        names = list(self.players)
        for lineup in self.lineups:
            names += [p for p in lineup.players if p not in names]
        return tuple(names)

    def seated(self, state: LedgerState) -> tuple[str, ...]:
        """Who sits at the table after `state`, in dealing order."""
        return tuple(state.seated) if state.seated is not None else self.players

    def seated_at(self, number: int) -> tuple[str, ...]:
        """Who sat at the table for hand `number`."""
        players = self.players
        for lineup in self.lineups:
            if lineup.at <= number:
                players = lineup.players
        return players

    def seat_changes(self) -> list[tuple[int, tuple[str, ...], tuple[str, ...], tuple[str, ...]]]:
        """Each change of players: (its first hand, who sits down for the first time this
        evening, who comes back, who gets up)."""
        seen, before = set(self.players), self.players
        changes = []
        for lineup in self.lineups:
            now = lineup.players
            new = tuple(p for p in now if p not in seen)
            back = tuple(p for p in now if p in seen and p not in before)
            gone = tuple(p for p in before if p not in now)
            changes.append((lineup.at, new, back, gone))
            seen, before = seen | set(now), now
        return changes

    def newcomer_stake(self, state: LedgerState) -> int | None:
        """What someone new pays into the pot as he sits down after `state` (`ready`): the
        stake of the running round, 0 where there is no pot or in a round nobody paid a
        stake for (a Haferl carried in), None while the pot waits to be refilled (he pays
        with everyone)."""
        if not self.has_pot:
            return 0
        if state.round_over:
            return None
        return self.stake if state.stakes_paid else 0

    def ready(self, state: LedgerState, number: int) -> LedgerState:
        """`state` with every change of players up to hand `number` in effect (a new
        state; `state` is not changed)."""
        due = [n for n, lineup in enumerate(self.lineups, 1) if lineup.at <= number]
        if not due or due[-1] <= state.lineups:
            return state
        new = LedgerState.from_json(state.to_json())
        for n in range(state.lineups + 1, due[-1] + 1):
            lineup = self.lineups[n - 1]
            for player in lineup.players:
                if player not in new.balances:
                    new.balances[player] = 0
                    if self.has_pot and not new.round_over and new.stakes_paid:
                        new.balances[player] -= self.stake
                        new.pot += self.stake
            new.seated = list(lineup.players)
            new.lineups = n
            new.next_dealer = lineup.dealer
        return new

    @property
    def has_pot(self) -> bool:
        return self.rules.has_pot and not self.points_only

    @property
    def stake(self) -> int:
        return self.rules.params["stake_cents"] if self.has_pot else 0

    def start(self) -> LedgerState:
        """The state before the first hand: the first stake is paid where there is a pot."""
        state = LedgerState({p: 0 for p in self.players}, 0, 1, self.first_dealer)
        if self.has_pot and self.opening_pot > 0:
            state.pot = self.opening_pot
        elif self.has_pot:
            self._pay_stakes(state)
        return state

    def seats(
        self, dealer: str, seated: tuple[str, ...] | None = None
    ) -> tuple[tuple[str, ...], str | None]:
        """The active players and who sits out: at a table of four the dealer does."""
        seated = seated if seated is not None else self.players
        if len(seated) > self.rules.game.active:
            return tuple(p for p in seated if p != dealer), dealer
        return seated, None

    def next_after(self, dealer: str, seated: tuple[str, ...] | None = None) -> str:
        seated = seated if seated is not None else self.players
        seat = seated.index(dealer)
        return seated[(seat + 1) % len(seated)]

    def play(
        self, state: LedgerState, number: int, hand: Hand, *, dealer: str | None = None
    ) -> tuple[Entry, LedgerState]:
        """Score one more hand after `state`; returns the entry and the new state.

        `state` is not changed. Raises RuleError when the hand breaks a rule."""
        state = self.ready(state, number)
        seated = self.seated(state)
        dealer = dealer or state.next_dealer
        active, sitting_out = self._dealt(hand, dealer, seated)
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
        net = score.net([*new.balances, POT])
        if self.points_only:
            net[POT] = 0
        _post(new, net)
        round_end = self.has_pot and new.pot == 0
        new.round_over = round_end
        new.next_dealer = self.next_after(dealer, seated)
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

    def _dealt(
        self, hand: Hand, dealer: str, seated: tuple[str, ...]
    ) -> tuple[tuple[str, ...], str | None]:
        """Who plays the hand `dealer` deals, and who sits out; refused where the dealer
        does not sit at the table or the declarer sits out."""
        if dealer not in seated:
            raise RuleError.one("dealer", msg("must be one of the players"))
        active, sitting_out = self.seats(dealer, seated)
        if hand.declarer == sitting_out:
            raise RuleError.one(
                "declarer", msg("%(dealer)s deals and sits out this hand", dealer=sitting_out)
            )
        return active, sitting_out

    def fold(
        self, hands: Iterable[tuple[int, Hand, str | None]]
    ) -> tuple[list[Entry], LedgerState]:
        """Every hand in order from the start: (number, hand, dealer) → entries, state."""
        state = self.start()
        entries = []
        for number, hand, dealer in hands:
            entry, state = self.play(state, number, hand, dealer=dealer)
            entries.append(entry)
        return entries, state

    def settle_up(self, state: LedgerState) -> Settlement:
        """Each player's net position after `state` with the pot shared out per the table's
        `pot_at_end`, and the fewest transfers that settle it. Points (a tournament table)
        are not paid: their balances are the points, with no transfers."""
        if self.points_only:
            return Settlement(dict(state.balances), ())
        balances = final_balances(
            state,
            self.seated(state),
            self.rules.params.get("pot_at_end"),
            opening_pot=self.opening_pot,
        )
        return Settlement(balances, tuple(settle(balances)))

    def _pay_stakes(self, state: LedgerState) -> None:
        seated = self.seated(state)
        for player in seated:
            state.balances[player] -= self.stake
        state.pot += self.stake * len(seated)
        state.stakes_paid += 1


def _post(state: LedgerState, net: Mapping[str, int]) -> None:
    """A hand's `net` posted: the pot's into the pot, each player's into his balance."""
    for account, cents in net.items():
        if account == POT:
            state.pot += cents
        else:
            state.balances[account] += cents


def final_balances(
    state: LedgerState, players: Sequence[str], pot_at_end: str | None, *, opening_pot: int = 0
) -> dict[str, int]:
    """Each player's net position at the end with the pot remainder per `pot_at_end`:
    `split` shares it out (odd cents one each in seat order), `keep` shows what the pot
    gained this evening as held by the pot (a Haferl carried in is the group's, not the
    evening's)."""
    if state.pot and pot_at_end == "split" and not opening_pot:
        return share_pot(dict(state.balances), state.pot, list(players))
    balances = dict(state.balances)
    if state.pot - opening_pot:
        balances[POT] = state.pot - opening_pot
    return balances
