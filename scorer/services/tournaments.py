"""Operations that change tournaments: create one, late entries and withdrawals, draw a
round, swap two players before it starts, close it; and the standings.

Each tournament table is an ordinary table session scored in points (RULES §5): one unit
(or cent) is one point, no pot, no cap, no stakes. Like the tables' service, these functions
`flush` and the request commits once.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any, cast

from sqlalchemy import func, select

from scorer.domain import RuleError, commands
from scorer.domain.ledger import Ledger
from scorer.domain.limits import (
    MAX_TOURNAMENT_NAME,
    MAX_TOURNAMENT_TABLES,
)
from scorer.domain.message import Msg, msg
from scorer.domain.names import same_name
from scorer.domain.seating import seat, swap, table_sizes
from scorer.domain.tournament import (
    Standing,
    TableScore,
    TournamentHand,
    hands_per_table,
    ranked,
    standings,
)
from scorer.domain.tournament_commands import DrawRound, NewTournament, SwapPlayers
from scorer.services import director, policies, table_reads, tables
from scorer.services.door import new_desk_code
from scorer.store import table_rows
from scorer.store.database import db, unit_of_work
from scorer.store.errors import NotFound
from scorer.store.locks import lock_one
from scorer.store.models import (
    HandRecord,
    Organiser,
    Series,
    TableSession,
    Tournament,
    TournamentLog,
    TournamentPlayer,
    TournamentRound,
    TournamentTable,
    utcnow,
)
from scorer.store.table_rows import lock_round


def whole_number_between(low: int, high: int) -> Msg:
    return msg("must be a whole number %(low)s..%(high)s", low=low, high=high)


class TournamentError(Exception):
    """A tournament operation that cannot be done now (a conflict, 409)."""


@unit_of_work
def create_tournament(
    organiser: Organiser, command: NewTournament, *, series: Series | None = None
) -> Tournament:
    """A new tournament of `organiser`. `series`: the cup it is part of (checked by
    `scorer.services.series`)."""
    door = command.door
    tournament = Tournament(
        organiser_id=organiser.id,
        key=secrets.token_urlsafe(24),
        name=command.name,
        day=command.day,
        game=command.rules.game.id,
        system=command.rules.system.id,
        params=command.rules.stored_params(),
        rounds=command.rounds,
        deals_per_player=command.deals_per_player,
        seed=secrets.randbits(31),
        tie_breaks=list(command.tie_breaks),
        check_in=bool(door.check_in),
        registration_open=door.registration_open,
        cap=door.cap,
        desk_code=new_desk_code() if door.check_in else None,
        missed_round_points=door.missed_round_points,
        entry_fee_cents=door.entry_fee_cents,
        prize_plan=dict(door.prize_plan),
        series_id=series.id if series is not None else None,
        final=command.final,
    )
    # A list with a desk (`check_in`) is a registration list: nobody is here yet.
    tournament.players = [
        TournamentPlayer(name=n, checked_in=not door.check_in) for n in command.players
    ]
    db.session.add(tournament)
    db.session.flush()
    return tournament


def tournaments_of(organiser: Organiser) -> list[Tournament]:
    return list(
        db.session.scalars(
            select(Tournament)
            .where(Tournament.organiser_id == organiser.id)
            .order_by(Tournament.day.desc(), Tournament.id.desc())
        )
    )


def get_tournament(
    organiser: Organiser, tournament_id: int, *, for_write: bool = False
) -> Tournament:
    """Only the organiser's own tournaments exist for them. `for_write` locks the
    tournament until the request commits (see `scorer.store.locks`)."""
    organiser_id = organiser.id
    if for_write:
        tournament = lock_one(Tournament, Tournament.id == tournament_id)
    else:
        tournament = db.session.get(Tournament, tournament_id)
    if tournament is None or tournament.organiser_id != organiser_id:
        raise NotFound(msg("no such tournament"))
    return tournament


def get_public(key: str) -> Tournament:
    tournament = None
    if table_rows.KEY_SHAPE.fullmatch(key):
        tournament = db.session.scalar(select(Tournament).where(Tournament.key == key))
    if tournament is None:
        raise NotFound(msg("no such tournament"))
    return tournament


def get_round(tournament: Tournament, number: int) -> TournamentRound:
    round_ = next((r for r in tournament.round_list if r.number == number), None)
    if round_ is None:
        raise NotFound(msg("round %(number)s has not been drawn", number=number))
    return round_


def current_round(tournament: Tournament) -> TournamentRound | None:
    return tournament.round_list[-1] if tournament.round_list else None


def next_round_number(tournament: Tournament) -> int:
    return len(tournament.round_list) + 1


def hands_for(tournament: Tournament, table_size: int) -> int:
    """Hands a table plays in a round: every player deals `deals_per_player` times."""
    return hands_per_table(table_size, tournament.deals_per_player)


@unit_of_work
def draw_round(tournament: Tournament, command: DrawRound) -> TournamentRound:
    """Draw the next round's tables (reproducible from the stored seed) and open a table
    session for each: at random avoiding repeat table-mates, or by the standings (the
    leaders at table 1); club-mates apart (`keep_apart="club"`) as far as the numbers
    allow; `fixed` players keep a table from now on (None: no longer)."""
    seating, keep_apart, fixed = command.seating, command.keep_apart, command.fixed
    number, playing = _next_draw(tournament)
    names = [p.name for p in playing]
    _keep_tables(tournament, fixed)
    previous = [[t.session.players for t in r.tables] for r in tournament.round_list]
    seed = (tournament.seed + 7919 * number) % 2**31
    ranking = None
    if seating == "standings":
        ranking = [s.player for s in tournament_standings(tournament) if s.player in names]
    try:
        seated = seat(
            names,
            previous,
            seed,
            mode=seating,
            ranking=ranking,
            clubs={p.name: p.club for p in playing if p.club} if keep_apart == "club" else None,
            fixed=_tables_kept(playing, len(table_sizes(len(names))), fixed),
        )
    except ValueError as exc:
        raise RuleError.one("fixed", exc.args[0]) from None
    seatings = seated.tables
    round_ = TournamentRound(
        tournament_id=tournament.id,
        number=number,
        seed=seed,
        byes=list(seated.byes),
        seating=seating,
        keep_apart=keep_apart,
        clubs_together=[list(pair) for pair in seated.together],
    )
    tournament.round_list.append(round_)
    _open_tables(tournament, round_, seatings)
    director.log(
        tournament,
        "draw",
        round=number,
        tables=[list(players) for players in seatings],
        byes=list(round_.byes),
        seating=seating,
        keep_apart=keep_apart,
    )
    db.session.flush()
    return round_


def _next_draw(tournament: Tournament) -> tuple[int, list[TournamentPlayer]]:
    """The number of the round to draw and who plays in it, or why it cannot be drawn."""
    policies.require_running(tournament)
    number = next_round_number(tournament)
    if number > tournament.rounds:
        raise TournamentError(msg("all %(count)s rounds have been drawn", count=tournament.rounds))
    current = current_round(tournament)
    if current is not None and not current.closed:
        raise TournamentError(msg("round %(number)s is not closed yet", number=current.number))
    playing = [p for p in tournament.players if p.plays_in(number)]
    try:
        table_sizes(len(playing))
    except ValueError:
        raise TournamentError(
            msg(
                "round %(number)s has only %(count)s players: at least 3 are needed",
                number=number,
                count=len(playing),
            )
        ) from None
    return number, playing


def _open_tables(
    tournament: Tournament, round_: TournamentRound, seatings: Sequence[Sequence[str]]
) -> None:
    """A table of the round for each seating, scoring points, its hands planned."""
    for index, players in enumerate(seatings, start=1):
        session = tables.create_session(
            commands.open_table(
                # Names from before MAX_TOURNAMENT_NAME may be longer: cut to fit.
                name=f"{tournament.name[:MAX_TOURNAMENT_NAME]} · Runde {round_.number} · "
                f"Tisch {index}",
                game=tournament.game,
                system=tournament.system,
                params=tournament.params,
                players=players,
                first_dealer=players[0],
                scoring="points",
                hands_planned=hands_for(tournament, len(players)),
            )
        )
        round_.tables.append(TournamentTable(number=index, session_id=session.id, session=session))


def _keep_tables(tournament: Tournament, fixed: Mapping[str, int | None]) -> None:
    """Players who keep a table from this draw on (a number), or no longer (None); a
    look-alike spelling names the player too."""
    for name, table in fixed.items():
        player = next((p for p in tournament.players if same_name(p.name, name)), None)
        if player is None:
            raise NotFound(msg("no player called %(name)s in this tournament", name=name))
        if table is not None and not 1 <= table <= MAX_TOURNAMENT_TABLES:
            raise RuleError.one("fixed", whole_number_between(1, MAX_TOURNAMENT_TABLES))
        if player.fixed_table != table:
            player.fixed_table = table
            director.log(tournament, "fixed_table", player=player.name, table=table)


def _tables_kept(
    playing: list[TournamentPlayer], tables: int, asked: Mapping[str, int | None]
) -> dict[str, int]:
    """The fixed tables for this draw: each asked now, and each kept from before that
    this round still has (after withdrawals a round may have fewer tables: the player
    sits where he is drawn this time and keeps his table for later rounds)."""
    now = {p.name for p in playing if any(same_name(p.name, name) for name in asked)}
    return {
        p.name: p.fixed_table
        for p in playing
        if p.fixed_table is not None and (p.fixed_table <= tables or p.name in now)
    }


def started(round_: TournamentRound) -> bool:
    return any(t.session.hand_count for t in round_.tables)


@unit_of_work
def swap_players(round_: TournamentRound, command: SwapPlayers) -> None:
    """Swap two players' seats while no hand of the round has been recorded."""
    a, b = command.a, command.b
    policies.require_running(round_.tournament)
    lock_round(round_)
    if round_.closed or started(round_):
        raise TournamentError(msg("the round has started: seats can no longer be swapped"))
    try:
        seatings = swap([t.session.players for t in round_.tables], a, b)
    except ValueError as exc:
        raise RuleError.one("players", exc.args[0]) from None
    for table, players in zip(round_.tables, seatings, strict=True):
        session = table.session
        if session.players != players:
            session.players = players
            session.first_dealer = players[0]
            ledger = Ledger(
                table_reads.rules_for(session), tuple(players), players[0], points_only=True
            )
            session.state = ledger.start().to_json()
    director.log(round_.tournament, "swap", round=round_.number, a=a, b=b)
    db.session.flush()


