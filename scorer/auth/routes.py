"""Organiser sign-up, login and logout; login is rate-limited.

The first sign-up asks for a one-time setup code: the server is reachable by everyone on
the pub's Wi-Fi, and only the person who started it sees the code (`make run` prints it,
the log has it). It lives in `instance/setup_code` until the first account exists.
"""

from __future__ import annotations

import hmac
import secrets
import unicodedata
from pathlib import Path

from flask import current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_user, logout_user

from scorer.auth import credentials
from scorer.auth.blueprint import bp
from scorer.auth.forms import LoginForm, SignupForm
from scorer.domain import RuleError
from scorer.extensions import limiter, login_manager, rate_limits_off
from scorer.i18n.catalogue import say
from scorer.i18n.words import gettext as _
from scorer.i18n.words import lazy_gettext as _l
from scorer.i18n.words import ngettext
from scorer.services import accounts
from scorer.store.database import db
from scorer.store.models import Organiser

login_manager.login_view = "auth.login"
login_manager.login_message = _l("Please log in as an organiser.")
login_manager.localize_callback = str  # the flash stores text, not a lazy string


@login_manager.user_loader
def load_organiser(session_id: str) -> Organiser | None:
    """The organiser of a login cookie, while its session token is still theirs: logging
    out gives them a new one, and every cookie made before stops working."""
    number, _sep, token = session_id.partition(":")
    if not (number.isascii() and number.isdigit() and len(number) < 10 and token):
        return None
    organiser = db.session.get(Organiser, int(number))
    if organiser is None or not organiser.session_token:
        return None
    if not hmac.compare_digest(organiser.session_token.encode(), token.encode()):
        return None
    return organiser


def setup_code_path() -> Path:
    return Path(current_app.instance_path) / "setup_code"


def setup_code() -> str:
    """The code the first sign-up needs: `SETUP_CODE` from the configuration, else the
    one in the instance folder, made (and logged) when there is none yet."""
    configured = current_app.config.get("SETUP_CODE")
    if configured:
        return str(configured)
    path = setup_code_path()
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        code = "-".join(secrets.token_hex(2) for _ in range(3))
        path.write_text(code)
        path.chmod(0o600)
        current_app.logger.warning("Setup code for the first organiser sign-up: %s", code)
        return code


def setup_code_matches(given: str | None) -> bool:
    expected = setup_code().encode()
    return hmac.compare_digest((given or "").strip().lower().encode(), expected)


def safe_next(target: str | None) -> str:
    """Only same-site paths: never redirect to another host after login. Control
    characters are dropped first (browsers drop tabs and newlines too: "/%09/evil" would
    become "//evil", another host)."""
    target = "".join(c for c in target or "" if unicodedata.category(c)[0] != "C")
    if target.startswith("/") and not target.startswith(("//", "/\\")):
        return target
    return url_for("tournaments.index")


@bp.route("/anmelden", methods=["GET", "POST"])
def login():
    if not accounts.anyone_signed_up():
        return redirect(url_for("auth.signup"))
    form = LoginForm()
    status, headers = 200, {}
    if form.validate_on_submit():
        try:
            organiser = credentials.check(form.email.data, form.password.data)
        except credentials.TooManyFailures as exc:
            minutes = -(-exc.retry_after // 60)
            form.password.errors = [
                ngettext(
                    "Too many wrong attempts from this device. Please try again in a minute.",
                    "Too many wrong attempts from this device. "
                    "Please try again in %(num)d minutes.",
                    minutes,
                )
            ]
            status, headers = 429, {"Retry-After": str(exc.retry_after)}
        else:
            if organiser is not None:
                accounts.start_session(organiser)
                login_user(organiser)
                return redirect(safe_next(request.args.get("next")))
            form.password.errors = [_("E-mail or password is wrong")]
    if form.errors and status == 200:
        status = 422
    return render_template("auth/login.html", form=form), status, headers


@bp.route("/registrieren", methods=["GET", "POST"])
@limiter.limit("10 per minute", methods=["POST"], exempt_when=rate_limits_off)
def signup():
    """The first organiser signs up here; after that, new ones are made on the command line."""
    if accounts.anyone_signed_up():
        flash(
            _(
                "There is an organiser account already: please log in. "
                "`%(command)s` creates more accounts.",
                command="flask scorer create-organiser",
            ),
            "info",
        )
        return redirect(url_for("auth.login"))
    form = SignupForm()
    if form.validate_on_submit():
        if not setup_code_matches(form.setup_code.data):
            form.setup_code.errors = [
                _("The code is wrong. It is shown in the window where the server was started.")
            ]
            return render_template("auth/signup.html", form=form), 422
        try:
            organiser = accounts.first_organiser(
                form.name.data,
                form.email.data,
                form.password.data,
                hashing=current_app.config["PASSWORD_HASH"],
            )
        except RuleError as exc:
            form.name.errors = [say(m) for m in exc.fields.get("name", [])]
            return render_template("auth/signup.html", form=form), 422
        if organiser is None:  # someone else was quicker: their account is the first
            return redirect(url_for("auth.login"))
        setup_code_path().unlink(missing_ok=True)
        login_user(organiser)
        return redirect(url_for("tournaments.index"))
    return render_template("auth/signup.html", form=form), 422 if form.errors else 200


@bp.post("/abmelden")
def logout():
    """Ends this session and every other one of the organiser (a new session token)."""
    if current_user.is_authenticated:
        accounts.end_sessions(current_user)
        logout_user()
    return redirect(url_for("table.index"))
