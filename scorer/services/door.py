"""The door's code: the digits a player types on a phone beside their name to check in.
What happens at the door is the tournament's `Door` (`scorer.domain.tournament_commands`);
the door's writes are `scorer.services.registration`, its money `scorer.services.cash`."""

from __future__ import annotations

import secrets

from scorer.domain.limits import DESK_CODE_DIGITS


def new_desk_code() -> str:
    """A short code of digits for the door: typed on a phone beside the player's name."""
    return "".join(secrets.choice("0123456789") for _ in range(DESK_CODE_DIGITS))
