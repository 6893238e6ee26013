"""A clock the test moves on, for the kept pages (`scorer.live.RecentPages`): a kept page is
as old as the test says, never as old as a busy machine made it. The fixture
`standings_clock` (a plugin registered in tests/conftest.py) sets it on the pages the
routes keep: the standings page's and the public standings JSON's."""

from __future__ import annotations

import pytest


class Clock:
    """Stands still until the test moves it on (`RecentPages(clock=...)` calls it)."""

    def __init__(self) -> None:
        self.now = -1e9  # what a test keeps looks ancient to the real clock after it

    def __call__(self) -> float:
        return self.now

    def later(self, seconds: float = 3_600) -> None:
        """`seconds` on; by default past every kept page's freshness and staleness (the
        next reader looks itself)."""
        self.now += seconds


@pytest.fixture
def standings_clock(monkeypatch) -> Clock:
    """The clock of the kept standings (page and JSON) for this test; the real one after."""
    from scorer.api import tournaments as tournament_api
    from scorer.tournaments import routes

    clock = Clock()
    for pages in (routes.STANDINGS, tournament_api.PUBLIC_STANDINGS):
        monkeypatch.setattr(pages, "clock", clock)
    return clock
