"""A tournament's whole history as one file (`scorer.formats.archive_tournament`), written from
the database and read back into a new tournament of the organiser who imports it, with new
keys (and a new desk code where it has a desk).

An import is a replay, not a copy, as a group's (`scorer.services.archives`): every table's
hands are recorded again through the tournament's rules (`tables.replay_hands`), and a
round closes when its tables are done, as it did, or as the file says it was closed. So the
standings, and the prizes on them, are worked out afresh; the standings in the file are
not believed. What the door decided is carried as the file says it: the desk, the cap,
the fee and the prize plan, each player's club, check-in, place on the waiting list, fee
and fixed table, each round's seating, the gifts to the charity pot. A no-show stays one
(never seated: a table of the file that seats him refuses the file), a waiting player
waits. The results too: the tie-breaks, each player's points carried into a cup's final,
the director's adjustments (those taken back too) and the finish, after which the
imported tournament takes no write, as a finished one (`director.finish`). Like the
tables' service, these functions flush; the caller commits once.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from scorer.domain import RuleError, commands, tournament_commands
from scorer.domain.message import msg
from scorer.domain.tournament_commands import Door
from scorer.formats.archive import TOURNAMENT_FORMAT, VERSION, stamp
from scorer.formats.archive_tournament import ArchivedRound, TournamentArchive
from scorer.services import tables, tournaments
from scorer.services.archives import evening_export
from scorer.store.database import db, unit_of_work
from scorer.store.locks import begin_write
from scorer.store.models import (
    CharityGift,
    Organiser,
    Tournament,
    TournamentAdjustment,
    TournamentRound,
    TournamentTable,
    utcnow,
)

# --- writing ------------------------------------------------------------------------------------


def tournament_archive(tournament: Tournament) -> dict[str, Any]:
    """The tournament's archive: rules, the door, players, every round drawn with its
    tables, the charity pot (the desk's code stays behind: an import makes a new one)."""
    return {
        "format": TOURNAMENT_FORMAT,
        "version": VERSION,
        "exported_at": stamp(utcnow()),
        "tournament": {
            "name": tournament.name,
            "date": tournament.day.isoformat(),
            "game": tournament.game,
            "system": tournament.system,
            "params": dict(tournament.params),
            "rounds": tournament.rounds,
            "deals_per_player": tournament.deals_per_player,
            "seed": tournament.seed,
            "created_at": stamp(tournament.created_at),
            "check_in": tournament.check_in,
            "registration_open": tournament.registration_open,
            "cap": tournament.cap,
            "missed_round_points": tournament.missed_round_points,
            "entry_fee_cents": tournament.entry_fee_cents,
            "prize_plan": dict(tournament.prize_plan),
            "tie_breaks": list(tournament.tie_breaks),
            "finished_at": stamp(tournament.finished_at),
            # Informative: an import ranks the players again from the tables' hands.
            "standings": [asdict(s) for s in tournaments.tournament_standings(tournament)],
        },
        "players": players_archive(tournament),
        "rounds": [
            {
                "number": r.number,
                "seed": r.seed,
                "byes": list(r.byes),
                "closed_at": stamp(r.closed_at),
                "seating": r.seating,
                "keep_apart": r.keep_apart,
                "clubs_together": [list(pair) for pair in r.clubs_together],
                "tables": [
                    {"number": t.number, "table": evening_export(t.session)} for t in r.tables
                ],
            }
            for r in tournament.round_list
        ],
        "gifts": [
            {"giver": gift.giver, "cents": gift.cents, "at": stamp(gift.at)}
            for gift in tournament.gifts
        ],
        "adjustments": adjustments_archive(tournament),
    }


def players_archive(tournament: Tournament) -> list[dict[str, Any]]:
    """Each player with the door's say of him and his points carried into a final."""
    return [
        {
            "name": p.name,
            "joined_round": p.joined_round,
            "withdrawn_after": p.withdrawn_after,
            "club": p.club,
            "checked_in": p.checked_in,
            "waiting": p.waiting,
            "fee": p.fee,
            "fixed_table": p.fixed_table,
            "carried": p.carried,
        }
        for p in tournament.players
    ]


def adjustments_archive(tournament: Tournament) -> list[dict[str, Any]]:
    """The director's adjustments in the order made, those taken back too."""
    return [
        {
            "player": a.player,
            "points": a.points,
            "reason": a.reason,
            "by": a.by,
            "at": stamp(a.at),
            "taken_back_at": stamp(a.taken_back_at),
        }
        for a in tournament.adjustments
    ]


# --- a tournament read back -----------------------------------------------------------------------


@unit_of_work
def import_tournament(organiser: Organiser, archive: TournamentArchive) -> Tournament:
    """A new tournament of `organiser` (with new keys) with the archive's door and players,
    its rounds, each table's hands recorded again; a round closes when its tables are done,
    as it did, or as the file says it was closed. A refusal leaves nothing behind."""
    begin_write()
    return replay_tournament(organiser, archive)


def replay_tournament(organiser: Organiser, archive: TournamentArchive) -> Tournament:
    """`import_tournament` inside a write the caller began (a series' import, which makes
    several tournaments in one unit of work)."""
    command = tournament_commands.new_tournament(
        name=archive.name,
        day=archive.day,
        game=archive.game,
        system=archive.system,
        params=archive.params,
        rounds=archive.rounds,
        players=[p.name for p in archive.players],
        registered=True,
        deals_per_player=archive.deals_per_player,
        tie_breaks=archive.tie_breaks,
        door=Door(
            check_in=archive.check_in,
            registration_open=archive.registration_open,
            cap=archive.cap,
            missed_round_points=archive.missed_round_points,
            entry_fee_cents=archive.entry_fee_cents,
            prize_plan=archive.prize_plan,
        ),
    )
    tournament = tournaments.create_tournament(organiser, command)
    tournament.seed = archive.seed
    if archive.created_at is not None:
        tournament.created_at = archive.created_at
    for player, archived in zip(tournament.players, archive.players, strict=True):
        player.joined_round = archived.joined_round
        player.withdrawn_after = archived.withdrawn_after
        player.club = archived.club
        player.checked_in = archived.checked_in
        player.waiting = archived.waiting
        player.fee = archived.fee
        player.fixed_table = archived.fixed_table
        player.carried = archived.carried
    for gift in archive.gifts:
        made = CharityGift(giver=gift.giver, cents=gift.cents)
        if gift.at is not None:
            made.at = gift.at
        tournament.gifts.append(made)
    for archived_round in archive.round_list:
        _import_round(tournament, archived_round)
    _import_results(tournament, archive)
    db.session.flush()
    return tournament


def _import_results(tournament: Tournament, archive: TournamentArchive) -> None:
    """The director's adjustments as they were (those taken back too), then the finish
    as the file says it, on the terms of `director.finish`: every round drawn is closed."""
    for archived in archive.adjustments:
        made = TournamentAdjustment(
            player=archived.player,
            points=archived.points,
            reason=archived.reason,
            by=archived.by,
            taken_back_at=archived.taken_back_at,
        )
        if archived.at is not None:
            made.at = archived.at
        tournament.adjustments.append(made)
    if archive.finished_at is None:
        return
    open_round = next((r for r in tournament.round_list if not r.closed), None)
    if open_round is not None:
        raise RuleError.one(
            "tournament.finished_at",
            msg(
                "round %(number)s is not closed yet: close it before the tournament ends",
                number=open_round.number,
            ),
        )
    if not tournament.round_list:
        raise RuleError.one("tournament.finished_at", msg("no round has been played yet"))
    tournament.finished_at = archive.finished_at


def _require_importable(tournament: Tournament, archived: ArchivedRound, where: str) -> None:
    """The round before is closed, and the clubs kept together are of players here."""
    previous = tournament.round_list[-1] if tournament.round_list else None
    if previous is not None and not previous.closed:
        raise RuleError.one(
            where, msg("round %(number)s is not closed yet", number=previous.number)
        )
    registered = {p.name for p in tournament.players}
    for pair in archived.clubs_together:
        stranger = next((name for name in pair if name not in registered), None)
        if stranger is not None:
            raise RuleError.one(
                f"{where}.clubs_together",
                msg("no player called %(name)s in this tournament", name=stranger),
            )


def _import_round(tournament: Tournament, archived: ArchivedRound) -> None:
    where = f"rounds[{archived.number - 1}]"
    _require_importable(tournament, archived, where)
    playing = {p.name for p in tournament.players if p.plays_in(archived.number)}
    round_ = TournamentRound(
        tournament_id=tournament.id,
        number=archived.number,
        seed=archived.seed,
        byes=archived.byes,
        seating=archived.seating,
        keep_apart=archived.keep_apart,
        clubs_together=[list(pair) for pair in archived.clubs_together],
    )
    tournament.round_list.append(round_)
    seated: set[str] = set()
    for table in archived.tables:
        players = set(table.plan.players)
        if not players <= playing or players & seated or table.plan.lineups:
            raise RuleError.one(
                f"{where}.tables[{table.number - 1}].table.players",
                msg("must be players of the round, each at one table"),
            )
        seated |= players
        session = tables.create_session(
            commands.open_table(
                name=table.plan.name,
                game=tournament.game,
                system=tournament.system,
                params=tournament.params,
                players=list(table.plan.players),
                first_dealer=table.plan.first_dealer,
                scoring="points",
                hands_planned=tournaments.hands_for(tournament, len(table.plan.players)),
            )
        )
        if table.created_at is not None:
            session.created_at = table.created_at
        round_.tables.append(
            TournamentTable(number=table.number, session_id=session.id, session=session)
        )
    db.session.flush()
    for table, made in zip(archived.tables, round_.tables, strict=True):
        tables.replay_hands(made.session, table.plan)
        if made.session.done:  # as at the table: its last hand closes a round that is done
            tournaments.close_round_if_done(made.session)
    if archived.closed_at is not None and not round_.closed:
        tournaments.close_round(round_)
    if archived.closed_at is not None:
        round_.closed_at = archived.closed_at
