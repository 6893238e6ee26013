"""Prizes: an event's entry fees, its prize pool, the prizes by place and the treasurer's sum.

Plain Python on names and integer cents; the web layer stores the plan (`plan_to_json`)
and passes in the fees received and the final standings.

The plan (`PrizePlan`)
    The pool is a share of the fees received, `floor(fees × pool_percent / 100)`, or a fixed
    `pool_cents`. **[decision]** A fixed pool has no share: `PrizePlan(pool_cents=…)` sets
    `pool_percent` to None; `plan_from_json` refuses both, and given neither takes 100.
    A prize place (1, 2, 3 …) is a whole percent of the pool, `floor(pool × percent / 100)`,
    a fixed amount in cents, or goods (a prize in kind, 0 cents). The percentages come to at
    most 100; fixed amounts come on top, even above the pool. **[decision]** A fixed amount
    is at most `MAX_PRIZE_CENTS` (every fee of the largest tournament at the highest fee);
    goods are cleaned like a name (`clean_name`: 1..80 characters, no control or invisible
    characters, NUL among them).

The prizes (`prizes_for`)
    **[decision]** Tied players share the prizes of the places they occupy, equally: two tied
    on place 2 occupy places 2 and 3 and each gets half of prize 2 + prize 3. The odd cents
    that do not divide go one each to the tied players in the tournament's drawn order
    (`odd_cents_order`, smallest first), never by name, which would favour Anton over Zenzi
    at every tournament. Goods cannot be divided: those of the occupied places, the better
    place's first, go one each to the tied players in the same order.
    A tie that straddles the last prize place shares what there is. **[decision]** Every
    player of a tie that occupies a prize place is listed, even with 0 cents and no goods
    (the prize sheet shows who shared); players beyond the prize places are left out.

The treasurer's sum (`settle_cash`)
    Received = fees + charity. **[decision]** Charity is collected for others and handed on
    whole: never in the pool. The remainder is the fees less the prizes paid in cents: the
    share not pooled, the pool not paid out (percentages under 100, rounding down, prize
    places nobody reached); negative when fixed prizes exceed the fees (the club adds it).
    Always: prizes paid + remainder + charity = received.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from scorer.domain.limits import MAX_ENTRY_FEE_CENTS, MAX_TOURNAMENT_PLAYERS
from scorer.domain.message import Msg, msg, one_of
from scorer.domain.model import RuleError
from scorer.domain.names import clean_name
from scorer.domain.places import in_order, shared, tied
from scorer.domain.validation import is_whole

Fee = Literal["unpaid", "paid", "waived"]
"""What a player's entry fee can be: owed, paid in cash at the desk, or waived."""
FEES: tuple[Fee, ...] = get_args(Fee)
MAX_PRIZE_CENTS = MAX_TOURNAMENT_PLAYERS * MAX_ENTRY_FEE_CENTS
"""The largest fixed pool or fixed prize: every fee of the largest tournament."""
MAX_PLACES = 100
MAX_GOODS = 80
KINDS = ("percent", "cents", "goods")
"""What a place's prize can be, as the JSON names it."""


@dataclass(frozen=True)
class PlacePrize:
    """One place's prize: a whole percent of the pool, a fixed amount or goods (one of them)."""

    percent: int | None = None
    cents: int | None = None
    goods: str | None = None

    def __post_init__(self) -> None:
        if [self.percent, self.cents, self.goods].count(None) != 2:
            raise ValueError("a place's prize is one of percent, cents or goods")
        if not 0 <= (self.percent or 0) <= 100 or (self.cents or 0) < 0:
            raise ValueError(f"a place's prize out of range: {self}")


