"""A Stammtisch's or a tournament's whole history as one file (`scorer.formats.archive`), written
from the database and read back into a new group or tournament with new keys.

An import is a replay, not a copy: every evening's hands are recorded through the rules
(`tables.replay_hands`), and the group's history is acted out again through the
group's own operations in the order the file gives: an evening starts (and takes the
Haferl the group holds then), closes (and brings back what is left), is opened again, a
season closes (its Haferl shared out), a settle-up is paid. So the Haferl, every opening
pot, every share and every settle-up are worked out afresh, and a file that says more
than its hands and its history add up to is not believed. A history the group's rules
refuse (an evening of a closed season, a season closed over an open evening) refuses
the whole file. Like the tables' service, these functions flush; the caller commits once.
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime
from typing import Any

from sqlalchemy import select

from scorer.domain import RuleError
from scorer.domain.message import msg
from scorer.formats.archive import (
    GROUP_FORMAT,
    NOTED,
    TOURNAMENT_FORMAT,
    VERSION,
    ArchivedEvent,
    GroupArchive,
    event_line,
    stamp,
)
from scorer.formats.archive_tournament import ArchivedRound, TournamentArchive
from scorer.formats.evening import ExportedEvening, ExportedHand, session_to_export
from scorer.services import evenings, groups, table_ledger, tables, tournaments
from scorer.store.database import db, unit_of_work
from scorer.store.locks import begin_write
from scorer.store.models import (
    Group,
    GroupEvent,
    Organiser,
    TableSession,
    Tournament,
    TournamentRound,
    TournamentTable,
    utcnow,
)

# --- writing ------------------------------------------------------------------------------------


def evening_export(session: TableSession) -> dict[str, Any]:
    """The evening's JSON export (`scorer.formats.evening`), its hands voided ones included."""
    state = session.state
    evening = ExportedEvening(
        name=session.name,
        game=session.game,
        system=session.system,
        params=dict(session.params),
        players=list(session.players),
        first_dealer=session.first_dealer,
        lineups=list(session.lineups or []),
        created_at=session.created_at,
        closed=session.closed,
        scoring=session.scoring,
        hands_planned=session.hands_planned,
        balances=dict(state["balances"]),
        pot=state["pot"],
    )
    hands = [
        ExportedHand(number=r.number, dealer=r.dealer, facts=r.facts, voided=r.voided)
        for r in table_ledger.hands_of(session, include_voided=True)
    ]
    return session_to_export(evening, hands, table_ledger.settlement(session))


def group_archive(group: Group) -> dict[str, Any]:
    """The group's archive: its rules and members, every evening, its whole history."""
    sessions = groups.evenings(group)
    place = {s.key: index for index, s in enumerate(sessions)}
    return {
        "format": GROUP_FORMAT,
        "version": VERSION,
        "exported_at": stamp(utcnow()),
        "group": {
            "name": group.name,
            "game": group.game,
            "system": group.system,
            "params": dict(group.params),
            "members": list(group.members),
            "carry_pot": group.carry_pot,
            "settle": group.settle,
            "share_by": group.share_by,
            # Informative: an import works these out again from the evenings and history.
            "season": group.season,
            "pot_cents": group.pot_cents,
            "created_at": stamp(group.created_at),
        },
        "evenings": [
            {
                "season": s.season,
                "closed_at": stamp(s.closed_at),
                "paid_at": stamp(s.paid_at),
                "opening_pot": s.opening_pot,
                "closes": closes(s),
                "evening": evening_export(s),
            }
            for s in sessions
        ],
        "history": [
            event_line(e.action, e.season, e.at, e.data, place.__getitem__)
            for e in groups.history(group)
        ],
    }


def closes(session: TableSession) -> list[int]:
    """How many hands the evening had each time it was closed (its history says)."""
    counts, hands = [], 0
    for line in table_ledger.history(session):
        if line.action == "record" and line.hand_number is not None:
            hands = max(hands, line.hand_number)
        elif line.action == "close":
            counts.append(hands)
    return counts


