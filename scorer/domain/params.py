"""Parameters of games and payment systems: declaration, defaults and parsing."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any, Literal

from scorer.domain.model import RuleError
from scorer.domain.money import format_euros

ParamKind = Literal["cents", "int", "rate", "bool", "choice"]

TITLES = {
    "stake_cents": "Einsatz",
    "refill": "Neu einzahlen",
    "pot_at_end": "Haferl am Ende",
    "tie": "60 zu 60",
    "unit_cents": "Einheit",
    "payout": "Gewinne zahlt",
    "pickup_raises": "Frage reizen",
    "rate_frage": "Cent je Auge (Frage)",
    "rate_hand": "Cent je Auge (Hand)",
    "rounding": "Runden",
    "bettel_cents": "Bettel",
    "win_cents": "Einfacher Gewinn",
    "schneider_cents": "Schneider",
    "durch_cents": "Durch / Schwarz",
    "schwarz_cents": "Schwarz",
    "solo_cents": "Spiel",
    "frage_factor": "Frage zählt",
    "bettel_factor": "Bettel zählt",
    "bankroll_cents": "Startgeld",
    "max_doublings": "Doppeln",
    "kontra_shifts_burden": "Kontra dreht die Last",
    "berliner": "Berliner",
    "frage_hearts_only": "Frage mit Herz",
    "point_cents": "Cent je Punkt",
    "max_draw_factor": "Höchstens ×",
    "draw_is_loss": "35 zu 35 verloren",
    "draw_doubles_next": "Unentschieden verdoppelt",
    "mondfang": "Mondfang",
}
"""A parameter's name as players say it (the id stays for the API)."""

CHOICE_LABELS = {
    "split": "gleich aufteilen",
    "keep": "bleibt fürs nächste Mal",
    "draw": "unentschieden",
    "loss": "verloren",
    "pocket": "die Spieler untereinander",
    "pot": "das Haferl",
    "up5": "auf 5 Cent aufrunden",
    "nearest5": "auf 5 Cent runden",
    "none": "ganze Cent",
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
    help: str
    kind: ParamKind = "cents"
    choices: tuple[str, ...] = ()
    minimum: int | None = 0
    maximum: int | None = None
    allowed: tuple[int, ...] = ()

    def parse(self, value: Any) -> Any:
        """Turn a JSON or form value into the parameter's Python value, or raise ValueError."""
        if value is None and self.default is None:
            return None
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise ValueError("must be true or false")
        if self.kind == "choice":
            if value in self.choices:
                return value
            raise ValueError("must be one of " + ", ".join(self.choices))
        if self.kind == "rate":
            if isinstance(value, bool) or not isinstance(value, int | float | str):
                raise ValueError("must be a decimal number")
            try:
                # Decimal first: it checks size cheaply ("1e100000000" must not become an
                # exact Fraction before the range check).
                number = Decimal(str(value).strip())
            except InvalidOperation:
                raise ValueError("must be a decimal number") from None
            if not number.is_finite() or not 0 <= number <= 1000:
                raise ValueError("must be between 0 and 1000")
            return Fraction(number)
        # cents / int
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError("must be a whole number")
        if self.allowed:
            if value in self.allowed:
                return value
            raise ValueError("must be one of: " + ", ".join(str(n) for n in self.allowed))
        if self.minimum is not None and value < self.minimum:
            raise ValueError(f"must be at least {self.minimum}")
        top = self.maximum if self.maximum is not None else 10_000_000
        if value > top:
            raise ValueError(f"must be at most {top}")
        return value

    @property
    def title(self) -> str:
        """The parameter's short name for players; a counted bonus is named by its help."""
        return TITLES.get(self.name) or self.help

    def describe(self, value: Any, points: bool = False) -> str:
        """A value as players read it: euros, ja/nein, a choice's words. At a tournament
        table a cent is a point."""
        if value is None:
            return "—"
        if self.kind == "bool":
            return "ja" if value else "nein"
        if self.kind == "choice":
            return CHOICE_LABELS.get(value, str(value))
        if self.kind == "cents":
            return f"{int(value)} P" if points else format_euros(int(value))
        if self.kind == "rate":
            rate = Fraction(str(value))
            if rate.denominator == 1:
                return str(rate.numerator)
            return f"{float(rate):g}".replace(".", ",")
        return str(value)

    def to_json(self, value: Any) -> Any:
        """The JSON form of a parsed value: rates become decimal numbers."""
        if isinstance(value, Fraction):
            return int(value) if value.denominator == 1 else float(value)
        return value


def resolve(params: Iterable[Param], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Defaults overridden by `given`; unknown names and bad values raise RuleError."""
    declared = {p.name: p for p in params}
    errors: dict[str, list[str]] = {}
    values = {name: p.default for name, p in declared.items()}
    for name, raw in (given or {}).items():
        param = declared.get(name)
        if param is None:
            errors[f"params.{name}"] = ["unknown parameter for this game and payment system"]
            continue
        try:
            values[name] = param.parse(raw)
        except ValueError as exc:
            errors[f"params.{name}"] = [str(exc)]
    if errors:
        raise RuleError(errors)
    return values


def common_tie(default: str) -> Param:
    return Param(
        "tie",
        default,
        "was 60 zu 60 heißt: unentschieden (niemand zahlt) oder verloren",
        kind="choice",
        choices=("draw", "loss"),
    )


def pot_params(stake: int) -> tuple[Param, ...]:
    """The parameters every system with a pot shares."""
    return (
        Param(
            "stake_cents",
            stake,
            "was jeder zu Beginn einer Runde ins Haferl zahlt (Cent)",
            minimum=1,
        ),
        Param("refill", True, "ist das Haferl leer, zahlen alle den Einsatz neu", "bool"),
        Param(
            "pot_at_end",
            "split",
            "was am Ende im Haferl bleibt: gleich aufteilen oder fürs nächste Mal behalten",
            "choice",
            choices=("split", "keep"),
        ),
    )