@dataclass(frozen=True)
class PrizePlan:
    """The entry fee, the pool (a share of the fees or fixed) and the prizes by place."""

    entry_fee_cents: int = 0
    pool_percent: int | None = 100
    pool_cents: int | None = None
    places: tuple[PlacePrize, ...] = ()

    def __post_init__(self) -> None:
        if self.pool_cents is not None:
            object.__setattr__(self, "pool_percent", None)  # a fixed pool has no share
        elif self.pool_percent is None:
            raise ValueError("a prize plan needs pool_percent or pool_cents")
        negative = min(self.entry_fee_cents, self.pool_cents or 0) < 0
        percents = sum(place.percent or 0 for place in self.places)
        if negative or not 0 <= (self.pool_percent or 0) <= 100 or percents > 100:
            raise ValueError(f"a prize plan out of range: {self}")


@dataclass(frozen=True)
class Prize:
    """What one player wins: `place` as in the standings (tied players share the number)."""

    place: int
    player: str
    cents: int
    goods: tuple[str, ...] = ()


@dataclass(frozen=True)
class Cash:
    """The treasurer's sum: prizes paid + remainder + charity = received."""

    received_cents: int
    fees_cents: int
    charity_cents: int
    pool_cents: int
    prizes: tuple[Prize, ...]
    remainder_cents: int


# --- the plan as JSON -----------------------------------------------------------------------


def plan_from_json(
    entry_fee_cents: object, pool_percent: object, prizes: object, *, pool_cents: object = None
) -> PrizePlan:
    """A plan from API input, or a RuleError naming each field that is wrong.

    `prizes`: None, `{"percent" | "cents" | "goods": [one per place]}`, or a list with one
    object per place, `[{"percent": 30}, {"goods": "Geschenkkorb"}, {"cents": 500}]`.
    """
    errors: dict[str, list[Msg]] = {}
    fee = _whole(entry_fee_cents, MAX_ENTRY_FEE_CENTS)
    if fee is None:
        errors["entry_fee_cents"] = [_range(MAX_ENTRY_FEE_CENTS)]
    fixed = None if pool_cents is None else _whole(pool_cents, MAX_PRIZE_CENTS)
    if pool_cents is not None and fixed is None:
        errors["pool_cents"] = [_range(MAX_PRIZE_CENTS)]
    share = 100 if pool_percent is None else _whole(pool_percent, 100)
    if pool_percent is not None and pool_cents is not None:
        errors["pool_percent"] = [msg("give a share of the fees or a fixed pool, not both")]
    elif share is None:
        errors["pool_percent"] = [_range(100)]
    try:
        places = _places(prizes)
    except RuleError as error:
        errors.update(error.fields)
    if errors:
        raise RuleError(errors)
    assert fee is not None
    return PrizePlan(fee, share, fixed, places)


def plan_to_json(plan: PrizePlan) -> dict[str, Any]:
    """The plan as `plan_from_json` reads it back (`plan_from_json(**plan_to_json(p)) == p`)."""
    return {
        "entry_fee_cents": plan.entry_fee_cents,
        "pool_percent": plan.pool_percent,
        "pool_cents": plan.pool_cents,
        "prizes": [
            {kind: getattr(place, kind) for kind in KINDS if getattr(place, kind) is not None}
            for place in plan.places
        ],
    }


def _places(prizes: object) -> tuple[PlacePrize, ...]:
    if prizes is None:
        return ()
    if isinstance(prizes, dict):
        if len(prizes) != 1 or next(iter(prizes)) not in KINDS:
            raise RuleError.one("prizes", one_of(KINDS))
        ((kind, values),) = prizes.items()
        if not isinstance(values, list):
            raise RuleError.one("prizes", msg("must be a list"))
        entries: list[object] = [{kind: value} for value in values]
    elif isinstance(prizes, list):
        entries = prizes
    else:
        raise RuleError.one("prizes", msg("must list the prizes place by place"))
    if len(entries) > MAX_PLACES:
        raise RuleError.one("prizes", msg("at most %(count)s prize places", count=MAX_PLACES))
    places = tuple(_place(number, entry) for number, entry in enumerate(entries, start=1))
    total = sum(place.percent or 0 for place in places)
    if total > 100:
        message = msg("the percentages add up to %(total)s: at most 100", total=total)
        raise RuleError.one("prizes", message)
    return places


