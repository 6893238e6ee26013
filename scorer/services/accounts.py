"""Organiser accounts: the first one (made with the setup code the server shows), more from
the command line, and the session token that logging out renews."""

from __future__ import annotations

from typing import cast

from sqlalchemy import func, select

from scorer.domain.limits import MAX_ORGANISER_NAME
from scorer.domain.message import msg
from scorer.domain.names import clean_name
from scorer.store.database import db, unit_of_work
from scorer.store.locks import lock_name
from scorer.store.models import Organiser

PASSWORD_HASH = "scrypt"
"""How a new password is kept (werkzeug's method; the app's `PASSWORD_HASH` setting): about
70 ms a check here, which is what makes guessing slow. The tests keep theirs quicker, as
Django's documentation advises for a test suite."""


def anyone_signed_up() -> bool:
    # A count always gives one row: never None.
    return cast(int, db.session.scalar(select(func.count(Organiser.id)))) > 0


@unit_of_work
def create_organiser(
    name: str, email: str, password: str, *, hashing: str = PASSWORD_HASH
) -> Organiser:
    """A new organiser, the password kept by werkzeug's method `hashing`; ValueError when
    the e-mail address has an account already."""
    email = email.strip().lower()
    if db.session.scalar(select(Organiser).where(Organiser.email == email)):
        raise ValueError(msg("This e-mail address already has an account"))
    organiser = Organiser(name=clean_name(name, "name", MAX_ORGANISER_NAME), email=email)
    organiser.set_password(password, hashing)
    organiser.new_session_token()
    db.session.add(organiser)
    db.session.flush()
    return organiser


@unit_of_work
def first_organiser(
    name: str, email: str, password: str, *, hashing: str = PASSWORD_HASH
) -> Organiser | None:
    """The first organiser, or None when someone else was quicker (theirs is the first)."""
    lock_name("first organiser")
    if anyone_signed_up():
        return None
    return create_organiser(name, email, password, hashing=hashing)


@unit_of_work
def start_session(organiser: Organiser) -> None:
    """A login: an organiser without a session token (an old account) gets one."""
    if not organiser.session_token:
        organiser.new_session_token()


@unit_of_work
def end_sessions(organiser: Organiser) -> None:
    """Logging out ends every session of the organiser: a new session token."""
    organiser.new_session_token()
