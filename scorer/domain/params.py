"""Parameters of games and payment systems: declaration, defaults and parsing."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any, Literal

from scorer.domain.message import Msg, msg, one_of
from scorer.domain.model import RuleError
from scorer.domain.money import Cents
from scorer.domain.validation import is_whole

ParamKind = Literal["cents", "int", "rate", "bool", "choice"]

TITLES = {
    "stake_cents": msg("Stake"),
    "refill": msg("Pay in again"),
    "pot_at_end": msg("Haferl at the end"),
    "tie": msg("60 to 60"),
    "unit_cents": msg("Unit"),
    "payout": msg("Wins are paid by"),
    "pickup_raises": msg("Bidding on a Frage"),
    "rate_frage": msg("Cents per point (Frage)"),
    "rate_hand": msg("Cents per point (hand)"),
    "rounding": msg("Rounding"),
    "bettel_cents": msg("Bettel"),
    "win_cents": msg("Simple win"),
    "schneider_cents": msg("Schneider"),
    "durch_cents": msg("Durch / Schwarz"),
    "schwarz_cents": msg("Schwarz"),
    "solo_cents": msg("Game"),
    "frage_factor": msg("A Frage counts"),
    "bettel_factor": msg("A Bettel counts"),
    "bankroll_cents": msg("Starting money"),
    "max_doublings": msg("Doubling"),
    "kontra_shifts_burden": msg("Kontra shifts the burden"),
    "berliner": msg("Berliner"),
    "frage_hearts_only": msg("Frage with hearts"),
    "point_cents": msg("Cents per point"),
    "max_draw_factor": msg("At most ×"),
    "draw_is_loss": msg("35 to 35 lost"),
    "draw_doubles_next": msg("A draw doubles"),
    "mondfang": msg("Mondfang"),
}
"""A parameter's name as players say it (the id stays for the API)."""

CHOICE_LABELS = {
    "split": msg("share equally"),
    "keep": msg("keep for next time"),
    "draw": msg("a draw"),
    "loss": msg("lost"),
    "pocket": msg("the players among themselves"),
    "pot": msg("the Haferl"),
    "up5": msg("round up to 5 cents"),
    "nearest5": msg("round to 5 cents"),
    "none": msg("whole cents"),
}
"""A choice's value as players say it."""


@dataclass(frozen=True)
class Param:
    """One setting a table can change, with its default and a one-line help text.

    `cents` and `int` are whole numbers, `rate` an exact decimal (0.5), `bool` a switch,
    `choice` one of `choices`. A whole number with `allowed` must be one of those values
    (e.g. a factor that only ever doubles). A default of `None` means "derived", as the help
    says.
    """

    name: str
    default: Any
    help: Msg
    kind: ParamKind = "cents"
    choices: tuple[str, ...] = ()
    minimum: int | None = 0
    maximum: int | None = None
    allowed: tuple[int, ...] = ()
    contract: str | None = None
    """The contract this setting prices (a Bettel's value): not offered at a game that has
    no such contract."""

    def parse(self, value: Any) -> Any:
        """Turn a JSON or form value into the parameter's Python value, or raise ValueError."""
        if value is None and self.default is None:
            return None
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise ValueError(msg("must be true or false"))
        if self.kind == "choice":
            if value in self.choices:
                return value
            raise ValueError(one_of(self.describe(c) for c in self.choices))
        if self.kind == "rate":
            if isinstance(value, bool) or not isinstance(value, int | float | str):
                raise ValueError(msg("must be a decimal number"))
            try:
                # Decimal first: it checks size cheaply ("1e100000000" must not become an
                # exact Fraction before the range check).
                number = Decimal(str(value).strip())
            except InvalidOperation:
                raise ValueError(msg("must be a decimal number")) from None
            if not number.is_finite() or not 0 <= number <= 1000:
                raise ValueError(msg("must be between 0 and 1000"))
            return Fraction(number)
        # cents / int
        if not is_whole(value):
            raise ValueError(msg("must be a whole number"))
        if self.allowed:
            if value in self.allowed:
                return value
            raise ValueError(one_of(self.allowed))
        if self.minimum is not None and value < self.minimum:
            raise ValueError(msg("must be at least %(minimum)s", minimum=self.minimum))
        top = self.maximum if self.maximum is not None else 10_000_000
        if value > top:
            raise ValueError(msg("must be at most %(maximum)s", maximum=top))
        return value

    @property
    def title(self) -> Msg:
        """The parameter's short name for players; a counted bonus is named by its help."""
        return TITLES.get(self.name) or self.help

    def describe(self, value: Any, points: bool = False) -> Msg | Cents | Decimal | str:
        """A value as players read it: euros (`Cents`), yes/no, a choice's words, a number
        the reader's locale writes. At a tournament table a cent is a point."""
        if value is None:
            return "—"
        if self.kind == "bool":
            return msg("yes") if value else msg("no")
        if self.kind == "choice":
            return CHOICE_LABELS.get(value) or str(value)
        if self.kind == "cents":
            return msg("%(points)s P", points=int(value)) if points else Cents(int(value))
        if self.kind == "rate":
            rate = Fraction(str(value))
            if rate.denominator == 1:
                return str(rate.numerator)
            return Decimal(f"{float(rate):g}")
        return str(value)

    def to_json(self, value: Any) -> Any:
        """The JSON form of a parsed value: rates become decimal numbers."""
        if isinstance(value, Fraction):
            return int(value) if value.denominator == 1 else float(value)
        return value


def resolve(params: Iterable[Param], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Defaults overridden by `given`; unknown names and bad values raise RuleError."""
    declared = {p.name: p for p in params}
    errors: dict[str, list[Msg]] = {}
    values = {name: p.default for name, p in declared.items()}
    for name, raw in (given or {}).items():
        param = declared.get(name)
        if param is None:
            errors[f"params.{name}"] = [msg("unknown parameter for this game and payment system")]
            continue
        try:
            values[name] = param.parse(raw)
        except ValueError as exc:
            errors[f"params.{name}"] = [exc.args[0]]
    if errors:
        raise RuleError(errors)
    return values


def common_tie(default: str) -> Param:
    return Param(
        "tie",
        default,
        msg("what 60 to 60 means: a draw (nobody pays) or lost"),
        kind="choice",
        choices=("draw", "loss"),
    )


def pot_params(stake: int) -> tuple[Param, ...]:
    """The parameters every system with a pot shares."""
    return (
        Param(
            "stake_cents",
            stake,
            msg("what everyone pays into the Haferl at the start of a round (cents)"),
            minimum=1,
        ),
        Param(
            "refill", True, msg("when the Haferl is empty, everyone pays the stake again"), "bool"
        ),
        Param(
            "pot_at_end",
            "split",
            msg("what is left in the Haferl at the end: share it equally or keep it for next time"),
            "choice",
            choices=("split", "keep"),
        ),
    )


def fingerprint(game: str, system: str, params: Mapping[str, Any]) -> str:
    """A short mark of a game, its payment system and every parameter's value ('3F2A-91C0',
    from the stored parameters): two sheets with the same mark were played by the same
    rules, and a sheet whose mark differs from its tournament's was not."""
    canonical = json.dumps(
        {"game": game, "system": system, "params": dict(params)},
        sort_keys=True,
        separators=(",", ":"),
    )
    digest = hashlib.sha256(canonical.encode()).hexdigest()[:8].upper()
    return f"{digest[:4]}-{digest[4:]}"
