"""The facts of one hand and what scoring it produces: postings and explanation lines."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar, cast

from scorer.domain.message import Msg, msg

POT = "pot"
"""The account name of the shared pot (Haferl, Kasse) in postings and nets."""


def pot_name_taken() -> Msg:
    """The refusal of a player called like the pot's account."""
    return msg("'%(pot)s' is the name of the pot: choose another name", pot=POT)


T = TypeVar("T")

Result = Literal["won", "lost", "draw"]
Side = Literal["declarer", "defenders"]


class RuleError(ValueError):
    """A hand, a parameter or a request breaks a rule; `fields` maps field name → messages
    (`Msg`, said in the reader's language by the web layer; `str()` is the English)."""

    def __init__(self, fields: dict[str, list[Msg]]):
        self.fields = fields
        super().__init__(
            "; ".join(f"{k}: {', '.join(str(m) for m in v)}" for k, v in fields.items())
        )

    @classmethod
    def one(cls, field_name: str, message: Msg) -> RuleError:
        return cls({field_name: [message]})


class Refusals:
    """Every field a builder refuses, gathered to be said at once: `check` runs one check
    and keeps its refusal; `done` raises them all (then no value `check` gave is used)."""

    def __init__(self) -> None:
        self.fields: dict[str, list[Msg]] = {}

    def check(self, check: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        try:
            return check(*args, **kwargs)
        except RuleError as exc:
            for name, messages in exc.fields.items():
                self.fields.setdefault(name, []).extend(messages)
            return cast(T, None)

    def check_as(self, field_name: str, check: Callable[..., T], *args: Any) -> T:
        """`check`, for one that says what is wrong with a plain `ValueError(Msg)` (the
        tie-breaks' checks): that refusal is kept under `field_name`."""
        try:
            return self.check(check, *args)
        except ValueError as exc:
            self.refuse(field_name, exc.args[0])
            return cast(T, None)

    def refuse(self, field_name: str, message: Msg) -> None:
        self.fields.setdefault(field_name, []).append(message)

    def done(self) -> None:
        if self.fields:
            raise RuleError(self.fields)


@dataclass(frozen=True)
class Bonus:
    """A Tapp Tarock or Strohmandeln bonus as entered: whose it is, announced, made."""

    id: str
    side: Side = "declarer"
    announced: bool = False
    made: bool = True


@dataclass(frozen=True)
class Hand:
    """One hand as the players enter it. `points` are the declarer's card points."""

    declarer: str
    contract: str
    trump: str | None = None
    bid: int | Literal["durch"] = 61
    points: int | None = None
    all_tricks: bool = False
    no_tricks: bool = False
    doublings: int = 0
    bonuses: tuple[Bonus, ...] = ()
    dealer: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The facts as stored and exported (the dealer is kept beside them)."""
        return {
            "declarer": self.declarer,
            "contract": self.contract,
            "trump": self.trump,
            "bid": self.bid,
            "points": self.points,
            "all_tricks": self.all_tricks,
            "no_tricks": self.no_tricks,
            "doublings": self.doublings,
            "bonuses": [
                {"id": b.id, "side": b.side, "announced": b.announced, "made": b.made}
                for b in self.bonuses
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], dealer: str | None = None) -> Hand:
        """A hand from its stored facts (already validated when it was recorded)."""
        return cls(
            declarer=data["declarer"],
            contract=data["contract"],
            trump=data.get("trump"),
            bid=data.get("bid", 61),
            points=data.get("points"),
            all_tricks=data.get("all_tricks", False),
            no_tricks=data.get("no_tricks", False),
            doublings=data.get("doublings", 0),
            bonuses=tuple(Bonus(**b) for b in data.get("bonuses", ())),
            dealer=dealer,
        )


@dataclass(frozen=True)
class Posting:
    """`cents` (> 0) move from one account to another: a player or the pot."""

    from_account: str
    to_account: str
    cents: int


@dataclass(frozen=True)
class Line:
    """One line of the explanation: why the hand pays what it pays."""

    text: Msg
    units: int | None = None
    cents: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The line as stored: its message as data, said when it is shown."""
        data: dict[str, Any] = {"msg": self.text.to_json()}
        if self.units is not None:
            data["units"] = self.units
        if self.cents is not None:
            data["cents"] = self.cents
        return data


@dataclass(frozen=True)
class Score:
    """The outcome of one hand: result (declarer's view), postings and explanation."""

    result: Result
    postings: tuple[Posting, ...]
    explanation: tuple[Line, ...] = field(default=())

    def net(self, accounts: list[str] | tuple[str, ...]) -> dict[str, int]:
        """Each account's gain (+) or loss (−) in cents; `accounts` fixes the key order."""
        net = {name: 0 for name in accounts}
        for p in self.postings:
            net[p.from_account] = net.get(p.from_account, 0) - p.cents
            net[p.to_account] = net.get(p.to_account, 0) + p.cents
        return net
