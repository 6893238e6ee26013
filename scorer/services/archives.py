"""A Stammtisch's whole history as one file (`scorer.formats.archive`), written from the
database and read back into a new group with a new key; a tournament's is
`scorer.services.tournament_archives`, which writes its tables as evenings' exports
(`evening_export`) too.

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

from datetime import datetime
from typing import Any

from sqlalchemy import select

from scorer.domain import RuleError, group_commands
from scorer.domain.message import msg
from scorer.formats.archive import (
    GROUP_FORMAT,
    NOTED,
    VERSION,
    ArchivedEvent,
    GroupArchive,
    event_line,
    stamp,
)
from scorer.formats.evening import ExportedEvening, ExportedHand, session_to_export
from scorer.services import evenings, groups, table_reads, tables
from scorer.store.database import db, unit_of_work
from scorer.store.locks import begin_write
from scorer.store.models import (
    Group,
    GroupEvent,
    TableSession,
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
        for r in table_reads.hands_of(session, include_voided=True)
    ]
    return session_to_export(evening, hands, table_reads.settlement(session))


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
            event_line(e.action, e.season, e.at, data=e.data, position=place.__getitem__)
            for e in groups.history(group)
        ],
    }


def closes(session: TableSession) -> list[int]:
    """How many hands the evening had each time it was closed (its history says)."""
    counts, hands = [], 0
    for line in table_reads.history(session):
        if line.action == "record" and line.hand_number is not None:
            hands = max(hands, line.hand_number)
        elif line.action == "close":
            counts.append(hands)
    return counts


# --- a group read back ----------------------------------------------------------------------------


@unit_of_work
def import_group(archive: GroupArchive) -> Group:
    """A new group (with a new key) that lived the archive's history again."""
    begin_write()
    group = groups.create_group(
        group_commands.found_group(
            name=archive.name,
            game=archive.game,
            system=archive.system,
            params=archive.params,
            members=archive.members,
            carry_pot=archive.carry_pot,
            settle=archive.settle,
            share_by=archive.share_by,
        )
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
            self.group,
            group_commands.start_evening(
                plan.players, first_dealer=plan.first_dealer, name=plan.name, params=plan.params
            ),
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