def tournament_archive(tournament: Tournament) -> dict[str, Any]:
    """The tournament's archive: rules, players, every round drawn with its tables."""
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
            # Informative: an import ranks the players again from the tables' hands.
            "standings": [asdict(s) for s in tournaments.tournament_standings(tournament)],
        },
        "players": [
            {"name": p.name, "joined_round": p.joined_round, "withdrawn_after": p.withdrawn_after}
            for p in tournament.players
        ],
        "rounds": [
            {
                "number": r.number,
                "seed": r.seed,
                "byes": list(r.byes),
                "closed_at": stamp(r.closed_at),
                "tables": [
                    {"number": t.number, "table": evening_export(t.session)} for t in r.tables
                ],
            }
            for r in tournament.round_list
        ],
    }


# --- a group read back ----------------------------------------------------------------------------


@unit_of_work
def import_group(archive: GroupArchive) -> Group:
    """A new group (with a new key) that lived the archive's history again."""
    begin_write()
    group = groups.create_group(
        archive.name,
        archive.game,
        archive.system,
        params=archive.params,
        members=archive.members,
        carry_pot=archive.carry_pot,
        settle_mode=archive.settle,
        share_by=archive.share_by,
    )
    if archive.created_at is not None:
        group.created_at = archive.created_at
    replay = _GroupReplay(group, archive)
    for index, line in enumerate(archive.history):
        replay.act(index, line)
    replay.finish()
    db.session.flush()
    return group


class _GroupReplay:
    """The group's history acted out again; evenings start when the history first needs
    them (and every earlier one before them, so they keep their order)."""

    def __init__(self, group: Group, archive: GroupArchive) -> None:
        self.group = group
        self.archive = archive
        self.started: list[TableSession] = []
        self.closed: list[int] = []
        """How often each started evening has been closed."""
        self.stamped = 0
        """The id of the last group event given its time from the file."""

    def evening(self, index: int, at: datetime | None = None) -> TableSession:
        """Evening `index`, started now if it has not been (`at`: when the history says
        it took the Haferl)."""
        while len(self.started) <= index:
            self._start(len(self.started), at if len(self.started) == index else None)
        return self.started[index]

    def _start(self, index: int, at: datetime | None) -> None:
        archived = self.archive.evenings[index]
        if archived.season != self.group.season:
            raise RuleError.one(
                f"evenings[{index}].season",
                msg(
                    "evening %(number)s is of season %(season)s, but its history has season "
                    "%(current)s running when it starts",
                    number=index + 1,
                    season=archived.season,
                    current=self.group.season,
                ),
            )
        plan = archived.plan
        session = groups.new_evening(
            self.group, list(plan.players), plan.first_dealer, name=plan.name, params=plan.params
        )
        if archived.created_at is not None:
            session.created_at = archived.created_at
        self._stamp(at or archived.created_at)  # the Haferl it took
        tables.replay_hands(session, plan, archived.closes[0] if archived.closes else None)
        self.started.append(session)
        self.closed.append(0)

    def close(self, index: int, at: datetime | None) -> None:
        session = self.evening(index)
        if session.closed:
            return
        archived = self.archive.evenings[index]
        if not archived.plan.closed:
            raise RuleError.one(
                f"evenings[{index}]",
                msg("the history closes evening %(number)s, which is open", number=index + 1),
            )
        done = self.closed[index]
        # The hands it had when it was closed this time (all of them the last time).
        tables.replay_hands(
            session, archived.plan, archived.closes[done] if done < len(archived.closes) else None
        )
        self.closed[index] += 1
        evenings.close_evening(session)
        session.closed_at = archived.closed_at or at or session.closed_at
        self._stamp(at or session.closed_at)  # the Haferl it brought back

    def act(self, index: int, line: ArchivedEvent) -> None:
        if line.action == "pot_out" and line.reopened:
            session = self.evening(line.evenings[0])
            if session.closed:
                evenings.reopen_evening(session)
        elif line.action == "pot_out":
            self.evening(line.evenings[0], line.at)  # it takes the Haferl as it starts
        elif line.action == "pot_back":
            self.close(line.evenings[0], line.at)
        elif line.action == "season_close":
            self._close_season()
        elif line.action == "paid":
            self._paid(index, line)
        elif line.action in NOTED and line.noted is not None:
            db.session.add(
                GroupEvent(
                    group_id=self.group.id,
                    season=self.group.season,
                    action=line.action,
                    data=dict(line.noted),
                )
            )
        self._stamp(line.at)

    def _close_season(self) -> None:
        season = self.group.season
        for index, archived in enumerate(self.archive.evenings):
            if archived.season == season and archived.plan.closed:
                self.close(index, None)
        groups.close_season(self.group)

    def _paid(self, index: int, line: ArchivedEvent) -> None:
        for position in line.evenings:
            self.close(position, line.at)
        listed = {self.started[p].id for p in line.evenings}
        if {s.id for s in groups.unpaid(self.group)} != listed:
            raise RuleError.one(
                f"history[{index}].evenings",
                msg("a settle-up pays every closed evening not paid before it, and only those"),
            )
        for session in groups.close_settlement(self.group):
            session.paid_at = line.at or session.paid_at

    def finish(self) -> None:
        for index, archived in enumerate(self.archive.evenings):
            session = self.evening(index)
            if not session.closed:
                tables.replay_hands(session, archived.plan)
            if archived.plan.closed:
                self.close(index, None)
            elif self.started[index].closed:
                raise RuleError.one(
                    f"evenings[{index}]",
                    msg("the history closes evening %(number)s, which is open", number=index + 1),
                )

    def _stamp(self, at: datetime | None) -> None:
        """The group events written since the last stamp get the file's time."""
        db.session.flush()
        written = db.session.scalars(
            select(GroupEvent)
            .where(GroupEvent.group_id == self.group.id, GroupEvent.id > self.stamped)
            .order_by(GroupEvent.id)
        ).all()
        for event in written:
            if at is not None:
                event.at = at
            self.stamped = event.id


