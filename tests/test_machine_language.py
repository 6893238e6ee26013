"""The person at the server's terminal reads `make run`'s banner, what went wrong and the
command line in the machine's language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), in one
language at a time: German unless it says English."""

from __future__ import annotations

import pytest

from scorer import serve
from scorer.i18n.words import machine_language


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({}, "de"),
        ({"LANG": "C.UTF-8"}, "de"),
        ({"LANG": "de_AT.UTF-8"}, "de"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8", "LC_ALL": "en_US.UTF-8"}, "en"),
        ({"LANG": "en_GB.UTF-8", "LC_MESSAGES": "de_DE.UTF-8"}, "de"),
        ({"LANGUAGE": "en:de", "LANG": "de_DE.UTF-8"}, "en"),
        ({"LANGUAGE": "", "LANG": "en_IE.UTF-8"}, "en"),
    ],
)
def test_the_machines_language_is_the_one_gettext_would_read(environ, language):
    assert machine_language(environ) == language


def test_the_banner_speaks_the_machines_language_only(monkeypatch):
    german = serve.banner("127.0.0.1", "8000", "ab12-cd34")
    assert "Haferl läuft: http://127.0.0.1:8000/ (nur an dieser Adresse)" in german
    assert "Einrichtungscode für das erste Veranstalterkonto: ab12-cd34" in german
    assert "running" not in german
    monkeypatch.setenv("LANGUAGE", "en_GB")
    english = serve.banner("127.0.0.1", "8000", "ab12-cd34")
    assert "Haferl is running: http://127.0.0.1:8000/ (at this address only)" in english
    assert "Setup code for the first organiser account: ab12-cd34" in english
    assert "läuft" not in english


def test_a_failed_upgrade_is_told_in_english_on_an_english_machine(monkeypatch, tmp_path):
    monkeypatch.setenv("LANGUAGE", "en_GB")
    message = serve.upgrade_failed(ValueError("broke"), None, None)
    assert "The database could not be upgraded: ValueError (broke)" in message
    assert "It is unchanged (every step in one transaction); nothing is lost." in message
    assert message.endswith("Haferl was not started.")
    assert "Datenbank" not in message


def test_the_command_line_speaks_english_on_an_english_machine(app, runner, monkeypatch, tmp_path):
    monkeypatch.setenv("LANGUAGE", "en_GB")
    args = ["scorer", "create-organiser", "--name", "X", "--email", "x@example.org"]
    short = runner.invoke(args=[*args, "--password", "kurz"])
    assert short.exit_code != 0 and "at least 8 characters" in short.output
    made = runner.invoke(args=[*args, "--password", "geheim123"])
    assert made.exit_code == 0 and "Organiser x@example.org created." in made.output
    with app.app_context():
        from scorer.store.database import db

        on_sqlite = db.engine.dialect.name == "sqlite"
    missing = runner.invoke(args=["scorer", "restore", str(tmp_path / "none.sqlite3")])
    assert missing.exit_code == 1
    if on_sqlite:
        said = "is not a sound SQLite database (no such file); nothing was changed."
    else:
        said = (
            'PostgreSQL: back up with pg_dump and restore with pg_restore (see README, "Backups").'
        )
    assert said in missing.output
