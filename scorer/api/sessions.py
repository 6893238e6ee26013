"""Session API: an evening at one table, addressed by its key (see API.md, "Sessions")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, g, jsonify, request

from scorer.api import answers, bodies
from scorer.api.blueprint import bp, table_bp
from scorer.api.contract import WRITES, described, read_body
from scorer.api.director import correcting_organiser
from scorer.api.errors import error_response
from scorer.api.schema import body_bytes, json_body, said_line
from scorer.domain import GAMES, commands
from scorer.domain.model import POT
from scorer.domain.validation import idempotency_key, whole_number
from scorer.extensions import NEW_TABLES
from scorer.i18n.catalogue import Speaker, say_error
from scorer.i18n.reader import language
from scorer.live import conditional
from scorer.services import evenings, groups, hand_commands, table_reads, tables
from scorer.services.table_reads import HAND_COLUMNS
from scorer.store import table_queue, table_rows
from scorer.store.errors import Conflict, HandExists, NotFound
from scorer.store.models import HandRecord, TableSession


def serve_sessions_by_key(blueprint: Blueprint) -> None:
    """For the views of `blueprint` (one whose prefix names a table's `key`): load the
    session into `g.session` (locked for the request when it writes)."""
    blueprint.url_value_preprocessor(_load_session)


def answer_store_errors(blueprint: Blueprint) -> None:
    """`blueprint`'s views answer a missing thing (404) or a conflict (409) in JSON."""
    blueprint.register_error_handler(NotFound, _not_found)
    blueprint.register_error_handler(Conflict, _conflict)


WRITES_IN_TURN = {"api.table.record_hand"}
"""Views that write through `scorer.store.table_queue` (which locks the table itself): they get
the key in `g.key` and no `g.session`."""


def _load_session(endpoint: str | None, values: dict[str, Any] | None) -> None:
    if values and "key" in values:
        key = values.pop("key")
        if request.method in ("GET", "HEAD"):
            g.session = table_rows.get_session(key)
        elif endpoint in WRITES_IN_TURN:
            g.key = key
        else:
            body_bytes()  # read from the network before the lock, not while holding it
            g.session = table_rows.session_for_write(key)


def _not_found(exc: NotFound):
    return error_response(404, "not_found", say_error(exc))


def _conflict(exc: Conflict):
    if isinstance(exc, HandExists):
        return hand_exists_response(exc)
    return error_response(409, "conflict", say_error(exc))


def hand_exists_response(exc: HandExists):
    """409 `hand_exists` (API.md, "A hand is entered once"): the stored hand with the
    error, so the device can show the players what was entered."""
    answer = answers.HandExists(
        error=answers.ErrorBody(code="hand_exists", message=say_error(exc), fields={}),
        hand=hand_answer(exc.hand, model=answers.ExistingHand, voided=exc.voided),
        next_number=exc.next_number,
    )
    return jsonify(answer.as_json()), 409


serve_sessions_by_key(table_bp)
answer_store_errors(bp)


def session_to_json(session: TableSession, with_hands: bool = True) -> dict[str, Any]:
    state = session.state
    data: dict[str, Any] = {
        "key": session.key,
        "name": session.name,
        "game": session.game,
        "system": session.system,
        "params": session.params,
        "players": session.players,
        "first_dealer": session.first_dealer,
        "balances": {**state["balances"], POT: state["pot"]},
        "round": state["round"],
        "next_dealer": state["next_dealer"],
        "sitting_out_next": state["next_dealer"]
        if len(session.players) > GAMES[session.game].active
        else None,
        "next_hand_factor": state.get("factor", 1),
        "hand_count": session.hand_count,
        "closed": session.closed,
        "created_at": session.created_at.isoformat() + "Z",
    }
    group = groups.group_of_evening(session)
    if group is not None:
        data["group"] = group.key
    if with_hands:
        speaker = Speaker()
        data["hands"] = [hand_answer(row, speaker) for row in table_reads.live_hand_rows(session)]
    return answers.Session(**data).as_json()


def hand_to_json(
    hand: HandRecord | Mapping[str, Any], speaker: Speaker | None = None
) -> dict[str, Any]:
    """A hand as API.md shows it, from a record or a row of `table_reads.live_hand_rows`."""
    return hand_answer(hand, speaker).as_json()


def hand_answer(
    hand: HandRecord | Mapping[str, Any],
    speaker: Speaker | None = None,
    model: type[answers.StoredHand] = answers.StoredHand,
    **more: Any,
) -> answers.StoredHand:
    """A hand as `model` (a stored hand, or one that says more: `more`)."""
    row = hand if isinstance(hand, Mapping) else hand_row(hand)
    if speaker is None:
        speaker = Speaker()  # once for the hand's lines, not once a line
    return model(
        number=row["number"],
        version=row["version"],
        dealer=row["dealer"],
        sitting_out=row["sitting_out"],
        hand=row["facts"],
        result=row["result"],
        net=row["net"],
        explanation=[said_line(line, speaker) for line in row["explanation"] or ()],
        round=row["round"],
        new_round=row["new_round"],
        round_end=row["round_end"],
        pot_after=row["pot_after"],
        **more,
    )


def hand_row(record: HandRecord) -> dict[str, Any]:
    """The `HAND_COLUMNS` of a record, read now (a commit expires them)."""
    return {column: getattr(record, column) for column in HAND_COLUMNS}


CHANGES = (*WRITES, 404, 409)
"""What a change to a table may be refused with: a bad body, no such table, a conflict."""


@bp.post("/sessions")
@described(
    "Open a table", {201: ("The session", answers.Session)}, body=bodies.NewSession, refusals=WRITES
)
@NEW_TABLES
def create_session():
    body = read_body(bodies.NewSession)
    session = tables.create_session(
        commands.open_table(
            name=body.name,
            game=body.game,
            system=body.system,
            params=body.params,
            players=body.players,
            first_dealer=body.first_dealer,
        )
    )
    return jsonify(session_to_json(session)), 201


@table_bp.get("")
@described(
    "A table with every hand (ETag: the table's version)",
    {200: ("The session", answers.Session), 304: ("Not changed since If-None-Match", None)},
    refusals=(404,),
)
def read_session():
    """The session with every hand. Its ETag is the table's version and the language its
    texts are in: a tablet that polls with `If-None-Match` gets `304` until something
    changes (or it asks in another language)."""
    etag = f"{g.session.key}-{g.session.version}-{language()}"
    return conditional(etag, lambda: jsonify(session_to_json(g.session)))


@table_bp.get("/hands/<n:number>")
@described("One hand", {200: ("The hand", answers.StoredHand)}, refusals=(404,))
def read_hand(number: int):
    return jsonify(hand_to_json(table_reads.live_hand(g.session, number)))


@table_bp.post("/hands")
@described(
    "Record a hand (Idempotency-Key makes a retry return the first result; "
    "`number` makes sure a hand is entered once)",
    {
        201: ("The stored hand", answers.StoredHand),
        409: (
            "A stale version or a closed table (code conflict), or hand `number` is "
            "stored already (code hand_exists, with the stored hand)",
            (answers.Error, answers.HandExists),
        ),
    },
    body=bodies.NewHand,
    refusals=(*WRITES, 404),
    parameters=({"name": "Idempotency-Key", "in": "header", "schema": {"type": "string"}},),
)
def record_hand():
    data = json_body()
    key = idempotency_key(request.headers.get("Idempotency-Key"))

    def record(session: TableSession) -> dict[str, Any]:
        # Built in the turn, on the locked table: its next number is the one refused with.
        command = hand_commands.record_command(session, data, idempotency_key=key)
        return hand_row(evenings.record_hand(session, command)[0])

    stored = table_queue.write_table(g.key, record)  # committed: its words are said now
    return jsonify(hand_to_json(stored)), 201


@table_bp.put("/hands/<n:number>")
@described(
    "Correct a hand read at `version`; later hands are settled again",
    {200: ("The hand", answers.StoredHand)},
    body=bodies.HandEdit,
    refusals=CHANGES,
)
def edit_hand(number: int):
    data = json_body()
    table_reads.require_hand(g.session, number)  # no such hand: 404 whatever the body
    command = hand_commands.edit_command(g.session, number, data)
    record = tables.edit_hand(g.session, command, by=correcting_organiser())
    return jsonify(hand_to_json(hand_row(record)))


@table_bp.delete("/hands/<n:number>")
@described(
    "Strike a hand out (kept in the history)",
    {204: ("Voided", None)},
    refusals=CHANGES,
    parameters=(
        {"name": "version", "in": "query", "required": True, "schema": {"type": "integer"}},
    ),
)
def void_hand(number: int):
    table_reads.require_hand(g.session, number)  # no such hand: 404 whatever the version
    command = hand_commands.void_command(number, whole_number(request.args.get("version")))
    tables.void_hand(g.session, command, by=correcting_organiser())
    return "", 204


@table_bp.get("/settlement")
@described(
    "Balances with the pot shared out, and the fewest transfers",
    {200: ("Settlement", answers.Settlement)},
    refusals=(404,),
)
def settlement():
    result = table_reads.settlement(g.session)
    return jsonify(
        answers.Settlement(
            balances=result.balances,
            transfers=[
                answers.Transfer(from_=t.payer, to=t.payee, cents=t.cents) for t in result.transfers
            ],
            closed=g.session.closed,
        ).as_json()
    )


@table_bp.post("/close")
@described("End the evening", {200: ("The session", answers.Session)}, refusals=CHANGES)
def close_session():
    evenings.close_evening(g.session)
    return jsonify(session_to_json(g.session, with_hands=False))


@table_bp.get("/history")
@described("Every change", {200: ("Events", [answers.HistoryEvent])}, refusals=(404,))
def history():
    events = table_reads.history(g.session)
    return jsonify(
        [
            answers.HistoryEvent(
                action=e.action,
                hand=e.hand_number,
                at=e.at.isoformat() + "Z",
                data=e.data,
            ).as_json()
            for e in events
        ]
    )
