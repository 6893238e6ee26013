"""Scoring one hand: validate the facts, let the payment system pay, then apply Kontra/Re
doublings, the doubling after a draw and the pot cap.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from scorer.domain.message import Msg, msg, one_of
from scorer.domain.model import POT, Hand, Line, Posting, RuleError, Score, pot_name_taken
from scorer.domain.params import resolve
from scorer.domain.registry import Deal, Draft, Game, System, get_game, get_system

SUITS = ("eichel", "gras", "herz", "schellen")
SUIT_NAMES = {
    "eichel": msg("Acorns"),
    "gras": msg("Leaves"),
    "herz": msg("Hearts"),
    "schellen": msg("Bells"),
}
"""Each suit as players call it (the messages' choices)."""
CALLS = ("Kontra", "Re", "Supp", "Resupp", "Hirsch")
BIDS = tuple(range(61, 117, 5))


@dataclass(frozen=True)
class Rules:
    """A game, a payment system and the table's resolved parameters: what a table plays."""

    game: Game
    system: System
    params: Mapping[str, Any]

    @classmethod
    def build(cls, game_id: Any, system_id: Any, params: Mapping[str, Any] | None) -> Rules:
        game = get_game(game_id)
        system = get_system(game, system_id)
        if params is not None and not isinstance(params, Mapping):
            raise RuleError.one("params", msg("must be an object of parameter names and values"))
        return cls(game, system, resolve(game.all_params(system), params))

    def stored_params(self) -> dict[str, Any]:
        """Every parameter of the game and system with its value, as JSON stores it: what a
        table, a group or a tournament keeps (and what its rules mark is made of)."""
        declared = self.game.all_params(self.system)
        return {p.name: p.to_json(self.params[p.name]) for p in declared}

    @property
    def has_pot(self) -> bool:
        return self.system.has_pot(self.params)

    def cap_factor(self, factor: int) -> int:
        """The factor after draws, held at the table's `max_draw_factor` where it has one
        (Strohmandeln: see `strohmandeln.MAX_DRAW_FACTOR`)."""
        cap = self.params.get("max_draw_factor")
        return factor if cap is None else min(factor, cap)

    def score(
        self,
        players: Sequence[str],
        hand: Hand,
        pot_cents: int | None = None,
        *,
        factor: int = 1,
    ) -> Score:
        """Score `hand` among the active `players`.

        `pot_cents` is what the pot holds (None: no cap); `factor` multiplies the hand's
        value (Strohmandeln's doubling after a draw), never by more than `max_draw_factor`.
        """
        deal = self.deal(players, hand)
        factor = self.cap_factor(factor)
        draft = self._burden_shifted(deal) or self.system.pay(deal)
        lines = list(draft.explanation)
        durch = (hand.all_tricks or hand.no_tricks) and hand.bid != "durch"
        if durch and not self.system.pays_durch:
            said = msg("Durch pays nothing extra in %(system)s", system=self.system.name)
            lines.append(Line(said))
        multiplier = factor * 2**hand.doublings
        if hand.doublings:
            calls = ", ".join(CALLS[: hand.doublings])
            lines.append(Line(msg("%(calls)s: ×%(factor)s", calls=calls, factor=2**hand.doublings)))
        if factor != 1:
            text = (
                msg(
                    "after a draw this hand counts ×%(factor)s, the cap: "
                    "further draws do not double it"
                )
                if factor == self.params.get("max_draw_factor")
                else msg("after a draw this hand counts ×%(factor)s")
            )
            lines.append(Line(text.with_args(factor=factor)))
        postings = draft.postings
        if multiplier != 1:
            postings = [
                Posting(p.from_account, p.to_account, p.cents * multiplier) for p in postings
            ]
        postings = _cap_pot(postings, pot_cents, lines)
        return Score(draft.result, tuple(postings), tuple(lines))

    def deal(self, players: Sequence[str], hand: Hand) -> Deal:
        """Check the hand against the game's rules; a RuleError names every broken field."""
        game, system, params = self.game, self.system, self.params
        errors: dict[str, list[Msg]] = {}

        def bad(field: str, message: Msg) -> None:
            errors.setdefault(field, []).append(message)

        names = list(players)
        if len(names) != game.active or len(set(names)) != len(names):
            bad(
                "players",
                msg(
                    "%(game)s is played by %(count)s different players",
                    game=game.name,
                    count=game.active,
                ),
            )
        if any(name.casefold() == POT for name in names):
            bad("players", pot_name_taken())
        if hand.declarer not in names:
            bad("declarer", msg("must be one of the players of this hand"))
        if hand.contract not in game.contracts:
            bad("contract", one_of(game.contracts.values()))
        if hand.trump is not None and hand.trump not in SUITS:
            bad("trump", one_of(SUIT_NAMES.values()))
        for flag in ("all_tricks", "no_tricks"):
            if getattr(hand, flag) and flag not in game.flags:
                bad(
                    flag, msg("%(game)s has no such flag: enter a Valat as a bonus", game=game.name)
                )
        _check_bid(game, system, params, hand=hand, bad=bad)
        _check_points(game, hand, bad)
        max_doublings = params.get("max_doublings", 0) if game.doublings else 0
        if not 0 <= hand.doublings <= max_doublings:
            bad(
                "doublings",
                msg("must be 0..%(maximum)s", maximum=max_doublings)
                if game.doublings
                else msg("%(game)s has no Kontra", game=game.name),
            )
        allowed_bonuses = game.bonus_ids(system.id, params)
        if hand.bonuses and not allowed_bonuses:
            bad("bonuses", msg("%(game)s has no bonuses", game=game.name))
        if not errors:
            for field, messages in game.validate(game, system, hand, params).items():
                for message in messages:
                    bad(field, message)
        if errors:
            raise RuleError(errors)
        defenders = tuple(name for name in names if name != hand.declarer)
        return Deal(game, params, hand, defenders)

    def _burden_shifted(self, deal: Deal) -> Draft | None:
        """Kontra shifts the burden (param `kontra_shifts_burden`): after a Kontra the
        defenders must reach the declarer's target; the declarer wins or loses the system's
        smallest amount for the contract."""
        hand = deal.hand
        if not (self.params.get("kontra_shifts_burden") and hand.doublings >= 1):
            return None
        if hand.points is None or hand.bid == "durch":
            return None
        target, total = deal.target, deal.game.total
        defenders_points = total - deal.points
        won = defenders_points < target
        if won:
            points = target
        else:
            points = target - 1
            if self.params.get("tie") == "draw" and 2 * points == total:
                points -= 1
        smallest = replace(hand, points=points, all_tricks=False, no_tricks=False)
        draft = self.system.pay(replace(deal, hand=smallest))
        reason = (
            msg(
                "Kontra shifts the burden: defenders took %(points)s, needed %(target)s "
                "→ declarer wins the smallest amount"
            )
            if won
            else msg(
                "Kontra shifts the burden: defenders took %(points)s, needed %(target)s "
                "→ declarer loses the smallest amount"
            )
        )
        line = Line(reason.with_args(points=defenders_points, target=target))
        return Draft(draft.result, draft.postings, [line, *draft.explanation])


def score_hand(
    game_id: Any,
    system_id: Any,
    params: Mapping[str, Any] | None,
    *,
    players: Sequence[str],
    hand: Hand,
    pot_cents: int | None = None,
    factor: int = 1,
) -> Score:
    """Score one hand from ids and raw parameters (see `Rules.score`)."""
    return Rules.build(game_id, system_id, params).score(players, hand, pot_cents, factor=factor)


def _check_bid(
    game: Game,
    system: System,
    params: Mapping[str, Any],
    *,
    hand: Hand,
    bad: Callable[[str, Msg], None],
) -> None:
    bid = hand.bid
    if bid == "durch":
        if not system.durch_bid:
            bad("bid", msg("%(system)s has no Durch bid", system=system.name))
        elif hand.contract != "hand":
            bad("bid", msg("Durch can only be bid as a hand game"))
        return
    if bid == 61:
        return
    if not game.bids:
        bad("bid", msg("%(game)s has no bidding: leave the bid at 61", game=game.name))
    elif bid not in BIDS:
        bad(
            "bid",
            msg("must be 61..116 in steps of 5 or 'durch'")
            if system.durch_bid
            else msg("must be 61..116 in steps of 5"),
        )
    elif hand.contract != "hand" and not params.get("pickup_raises"):
        bad("bid", msg("a pick-up game (Frage) cannot be bid above 61"))


def _check_points(game: Game, hand: Hand, bad: Callable[[str, Msg], None]) -> None:
    total = game.total
    if hand.all_tricks and hand.no_tricks:
        bad("all_tricks", msg("cannot go with no_tricks"))
    if hand.contract == "bettel":
        if hand.points is not None:
            bad(
                "points",
                msg("Bettel takes no card points: it is won when the declarer takes no trick"),
            )
        if hand.all_tricks:
            bad("all_tricks", msg("Bettel is won by taking no trick"))
        return
    if hand.points is None:
        bad("points", msg("the declarer's card points are needed (0..%(total)s)", total=total))
        return
    if not 0 <= hand.points <= total:
        bad("points", msg("card points must be 0..%(maximum)s", maximum=total))
        return
    if hand.all_tricks and hand.points != total:
        bad("all_tricks", msg("taking every trick means all %(total)s points", total=total))


def pot_short_line(paid: int, due: int, player: str) -> Msg:
    return msg(
        "the Haferl holds only %(paid)s of the %(due)s cents due to %(player)s: "
        "it pays what it has and is empty",
        paid=paid,
        due=due,
        player=player,
    )


POT_SHORT = pot_short_line(0, 0, "").id
"""The id of the line saying that the pot could not pay all it owed in a hand."""


def _cap_pot(postings: list[Posting], pot_cents: int | None, lines: list[Line]) -> list[Posting]:
    """A payment out of the pot never exceeds what it holds; the shortfall is explained."""
    if pot_cents is None or not any(p.from_account == POT for p in postings):
        return postings
    available = pot_cents + sum(p.cents for p in postings if p.to_account == POT)
    capped: list[Posting] = []
    for p in postings:
        if p.from_account != POT:
            capped.append(p)
            continue
        paid = min(p.cents, max(available, 0))
        available -= paid
        if paid < p.cents:
            lines.append(
                Line(
                    pot_short_line(paid, p.cents, p.to_account),
                    cents=paid,
                )
            )
        if paid:
            capped.append(replace(p, cents=paid))
    return capped
