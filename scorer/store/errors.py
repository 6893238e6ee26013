"""What a service or a store lookup refuses with, beside a rule's `RuleError`: the request
clashes with what is stored (409), or names nothing stored (404)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorer.domain.message import Msg


class Conflict(Exception):
    """The request clashes with the session's state: a stale version or a closed evening."""


class NotFound(Exception):
    """No such session or hand."""


class HandExists(Conflict):
    """The hand a device entered as number N when hand N is stored already (another device
    entered it first): nothing is stored. `hand` is the stored hand's `HAND_COLUMNS` and
    `voided` whether it was struck out since; `next_number` is the number a hand sent now
    would get."""

    def __init__(self, message: Msg, hand: Mapping[str, Any], voided: bool, *, next_number: int):
        super().__init__(message)
        self.hand, self.voided, self.next_number = hand, voided, next_number


class LaterHandExists(Conflict):
    """Undo of hand `number` when another device has entered hand `later` since: nothing is
    struck (Undo corrects the hand it names, never "the latest" a device believes)."""

    def __init__(self, message: Msg, number: int, later: int):
        super().__init__(message)
        self.number, self.later = number, later
