"""A tournament's standings at a version (`tournaments.live_version`), worked out once per
server process for every reader of that version: the live page (for each language) and the
projectors' JSON are kept apart (`scorer.live.RecentPages`), but render from one fold.

At a record event's pace (62 hands a second, 500 phones, 5 projectors, one core) every
look finds a new version, so each kept page is rendered anew; a projector that asked just
after its copy aged past the stale window rendered the JSON inside its request, the fold of
500 players included. Now it finds that fold made already by the page's refresher.

The standings read after the version was looked up may be newer than it (a hand came in
between): a reader of that version is then given newer standings, never older ones."""

from __future__ import annotations

import threading
from collections import OrderedDict

from scorer.domain.tournament import Standing
from scorer.services.tournaments import tournament_standings
from scorer.store.models import Tournament

KEPT_VERSIONS = 8
"""Versions kept per process (a version is given for half a second or so: a few suffice)."""

_kept: OrderedDict[tuple[str, tuple[int, ...]], list[Standing]] = OrderedDict()
"""By the tournament's key (not its id, which another database, a test's, gives again)."""
_lock = threading.Lock()


def standings_at(tournament: Tournament, version: tuple[int, ...]) -> list[Standing]:
    """`tournament_standings` at `version` or later: folded on the first ask for this
    version in this process, then given again."""
    key = (tournament.key, version)
    with _lock:
        kept = _kept.get(key)
    if kept is not None:
        return kept
    standings = tournament_standings(tournament)
    with _lock:
        _kept[key] = standings
        _kept.move_to_end(key)
        while len(_kept) > KEPT_VERSIONS:
            _kept.popitem(last=False)
    return standings
