"""The command line of a Haferl server, `flask --app wsgi scorer …`: `create-organiser`,
`backup` and `restore`. A terminal has no browser to ask for a language: everything is
said in the machine's (`scorer.i18n.words.machine_language`: LANGUAGE, LC_ALL,
LC_MESSAGES, LANG; German unless it says English), as `make run`'s banner is.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from flask import Flask, current_app
from flask.cli import AppGroup, with_appcontext

from scorer.i18n.catalogue import say, say_error
from scorer.i18n.words import gettext as _
from scorer.i18n.words import machine_language, speaking
from scorer.services import accounts
from scorer.store import backups

MIN_PASSWORD = 8


def in_the_machines_language(command: Callable[..., None]) -> Callable[..., None]:
    """Run `command` speaking the machine's language."""

    @functools.wraps(command)
    def in_its_language(*args: Any, **kwargs: Any) -> None:
        with speaking(machine_language()):
            command(*args, **kwargs)

    return in_its_language


def register(app: Flask) -> None:
    """Add the `scorer` command group to the app."""
    group = AppGroup("scorer", help="Haferl's server commands.")
    group.add_command(create_organiser_command)
    group.add_command(backup_command)
    group.add_command(restore_command)
    app.cli.add_command(group)


@click.command("create-organiser")
@click.option("--name")
@click.option("--email")
@click.option("--password")
@with_appcontext
@in_the_machines_language
def create_organiser_command(name: str | None, email: str | None, password: str | None) -> None:
    """Create an organiser account (asks for what is not given)."""
    name = name or click.prompt(_("Name"))
    email = email or click.prompt(_("Email"))
    password = password or click.prompt(_("Password"), hide_input=True, confirmation_prompt=True)
    if len(password) < MIN_PASSWORD:
        raise click.BadParameter(_("at least 8 characters"), param_hint="--password")
    try:
        accounts.create_organiser(
            name, email, password, hashing=current_app.config["PASSWORD_HASH"]
        )
    except ValueError as exc:
        raise click.ClickException(say_error(exc)) from None
    click.echo(_("Organiser %(email)s created.", email=email))
    current_app.logger.info("organiser %s created", email)


def _database() -> Path:
    from scorer.store.database import db

    path = backups.sqlite_file(db.engine.url)
    if path is None:
        raise click.ClickException(say(backups.POSTGRES))
    return path


@click.command("backup")
@click.argument("path", required=False, type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
@in_the_machines_language
def backup_command(path: Path | None) -> None:
    """Take a consistent copy of the SQLite database (also while the server runs)."""
    source = _database()
    try:
        if path is None:
            directory = backups.backup_dir(source, current_app.config.get("BACKUP_DIR"))
            made = backups.automatic_backup(source, directory)
        else:
            made = backups.take_backup(source, path)
    except backups.BackupError as exc:
        raise click.ClickException(say(exc.message)) from None
    size = made.stat().st_size
    click.echo(
        _(
            "Backed up: %(path)s (%(size)s bytes, integrity_check ok)",
            path=str(made),
            size=say(size),
        )
    )


@click.command("restore")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
@in_the_machines_language
def restore_command(path: Path) -> None:
    """Put a backup back in place of the SQLite database (stop the server first)."""
    from scorer.store.database import db

    target = _database()
    db.engine.dispose()
    try:
        aside = backups.restore(target, path)
    except backups.BackupError as exc:
        raise click.ClickException(say(exc.message)) from None
    click.echo(_("Restored: %(backup)s → %(database)s.", backup=str(path), database=str(target)))
    if aside:
        click.echo(_("The database it replaced is kept at %(path)s.", path=str(aside)))
    click.echo(_("make run starts again (an older backup is upgraded on the way)."))