@unit_of_work
def close_round(round_: TournamentRound) -> None:
    policies.require_running(round_.tournament)
    lock_round(round_)
    if round_.closed:
        raise TournamentError(msg("round %(number)s is closed already", number=round_.number))
    _close_locked(round_, None)


def _close_locked(round_: TournamentRound, by: str | None) -> None:
    """Close the round and its open tables; the caller holds `lock_round`. `by`: who closes
    it, in the log (None: the organiser)."""
    for table in round_.tables:
        if not table.session.closed:
            tables.close_session(table.session, with_round=True)
    round_.closed_at = utcnow()
    director.log(round_.tournament, "close", by, round=round_.number)
    db.session.flush()


def close_round_if_done(session: TableSession) -> bool:
    """After a hand at a tournament table: close the round when every table is done.

    The caller holds the round's lock (taken before the table's), so of two tables that
    finish at once the second to commit sees the first as done and closes the round."""
    table = db.session.scalar(
        select(TournamentTable).where(TournamentTable.session_id == session.id)
    )
    if table is None:
        return False
    round_ = table.round
    lock_round(round_)
    if round_.closed or not all(t.session.done for t in round_.tables):
        return False
    _close_locked(round_, director.TABLE)
    return True


def tournament_hands(tournament: Tournament) -> list[TournamentHand]:
    """Every live hand of the tournament, from the tables' cached ledgers, in one query."""
    rows = db.session.execute(
        select(
            TournamentRound.number,
            TournamentTable.number,
            HandRecord.facts,
            HandRecord.result,
            HandRecord.net,
            HandRecord.sitting_out,
        )
        .join(TournamentTable, TournamentTable.round_id == TournamentRound.id)
        .join(HandRecord, HandRecord.session_id == TournamentTable.session_id)
        .where(TournamentRound.tournament_id == tournament.id, HandRecord.voided.is_(False))
        .order_by(TournamentRound.number, TournamentTable.number, HandRecord.number)
    )
    hands = []
    for round_number, table_number, facts, result, net, sitting in rows:
        points = {name: cents for name, cents in net.items() if name != "pot"}
        active = tuple(name for name in points if name != sitting)
        hands.append(
            TournamentHand(round_number, table_number, active, facts["declarer"], result, points)
        )
    return hands


