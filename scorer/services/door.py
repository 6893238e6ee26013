"""What happens at an event's door, as a tournament is made with it (`Door`): whether
players check in, may register themselves and up to how many, what a late player scores
for a missed round, the entry fee and the prizes. The door's writes are
`scorer.services.registration`, its money `scorer.services.cash`."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scorer.domain.limits import DESK_CODE_DIGITS
from scorer.domain.prizes import plan_from_json


@dataclass(frozen=True)
class Door:
    """What happens at the event's door: whether players check in (only they are drawn),
    whether they may register themselves and up to how many, what a late player scores
    for a missed round, the entry fee and the prizes (`scorer.domain.prizes`, as JSON)."""

    check_in: bool = False
    registration_open: bool = False
    cap: int | None = None
    missed_round_points: int = 0
    entry_fee_cents: int = 0
    prize_plan: Mapping[str, Any] = field(default_factory=dict)


def prize_plan(
    entry_fee_cents: int, *, pool_percent: int | None, pool_cents: int | None, prizes: Any
) -> dict[str, Any]:
    """The pool and the prizes as sent, checked (`scorer.domain.prizes.plan_from_json`),
    to be kept with the tournament and read again by `scorer.services.cash`."""
    plan_from_json(entry_fee_cents, pool_percent, prizes, pool_cents)
    return {"pool_percent": pool_percent, "pool_cents": pool_cents, "prizes": prizes}


def new_desk_code() -> str:
    """A short code of digits for the door: typed on a phone beside the player's name."""
    return "".join(secrets.choice("0123456789") for _ in range(DESK_CODE_DIGITS))
