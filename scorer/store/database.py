"""The database handle (Flask-SQLAlchemy's, bound by `create_app`) and the one way work is
committed: a unit of work.

Every public write of a service is a unit of work (`@unit_of_work`): what it writes is
committed when it returns, or rolled back when it raises, and the views never commit. A
service that calls another's write (a tournament's draw opens tables; a group's evening is
a table) joins the caller's unit, so the outermost call commits once and a failure
anywhere leaves nothing. The table queue, which writes several tablets' hands in one
transaction and commits them itself, holds a unit open around its batch (`held_open`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import wraps
from typing import TYPE_CHECKING, ClassVar, ParamSpec, TypeVar

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)

if TYPE_CHECKING:
    from sqlalchemy import Table

    # mypy takes no attribute (`db.Model`) as a base class (python/mypy#8603): the checker
    # sees the models' base as the declarative base it is made from. Each model is mapped
    # to a Table (not a join or a select), which the writes in bulk take.
    class Model(Base):
        __abstract__ = True
        __table__: ClassVar[Table]

else:
    Model = db.Model
"""The models' base class: `db.Model`, Flask-SQLAlchemy's declarative base."""

_open: ContextVar[bool] = ContextVar("unit_of_work_open", default=False)
"""Whether this thread (request) is inside a unit of work already."""

Params = ParamSpec("Params")
Made = TypeVar("Made")


def unit_of_work(write: Callable[Params, Made]) -> Callable[Params, Made]:
    """`write` as a unit of work: committed when the outermost one returns, rolled back
    (and the error raised again) when it raises; inside another unit it joins that one."""

    @wraps(write)
    def run(*args: Params.args, **kwargs: Params.kwargs) -> Made:
        if _open.get():
            return write(*args, **kwargs)
        token = _open.set(True)
        try:
            made = write(*args, **kwargs)
            db.session.commit()
        except BaseException:
            db.session.rollback()
            raise
        finally:
            _open.reset(token)
        return made

    return run


@contextmanager
def held_open() -> Iterator[None]:
    """The caller commits or rolls back itself: the units of work called inside join its
    transaction (the table queue's batch of hands)."""
    token = _open.set(True)
    try:
        yield
    finally:
        _open.reset(token)
