"""The tournament's money (RULES §5, the event): the entry fees received, the prize pool,
the prizes by place on the standings, the remainder the club keeps and the charity pot.

Everything is integer cents and adds up: what was received (the fees ticked paid and the
gifts to the charity pot) equals the prizes paid in cents, the remainder and the charity
pot (`scorer.domain.prizes.settle_cash`). A player checked in owes the fee until the desk
ticks it paid or waived; a no-show owes nothing. Until the finish the prizes follow the
live standings; with the finish they are final, as the standings are.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorer.domain import prizes
from scorer.domain.tournament import drawn_order
from scorer.services.tournaments import tournament_standings
from scorer.store.models import Tournament, TournamentPlayer


@dataclass(frozen=True)
class Till:
    """The treasurer's view: the sums, and who has not paid or had the fee waived."""

    cash: prizes.Cash
    paid: list[TournamentPlayer]
    unpaid: list[str]
    waived: list[str]
    gifts: list[tuple[str, int]]
    final: bool


def present(tournament: Tournament) -> list[TournamentPlayer]:
    """The players in the field: checked in (or present from the start), not waiting."""
    return [p for p in tournament.players if p.checked_in and not p.waiting]


def till(tournament: Tournament) -> Till:
    plan = prizes.plan_from_json(
        tournament.entry_fee_cents,
        tournament.prize_plan.get("pool_percent", 100),
        tournament.prize_plan.get("prizes"),
        pool_cents=tournament.prize_plan.get("pool_cents"),
    )
    field = present(tournament)
    paid = [p for p in field if p.fee == "paid"]
    owing = tournament.entry_fee_cents > 0
    unpaid = [p.name for p in field if owing and p.fee == "unpaid"]
    waived = [p.name for p in field if owing and p.fee == "waived"]
    gifts = [(gift.giver, gift.cents) for gift in tournament.gifts]
    standings = tournament_standings(tournament)
    cash = prizes.settle_cash(
        plan,
        fees_cents=tournament.entry_fee_cents * len(paid),
        charity_cents=sum(cents for _, cents in gifts),
        places=[(s.place, s.player) for s in standings],
        odd_cents_order=lambda name: drawn_order(tournament.seed, name),
    )
    return Till(cash, paid, unpaid, waived, gifts, tournament.finished)
