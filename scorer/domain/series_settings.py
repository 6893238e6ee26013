"""A series' settings checked (`scorer.domain.cup`): its name, cup points, the best N
results that count, the final's carry and the series table's tie-breaks. One check for
a new series (`scorer.services.series.create_series`) and for a series' archive
(`scorer.formats.archive_series`), with the same field messages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scorer.domain import cup
from scorer.domain.limits import MAX_GROUP_NAME
from scorer.domain.model import RuleError
from scorer.domain.names import clean_name
from scorer.domain.validation import whole_number_in

MAX_BEST_OF = 100
"""A cup counts at most this many results per player."""


def series_settings(
    name: object,
    *,
    cup_points: object,
    best_of: object = None,
    final_carry: object = None,
    tie_breaks: object = None,
) -> dict[str, Any]:
    """The settings as a series keeps them (`name`, `cup_points`, `best_of`, `final_carry`,
    `tie_breaks`), or one RuleError with a message for each field that is wrong."""
    checks: dict[str, Callable[[], Any]] = {
        "name": lambda: clean_name(name, "name", MAX_GROUP_NAME),
        "cup_points": lambda: cup.cup_table_to_json(cup.cup_table_from_json(cup_points)),
        "best_of": lambda: (
            None
            if best_of is None
            else whole_number_in(best_of, "best_of", low=1, high=MAX_BEST_OF)
        ),
        "final_carry": lambda: cup.carry_from_json(final_carry),
        "tie_breaks": lambda: list(
            cup.DEFAULT_SERIES_TIE_BREAKS
            if tie_breaks is None
            else cup.check_series_tie_breaks(tie_breaks)
        ),
    }
    errors: dict[str, Any] = {}
    values: dict[str, Any] = {}
    for field, check in checks.items():
        try:
            values[field] = check()
        except RuleError as exc:
            errors.update(exc.fields)
        except ValueError as exc:
            errors[field] = [exc.args[0]]
    if errors:
        raise RuleError(errors)
    carry = values["final_carry"]
    values["final_carry"] = list(carry) if carry is not None else None
    return values
