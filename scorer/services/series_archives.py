"""A series' archive (`scorer.formats.archive_series`): written from the database, and
read back into a new series of the organiser who imports it, with new keys.

The import makes the series with the file's settings and log of names, then imports each
tournament through the tournament import (`tournament_archives.replay_tournament`: a
replay, every total worked out again) and makes it part of the series, the final as the
final. So the series table is worked out afresh, never believed. One unit of work: a
refusal anywhere (its fields under `series.…` or `tournaments[i].…`) leaves nothing."""

from __future__ import annotations

from typing import Any

from scorer.domain import RuleError
from scorer.formats.archive import VERSION, stamp
from scorer.formats.archive_series import SERIES_FORMAT, SeriesArchive
from scorer.services import series as cups
from scorer.services import tournament_archives
from scorer.store.database import db, unit_of_work
from scorer.store.locks import begin_write
from scorer.store.models import Organiser, Series, utcnow


def series_archive(series: Series) -> dict[str, Any]:
    """The series' settings, its log of names and each tournament's archive (in season
    order), the final marked."""
    return {
        "format": SERIES_FORMAT,
        "version": VERSION,
        "exported_at": stamp(utcnow()),
        "series": {
            "name": series.name,
            "cup_points": series.cup_points,
            "best_of": series.best_of,
            "final_carry": series.final_carry,
            "tie_breaks": list(series.tie_breaks),
            "names": [dict(line) for line in series.names],
        },
        "tournaments": [
            {**tournament_archives.tournament_archive(t), "final": t.final}
            for t in series.tournaments
        ],
    }


@unit_of_work
def import_series(organiser: Organiser, archive: SeriesArchive) -> Series:
    """A new series of `organiser` (new keys) with the archive's settings and names, its
    tournaments imported and made part of it. A refusal leaves nothing behind."""
    begin_write()
    series = cups.create_series(organiser, archive.settings)
    series.names = [dict(line) for line in archive.names]
    for index, (archived, final) in enumerate(
        zip(archive.tournaments, archive.finals, strict=True)
    ):
        try:
            tournament = tournament_archives.replay_tournament(organiser, archived)
        except RuleError as error:
            raise RuleError(
                {f"tournaments[{index}].{field}": said for field, said in error.fields.items()}
            ) from None
        tournament.series = series
        tournament.final = final
    db.session.flush()
    return series