def live_version(tournament: Tournament) -> tuple[int, ...]:
    """What changes whenever the standings change: its players (entries, withdrawals), its
    rounds (drawn, closed) and its tables' versions added up (every hand bumps its
    table's) and its log's length (adjustments, the finish). Four small reads, for the
    standings' ETag."""
    players = db.session.execute(
        select(
            func.count(),
            func.coalesce(func.sum(TournamentPlayer.joined_round), 0),
            func.coalesce(func.sum(TournamentPlayer.withdrawn_after), 0),
        ).where(TournamentPlayer.tournament_id == tournament.id)
    ).one()
    rounds = db.session.execute(
        select(func.count(), func.count(TournamentRound.closed_at)).where(
            TournamentRound.tournament_id == tournament.id
        )
    ).one()
    table_versions = db.session.execute(
        select(func.count(), func.coalesce(func.sum(TableSession.version), 0))
        .join(TournamentTable, TournamentTable.session_id == TableSession.id)
        .join(TournamentRound, TournamentRound.id == TournamentTable.round_id)
        .where(TournamentRound.tournament_id == tournament.id)
    ).one()
    # Adjustments, taking one back and the finish each write a line of the log.
    logged = db.session.scalar(
        select(func.count()).where(TournamentLog.tournament_id == tournament.id)
    )
    # Counts and sums `coalesce`d to 0: no None among them.
    return cast("tuple[int, ...]", (*players, *rounds, *table_versions, logged))