# --- a tournament read back -----------------------------------------------------------------------


@unit_of_work
def import_tournament(organiser: Organiser, archive: TournamentArchive) -> Tournament:
    """A new tournament of `organiser` (with new keys) with the archive's rounds, each
    table's hands recorded again; a round closes when its tables are done, as it did, or
    as the file says it was closed."""
    begin_write()
    names = tournaments.parse_player_list([p.name for p in archive.players])
    tournament = tournaments.create_tournament(
        organiser,
        archive.name,
        archive.day,
        game=archive.game,
        system=archive.system,
        params=archive.params,
        rounds=archive.rounds,
        players=names,
        deals_per_player=archive.deals_per_player,
    )
    tournament.seed = archive.seed
    if archive.created_at is not None:
        tournament.created_at = archive.created_at
    for player, archived in zip(tournament.players, archive.players, strict=True):
        player.joined_round = archived.joined_round
        player.withdrawn_after = archived.withdrawn_after
    for archived_round in archive.round_list:
        _import_round(tournament, archived_round)
    db.session.flush()
    return tournament


def _import_round(tournament: Tournament, archived: ArchivedRound) -> None:
    where = f"rounds[{archived.number - 1}]"
    previous = tournament.round_list[-1] if tournament.round_list else None
    if previous is not None and not previous.closed:
        raise RuleError.one(
            where, msg("round %(number)s is not closed yet", number=previous.number)
        )
    playing = {p.name for p in tournament.players if p.plays_in(archived.number)}
    round_ = TournamentRound(
        tournament_id=tournament.id, number=archived.number, seed=archived.seed, byes=archived.byes
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
            table.plan.name,
            tournament.game,
            tournament.system,
            tournament.params,
            list(table.plan.players),
            table.plan.first_dealer,
            scoring="points",
            hands_planned=tournaments.hands_for(tournament, len(table.plan.players)),
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