def _place(number: int, entry: object) -> PlacePrize:
    """One place's prize from `{"percent": 30}`, `{"cents": 500}` or `{"goods": "Korb"}`."""
    if not isinstance(entry, dict) or len(entry) != 1 or next(iter(entry)) not in KINDS:
        raise _at(number, msg("give one of percent, cents or goods"))
    ((kind, value),) = entry.items()
    if kind == "goods":
        try:
            return PlacePrize(goods=clean_name(value, "prizes", MAX_GOODS))
        except RuleError as error:
            raise _at(number, error.fields["prizes"][0]) from None
    most = 100 if kind == "percent" else MAX_PRIZE_CENTS
    amount = _whole(value, most)
    if amount is None:
        raise _at(number, _range(most))
    return PlacePrize(percent=amount) if kind == "percent" else PlacePrize(cents=amount)


def _whole(value: object, most: int) -> int | None:
    """`value` if it is a whole number 0..`most` (an int, never a bool), else None."""
    if is_whole(value) and 0 <= value <= most:
        return value
    return None


def _range(most: int) -> Msg:
    return msg("must be a whole number 0..%(maximum)s", maximum=most)


def _at(number: int, problem: Msg) -> RuleError:
    return RuleError.one(
        "prizes", msg("place %(place)s: %(problem)s", place=number, problem=problem)
    )


# --- the pool, the prizes and the sum -------------------------------------------------------


def pool_of(plan: PrizePlan, fees_cents: int) -> int:
    """The prize pool: the fixed `pool_cents`, or the plan's share of the fees, rounded down."""
    if fees_cents < 0:
        raise ValueError("fees received are never negative")
    if plan.pool_cents is not None:
        return plan.pool_cents
    assert plan.pool_percent is not None
    return fees_cents * plan.pool_percent // 100


def place_cents(prize: PlacePrize, pool_cents: int) -> int:
    """A place's prize in cents: its percent of the pool rounded down, fixed, or 0 (goods)."""
    if prize.percent is not None:
        return pool_cents * prize.percent // 100
    return prize.cents or 0


def prizes_for(
    plan: PrizePlan,
    pool_cents: int,
    places: Sequence[tuple[int, str]],
    *,
    odd_cents_order: Callable[[str], int],
) -> list[Prize]:
    """The prizes of the final standings `places` ((place, player), shared places as 1, 2,
    2, 4), in standings order; tied players share as the module's docstring says."""
    if pool_cents < 0:
        raise ValueError("a prize pool is never negative")
    result: list[Prize] = []
    for first, players in tied(places):
        occupied = plan.places[first - 1 : first - 1 + len(players)]
        if not occupied:
            break  # this tie and every one after it is beyond the prize places
        cents = shared(sum(place_cents(p, pool_cents) for p in occupied), players, odd_cents_order)
        goods = [place.goods for place in occupied if place.goods is not None]
        given = dict(zip(in_order(players, odd_cents_order), goods, strict=False))  # maybe fewer
        result.extend(
            Prize(first, name, cents[name], (given[name],) if name in given else ())
            for name in players
        )
    return result


def settle_cash(
    plan: PrizePlan,
    *,
    fees_cents: int,
    charity_cents: int,
    places: Sequence[tuple[int, str]],
    odd_cents_order: Callable[[str], int],
) -> Cash:
    """The treasurer's sum of an event: what came in, the pool, the prizes, the remainder."""
    if charity_cents < 0:
        raise ValueError("charity received is never negative")
    pool = pool_of(plan, fees_cents)
    prizes = tuple(prizes_for(plan, pool, places, odd_cents_order=odd_cents_order))
    received = fees_cents + charity_cents
    paid = sum(prize.cents for prize in prizes)
    return Cash(received, fees_cents, charity_cents, pool, prizes, received - paid - charity_cents)
