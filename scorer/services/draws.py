"""The one way in for drawing a tournament's next round, for the API and the pages alike:
a cup's final first takes the points its players carry in from the series (at its first
draw, `scorer.services.series.carry_into_final`), then the round is drawn
(`scorer.services.tournaments.draw_round`). One unit of work: a refused draw keeps
nothing."""

from __future__ import annotations

from scorer.domain.tournament_commands import DrawRound
from scorer.services import series, tournaments
from scorer.store.database import unit_of_work
from scorer.store.models import Tournament, TournamentRound


@unit_of_work
def draw_round(tournament: Tournament, command: DrawRound) -> TournamentRound:
    series.carry_into_final(tournament)
    return tournaments.draw_round(tournament, command)
