"""Fixtures: the app on a fresh database (SQLite by default, PostgreSQL when
SCORER_TEST_DATABASE_URL is set), its test client and CLI runner."""

from __future__ import annotations

import atexit
import functools
import json
import os
import shutil
import tempfile
import weakref
from html.parser import HTMLParser
from pathlib import Path

import pytest
from sqlalchemy import Engine, event

from scorer import create_app
from scorer.domain.message import Msg
from scorer.domain.model import RuleError
from scorer.store.database import db

pytest.register_assert_rewrite("tests.support")
pytest_plugins = [
    "tests.support.browser",
    "tests.support.clocks",
    "tests.support.devices",
    "tests.support.racing",
]
"""The shared fixtures (tests/support/): Chromium's, the kept pages' clock, the devices at a
table, the races between two servers. Every test names them without an import; the asserts
of every helper in tests/support/ are rewritten as a test module's are."""

DATA = Path(__file__).parent / "data"
SETUP_CODE = "test-setup-code"
QUICK_HASH = "pbkdf2:sha256:1"
"""How the tests' apps keep a password (`PASSWORD_HASH`; the app's is scrypt, about 70 ms a
check here): the 600 accounts the suite makes, its logins and every HTTP Basic request of
its browser tests cost it a minute of scrypt. The check is the app's all the same: werkzeug
reads the method from the kept hash."""
"""The first organiser sign-up's one-time code in the tests (`make run` prints a random one)."""


SLOW_MODULES = {
    # real servers, subprocesses, whole migrations, fuzzing
    "test_backups",
    "test_concurrency",
    "test_concurrency_director",
    "test_concurrency_more",
    "test_faults",
    "test_fuzz",
    "test_imports",
    "test_migrations",
    "test_printing",
    "test_record_field",
    "test_serve",
    "test_upgrades",
    # real PDFs, property tests, whole tournaments and archives: 10-45 s a module here
    "test_archive_door",
    "test_archives",
    "test_exports_data",
    "test_hand_form",
    "test_hardening",
    "test_pdf",
    "test_properties",
    "test_tournament_director",
    "test_tournament_pdf_cache",
    "test_tournament_standings_kept",
    "test_tournaments",
    "test_web",
}
"""Modules that start real servers, subprocesses or whole migrations, fuzz, print real
PDFs or play whole tournaments: `slow` (measured with `pytest --durations=0`).
`make test-fast` leaves them and the browser tests (`e2e`) out."""


def pytest_collection_modifyitems(config, items):
    """Marks the browser tests `e2e` and the slow modules `slow`, and runs them first: the
    test workers (`make test`: `--dist loadscope --no-loadscope-reorder`) take modules in
    this order, so the long ones start at once and the many short ones fill in the end,
    instead of one worker finishing a browser module alone while the other waits."""
    weights = {}
    for item in items:
        module = item.module.__name__.rsplit(".", 1)[-1] if item.module else ""
        if module.startswith("test_e2e"):
            item.add_marker(pytest.mark.e2e)
            weights[item.nodeid] = 0
        elif module in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
            weights[item.nodeid] = 1
    items.sort(key=lambda item: weights.get(item.nodeid, 2))  # stable: a module stays whole


PLAIN_RULE_MESSAGES: list[object] = []
"""Messages that reached a RuleError as something other than a message id, this test."""


def pytest_configure(config):
    """Every refusal speaks in message ids (`Msg`), which the reader's language says: a plain
    string reaching a RuleError (in this process: the app under the test client, the
    services, the domain) fails the test that made it. Under pytest-xdist each worker gets
    a PostgreSQL database of its own (`own_database`)."""
    own_database()
    if getattr(RuleError.__init__, "checks_messages", False):
        return
    plain_init = RuleError.__init__

    def checked(self, fields):
        PLAIN_RULE_MESSAGES.extend(
            m for ms in fields.values() for m in ms if not isinstance(m, Msg)
        )
        plain_init(self, fields)

    checked.checks_messages = True
    RuleError.__init__ = checked