def tables_in_order(tournament: Tournament, *columns: Any) -> list[tuple[Any, ...]]:
    """`columns` (of a round, its table and the table's session) for each table of the
    tournament, round by round, table by table."""
    rows = db.session.execute(
        select(*columns)
        .select_from(TournamentRound)
        .join(TournamentTable, TournamentTable.round_id == TournamentRound.id)
        .join(TableSession, TableSession.id == TournamentTable.session_id)
        .where(TournamentRound.tournament_id == tournament.id)
        .order_by(TournamentRound.number, TournamentTable.number)
    )
    return [tuple(row) for row in rows]


def round_seats(round_: TournamentRound) -> list[tuple[int, list[str], int | None]]:
    """Who sits at each table of the round, table by table: its number, its players and
    the hands it plays. One read for all the round's tables."""
    rows = db.session.execute(
        select(TournamentTable.number, TableSession.players, TableSession.hands_planned)
        .join(TableSession, TableSession.id == TournamentTable.session_id)
        .where(TournamentTable.round_id == round_.id)
        .order_by(TournamentTable.number)
    )
    return [(number, players, hands) for number, players, hands in rows]


def table_scores(tournament: Tournament) -> list[TableScore]:
    """What each table of the tournament has scored, as the tables keep it (their ledgers'
    balances and tallies of results per declarer): one row per table, whatever the hands."""
    rows = tables_in_order(
        tournament, TournamentRound.number, TableSession.state, TableSession.declarer_tally
    )
    return [
        TableScore(
            number,
            state["balances"],
            tally.get("won", {}),
            state.get("hands", 0),
            tally.get("lost", {}),
        )
        for number, state, tally in rows
    ]


def field_names(tournament: Tournament) -> list[str]:
    """Who is in the standings: every player present (checked in, or the tournament has no
    desk), none from the waiting list; a no-show is not."""
    return [p.name for p in tournament.players if p.checked_in and not p.waiting]


def adjustments(tournament: Tournament) -> dict[str, int]:
    """The director's adjustments that count and, where the tournament sets points for a
    missed round, those of the players checked in late (one per round drawn before)."""
    points = director.counted_adjustments(tournament)
    if tournament.missed_round_points:
        for player in tournament.players:
            if player.checked_in and not player.waiting and player.joined_round > 1:
                missed = tournament.missed_round_points * (player.joined_round - 1)
                points[player.name] = points.get(player.name, 0) + missed
    return points


def tournament_standings(tournament: Tournament) -> list[Standing]:
    return ranked(
        field_names(tournament),
        table_scores(tournament),
        tournament.rounds,
        adjustments=adjustments(tournament),
        tie_breaks=tournament.tie_breaks,
        seed=tournament.seed,
        carried=carried_in(tournament),
    )


def carried_in(tournament: Tournament) -> dict[str, int]:
    """The points each player of a cup's final starts with (`scorer.services.series`
    writes them when the final's first round is drawn)."""
    return {p.name: p.carried for p in tournament.players if p.carried}


def fresh_standings(tournament: Tournament) -> list[Standing]:
    """The standings folded afresh from every live hand: what `tournament_standings` must
    always equal (for checks and tests; pages read the tables' kept scores)."""
    return standings(
        field_names(tournament),
        tournament_hands(tournament),
        tournament.rounds,
        adjustments=adjustments(tournament),
        tie_breaks=tournament.tie_breaks,
        seed=tournament.seed,
        carried=carried_in(tournament),
    )
