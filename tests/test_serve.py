"""`make run`'s start-up (`scorer.serve`) and the first sign-up's setup code."""

from __future__ import annotations

import pytest

from scorer import create_app, serve
from scorer.auth import routes as auth_routes
from scorer.extensions import db
from tests.conftest import dispose, make_app


def test_the_banner_names_the_lan_address_with_a_qr_code_and_the_setup_code(monkeypatch):
    monkeypatch.setattr(serve, "lan_address", lambda: "192.168.1.23")
    text = serve.banner("0.0.0.0", "5000", "ab12-cd34-ef56")
    assert "http://192.168.1.23:5000/" in text
    assert "█" in text  # the QR code
    assert "http://127.0.0.1:5000/" in text
    assert "ab12-cd34-ef56" in text


def test_a_server_kept_to_one_address_says_so_and_without_a_code_none_is_shown():
    text = serve.banner("127.0.0.1", "8000", None)
    assert "http://127.0.0.1:8000/" in text
    assert "█" not in text and "Einrichtungscode" not in text


def test_the_lan_address_is_never_loopback():
    address = serve.lan_address()
    assert address is None or not address.startswith("127.")


@pytest.mark.parametrize(("sqlite", "workers"), [(True, "1"), (False, None)])
def test_gunicorn_listens_where_asked_with_threads(sqlite, workers):
    argv = serve.gunicorn_argv("0.0.0.0", "5000", sqlite)
    assert argv[argv.index("--bind") + 1] == "0.0.0.0:5000"
    assert argv[argv.index("--threads") + 1] == "8"
    if workers:
        assert argv[argv.index("--workers") + 1] == workers
    assert int(argv[argv.index("--workers") + 1]) >= 1
    assert argv[-1] == "wsgi:app"
    assert serve.gunicorn_argv("h", "1", sqlite, workers=3)[argv.index("--workers") + 1] == "3"


def test_every_server_thread_keeps_a_postgresql_connection_open():
    """A thread beyond the pool's size would open and close a connection per request."""
    url = "postgresql://nobody@127.0.0.1:1/none"  # never connected to
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "test"})
    with app.app_context():
        assert db.engine.pool.size() >= serve.THREADS


def test_the_setup_code_is_made_once_logged_and_gone_after_the_first_sign_up(
    tmp_path, monkeypatch, caplog
):
    app = make_app(tmp_path, SETUP_CODE=None)
    path = tmp_path / "setup_code"
    monkeypatch.setattr(auth_routes, "setup_code_path", lambda: path)
    try:
        with app.app_context():
            code = auth_routes.setup_code()
            assert path.read_text() == code and auth_routes.setup_code() == code
        assert code in caplog.text
        assert oct(path.stat().st_mode & 0o777) == "0o600"
        form = {
            "name": "Orga",
            "email": "orga@example.org",
            "password": "geheim123",
            "confirm": "geheim123",
        }
        client = app.test_client()
        wrong = client.post("/veranstalter/registrieren", data={**form, "setup_code": "x"})
        assert wrong.status_code == 422 and path.exists()
        right = client.post(
            "/veranstalter/registrieren", data={**form, "setup_code": f" {code.upper()} "}
        )
        assert right.status_code == 302
        assert not path.exists()
    finally:
        dispose(app)