def own_database() -> None:
    """A pytest-xdist worker (`make test` runs one per core) tests on a PostgreSQL database
    of its own, `<the database>_<worker>` beside the one SCORER_TEST_DATABASE_URL names,
    made when it is missing: the tests empty their database, which another worker uses."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    url = os.environ.get("SCORER_TEST_DATABASE_URL")
    if not worker or not url or url.endswith(f"_{worker}"):
        return
    from sqlalchemy import create_engine, text

    base, name = url.rsplit("/", 1)
    own = f"{name}_{worker}"
    engine = create_engine(
        f"{base}/{name}".replace("postgresql://", "postgresql+psycopg://", 1),
        isolation_level="AUTOCOMMIT",
    )
    with engine.connect() as connection:
        known = connection.execute(
            text("SELECT 1 FROM pg_database WHERE datname = :own"), {"own": own}
        ).first()
        if known is None:
            connection.exec_driver_sql(f'CREATE DATABASE "{own}"')
    engine.dispose()
    os.environ["SCORER_TEST_DATABASE_URL"] = f"{base}/{own}"


ENGINES: weakref.WeakSet[Engine] = weakref.WeakSet()
"""Every engine a test has connected through (an app's, a helper's, a migration's)."""


@event.listens_for(Engine, "engine_connect")
def _seen(connection) -> None:
    ENGINES.add(connection.engine)


@pytest.fixture(autouse=True)
def no_connection_outlives_its_test():
    """After each test, every engine's idle connections are closed. An app a test made and
    dropped would otherwise leave its pooled connections to the garbage collector, which
    closes them during a later test (psycopg's ResourceWarning, blamed on that test).
    Connections still checked out stay open; a module's app reconnects when it is next used."""
    yield
    for engine in list(ENGINES):
        engine.dispose()


@pytest.fixture(autouse=True)
def patient_printer(request, monkeypatch) -> None:
    """A request waits for its paper however busy the machine (several test workers on two
    cores print slowly): "being printed" (202) only in the tests of the printer's waits,
    marked `printer_as_served`."""
    from scorer.reports import printing, weasy

    if request.node.get_closest_marker("printer_as_served"):
        return
    monkeypatch.setattr(printing, "WAIT", 120.0)
    monkeypatch.setattr(printing, "STARTING_CHECKS", 24_000)
    # A record field's 375-page score slips take 20 s with two test workers on two cores
    # and past the renderer's 60 s with four: the paper is printed however long it takes.
    monkeypatch.setattr(weasy, "WAIT", 120.0)
    monkeypatch.setattr(weasy, "TIMEOUT", 600.0)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    PLAIN_RULE_MESSAGES.clear()
    outcome = yield
    if PLAIN_RULE_MESSAGES and outcome.excinfo is None:
        plain = ", ".join(repr(m) for m in PLAIN_RULE_MESSAGES[:5])
        outcome.force_exception(AssertionError(f"plain strings reached a RuleError: {plain}"))


def load_vectors() -> list[dict]:
    return json.loads((DATA / "rules-vectors.json").read_text(encoding="utf-8"))


@functools.cache
def empty_schema() -> Path:
    """A SQLite file with every table and nothing in them, made once per test process: a
    test's database starts as a copy of it (`make_app`), which costs a fraction of a
    millisecond where `create_all` cost several, three thousand times a run."""
    folder = Path(tempfile.mkdtemp(prefix="haferl-schema-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'schema.sqlite3'}",
            "SECRET_KEY": "test",
            "PDF_CACHE": str(folder / "pdf-cache"),
        }
    )
    with app.app_context():
        db.create_all()
        db.engine.dispose()  # the last connection folds the write-ahead log into the file
    return folder / "schema.sqlite3"


def make_app(tmp_path: Path, **config):
    """An app on an empty database: a SQLite file in `tmp_path` (a copy of `empty_schema`
    where there is none yet, else emptied), or the PostgreSQL database named by
    SCORER_TEST_DATABASE_URL (emptied first); or the one `config` names (emptied)."""
    url = config.get("SQLALCHEMY_DATABASE_URI") or os.environ.get("SCORER_TEST_DATABASE_URL")
    fresh = False
    if url is None:
        database = tmp_path / "test.sqlite3"
        url, fresh = f"sqlite:///{database}", not database.exists()
        if fresh:
            shutil.copyfile(empty_schema(), database)
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": url,
            "WTF_CSRF_ENABLED": False,
            "SECRET_KEY": "test",
            "RATE_LIMITS": False,
            "SETUP_CODE": SETUP_CODE,
            "PASSWORD_HASH": QUICK_HASH,
            "PDF_CACHE": str(tmp_path / "pdf-cache"),
            **config,
        }
    )
    if not fresh:
        with app.app_context():
            db.drop_all()
            db.create_all()
    return app


def dispose(app) -> None:
    """The app's connections closed, and its PostgreSQL database emptied (a SQLite file
    goes with its test's folder)."""
    with app.app_context():
        db.session.remove()
        if db.engine.dialect.name != "sqlite":
            db.drop_all()
        db.engine.dispose()


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    dispose(app)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def prints(monkeypatch) -> list[tuple[str, str]]:
    """(thread name, stylesheet) of each PDF laid out, each a real WeasyPrint print."""
    import threading

    from scorer.reports import weasy

    done: list[tuple[str, str]] = []
    real = weasy.write_pdf

    def counted(html: str, static: Path, stylesheet: str) -> bytes:
        done.append((threading.current_thread().name, stylesheet))
        return real(html, static, stylesheet)

    monkeypatch.setattr(weasy, "write_pdf", counted)
    return done


@pytest.fixture
def drawn_tournament(app, client):
    """Eight players, round 1 drawn (two tables of four), the organiser logged in:
    (tournament id, Basic auth header, round 1 as the API gave it)."""
    from tests.support.tournaments import created, draw, log_in, organiser

    auth = organiser(app)
    tid = created(client, auth, [f"Spieler {i}" for i in range(1, 9)], rounds=2, deals=1)["id"]
    round_one = draw(client, auth, tid)
    assert log_in(client).status_code == 302
    return tid, auth, round_one


class DefaultFields(HTMLParser):
    """The values a browser would post for the `param_*` fields of the new-table form."""

    def __init__(self):
        super().__init__()
        self.values: dict[str, str] = {}
        self._select: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        name = a.get("name") or ""
        if tag == "input" and name.startswith("param_"):
            if a.get("type") == "checkbox":
                if "checked" in a:
                    self.values[name] = "y"
            else:
                self.values[name] = a.get("value") or ""
        elif tag == "select" and name.startswith("param_"):
            self._select = name
        elif (
            tag == "option"
            and self._select
            and ("selected" in a or self._select not in self.values)
        ):
            self.values[self._select] = a.get("value") or ""

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None


class PostedFields(HTMLParser):
    """What a browser posts, untouched, from the form `form_id` of a page: checked radios
    and checkboxes, every other input's value, each select's chosen option."""

    def __init__(self, form_id: str):
        super().__init__()
        self.form_id = form_id
        self.values: list[tuple[str, str]] = []
        self.names: set[str] = set()
        """Every field the form has, posted or not."""
        self._inside = False
        self._select: str | None = None
        self._chosen: dict[str, str] = {}
        self._first: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self._inside = a.get("id") == self.form_id
        if not self._inside:
            return
        name = a.get("name", "")
        if tag in ("input", "select") and name:
            self.names.add(name)
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind in ("radio", "checkbox"):
                if "checked" in a:
                    self.values.append((name, a.get("value") or "on"))
            elif kind not in ("submit", "button"):
                self.values.append((name, a.get("value", "")))
        elif tag == "select":
            self._select = name
        elif tag == "option" and self._select:
            self._first.setdefault(self._select, a.get("value", ""))
            if "selected" in a:
                self._chosen[self._select] = a.get("value", "")

    def handle_endtag(self, tag):
        if tag == "select" and self._select:
            name = self._select
            self.values.append((name, self._chosen.get(name, self._first.get(name, ""))))
            self._select = None
        elif tag == "form":
            self._inside = False


@pytest.fixture(autouse=True)
def machine_speaks_german(monkeypatch) -> None:
    """The terminal's language (`make run`'s banner, the command line) is German in every
    test, whatever this machine's LANG; a test of another sets LANGUAGE itself."""
    monkeypatch.setenv("LANGUAGE", "de")
