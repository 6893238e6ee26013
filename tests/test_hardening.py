"""An attacker's view: cross-site writes, headers, password guessing, sessions that end,
hostile input. Each test reproduces a finding of the hardening issue and checks it is
refused with a 4xx and changes nothing."""

from __future__ import annotations

import html
import re
from urllib.parse import urljoin, urlsplit

import pytest
from sqlalchemy import select

from scorer.app import create_app
from scorer.extensions import limiter
from scorer.store.database import db
from scorer.store.models import Organiser, TableSession, Tournament
from tests.conftest import QUICK_HASH, SETUP_CODE, dispose, make_app
from tests.support.tables import new_table
from tests.support.tournaments import API, PASSWORD, basic, create, created, draw, log_in, organiser

HAND = {"declarer": "Anton", "contract": "frage", "points": 70}
PLAYERS = ["Anton", "Berta", "Charlotte"]


def new_session(client) -> str:
    response = client.post(
        f"{API}/sessions",
        json={"game": "haferltarock", "system": "parlett-units", "players": PLAYERS},
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()["key"]


# --- 1. no cross-site writes ---------------------------------------------------------------


def test_the_api_ignores_the_web_login_cookie(app, client):
    auth = organiser(app)
    tid = create(client, auth, ["A", "B", "C", "D"]).get_json()["id"]
    assert log_in(client).status_code == 302  # the browser now holds the login cookie
    assert client.get("/turniere").status_code == 200
    response = client.post(f"{API}/tournaments/{tid}/rounds", json={})
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == 'Basic realm="Haferl"'
    assert response.get_json()["error"]["code"] == "unauthorized"
    assert client.get(f"{API}/tournaments/{tid}", headers=auth).get_json()["rounds_drawn"] == []


@pytest.mark.parametrize(
    ("content_type", "body"),
    [("text/plain", "{}"), ("application/x-www-form-urlencoded", ""), ("multipart/form-data", "")],
)
def test_tournament_writes_must_be_json_even_without_a_body(app, client, content_type, body):
    auth = organiser(app)
    tid = create(client, auth, ["A", "B", "C", "D"]).get_json()["id"]
    for path in (f"{API}/tournaments/{tid}/rounds", f"{API}/tournaments"):
        response = client.post(path, data=body, headers={**auth, "Content-Type": content_type})
        assert response.status_code == 415, path
        assert response.get_json()["error"]["code"] == "unsupported_media_type"
    with app.app_context():
        assert db.session.query(Tournament).count() == 1
        assert db.session.get(Tournament, tid).round_list == []


def test_an_api_body_that_is_not_json_is_415_and_stores_nothing(client):
    key = new_session(client)
    response = client.post(
        f"{API}/sessions/{key}/hands",
        data='{"declarer": "Anton", "contract": "frage", "points": 70}',
        headers={"Content-Type": "text/plain"},
    )
    assert response.status_code == 415
    assert client.get(f"{API}/sessions/{key}").get_json()["hand_count"] == 0


def test_the_session_cookie_is_lax_http_only_and_secure_over_https(app, client):
    organiser(app)
    plain = log_in(client)
    cookie = plain.headers["Set-Cookie"]
    assert "SameSite=Lax" in cookie and "HttpOnly" in cookie and "Secure" not in cookie
    https = app.test_client().post(
        "/veranstalter/anmelden",
        data={"email": "orga@example.org", "password": PASSWORD},
        base_url="https://localhost",
    )
    assert "Secure" in https.headers["Set-Cookie"]


# --- 2. headers ------------------------------------------------------------------------------


def test_every_page_and_answer_carries_the_security_headers(client):
    key = new_session(client)
    for path in (f"/t/{key}", f"{API}/sessions/{key}", "/", f"/t/{key}/spiele", "/nirgends"):
        response = client.get(path)
        headers = response.headers
        csp = headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp, path
        assert "frame-ancestors 'none'" in csp
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["X-Frame-Options"] == "DENY"
        assert headers["Referrer-Policy"] == "same-origin"
        assert headers["Cache-Control"] == "no-store", path
    static = client.get(f"{client.application.static_url_path}/style.css")
    assert "no-store" not in static.headers["Cache-Control"]
    static.close()


# --- 3. password guessing ------------------------------------------------------------------


@pytest.fixture
def limited_app(tmp_path):
    app = make_app(tmp_path, RATE_LIMITS=True)
    limiter.reset()
    yield app
    limiter.reset()
    dispose(app)


def test_basic_auth_guessing_is_stopped_from_that_address_only(limited_app):
    client = limited_app.test_client()
    right = organiser(limited_app)
    wrong = basic("orga@example.org", "falsch")
    attacker = {"REMOTE_ADDR": "10.6.6.6"}
    statuses = [
        client.get(f"{API}/tournaments", headers=wrong, environ_base=attacker).status_code
        for _ in range(12)
    ]
    assert statuses[:10] == [401] * 10 and statuses[10:] == [429, 429]
    locked = client.get(f"{API}/tournaments", headers=right, environ_base=attacker)
    assert locked.status_code == 429
    assert 0 < int(locked.headers["Retry-After"]) <= 60  # ten a minute were used up
    # The organiser at her own laptop is not locked out by somebody else's guessing.
    mine = client.get(f"{API}/tournaments", headers=right, environ_base={"REMOTE_ADDR": "10.1.1.1"})
    assert mine.status_code == 200


def test_guessing_from_many_addresses_brakes_the_account_but_never_locks_out_its_owner(
    limited_app,
):
    from scorer.auth.credentials import ACCOUNT_BRAKE

    organiser(limited_app)

    def attempt(n: int, password: str = "falsch"):
        return limited_app.test_client().post(
            "/veranstalter/anmelden",
            data={"email": "orga@example.org", "password": password},
            environ_base={"REMOTE_ADDR": f"10.0.{n // 200}.{n % 200 + 1}"},
        )

    statuses = [attempt(n).status_code for n in range(ACCOUNT_BRAKE.amount)]
    assert statuses == [422] * ACCOUNT_BRAKE.amount  # one try each, each answered
    # The brake holds now: an address that failed gets no further try this hour, not
    # even with the right password, and is told when to come back, in its language.
    again = attempt(3, PASSWORD)
    assert again.status_code == 429 and 60 < int(again.headers["Retry-After"]) <= 3600
    assert "Minuten" in again.get_data(as_text=True)
    # An address that has not failed gets in with the right password at once.
    assert attempt(999, PASSWORD).status_code == 302
    # Another account is not braked by this.
    with limited_app.app_context():
        from scorer.services.accounts import create_organiser

        create_organiser("B", "b@example.org", PASSWORD)
        db.session.commit()
    other = limited_app.test_client().post(
        "/veranstalter/anmelden",
        data={"email": "b@example.org", "password": PASSWORD},
        environ_base={"REMOTE_ADDR": "10.0.0.4"},
    )
    assert other.status_code == 302


def test_forwarded_for_is_believed_only_behind_a_configured_proxy(tmp_path):
    from flask import request

    for hops, expected in ((0, "127.0.0.1"), (1, "203.0.113.9")):
        (tmp_path / str(hops)).mkdir()
        app = make_app(tmp_path / str(hops), PROXY_HOPS=hops)
        seen = []
        app.before_request(lambda seen=seen: seen.append(request.remote_addr))
        app.test_client().get("/", headers={"X-Forwarded-For": "203.0.113.9"})
        assert seen == [expected]
        dispose(app)


def test_an_unknown_address_is_checked_against_a_hash_too(app, monkeypatch):
    from scorer.auth import credentials

    checked = []
    monkeypatch.setattr(credentials, "check_password_hash", lambda h, p: checked.append(h) or False)
    with app.test_request_context():
        assert credentials.check("nobody@example.org", "x") is None
    # by the method a real account's password is kept by: it costs the same
    assert checked == [credentials._nobodys_hash(app.config["PASSWORD_HASH"])]
    assert checked[0].startswith(f"{app.config['PASSWORD_HASH']}$")


def test_a_password_is_kept_by_scrypt_unless_the_settings_say_otherwise(tmp_path):
    """The app's own setting, not the tests' quicker one (`tests.conftest.QUICK_HASH`)."""
    settings = {
        "TESTING": True,
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'own.sqlite3'}",
        "WTF_CSRF_ENABLED": False,
        "SECRET_KEY": "test",
        "SETUP_CODE": SETUP_CODE,
        "PDF_CACHE": str(tmp_path / "pdf-cache"),
    }
    for config, method in (
        (settings, "scrypt:"),
        ({**settings, "PASSWORD_HASH": QUICK_HASH}, QUICK_HASH + "$"),
    ):
        app = create_app(config)
        with app.app_context():
            db.drop_all()
            db.create_all()
        client = app.test_client()
        signed_up = client.post(
            "/veranstalter/registrieren",
            data={
                "setup_code": SETUP_CODE,
                "name": "Orga",
                "email": "orga@example.org",
                "password": PASSWORD,
                "confirm": PASSWORD,
            },
        )
        assert signed_up.status_code == 302, signed_up.get_data(as_text=True)
        with app.app_context():
            kept = db.session.scalars(select(Organiser.password_hash)).one()
        assert kept.startswith(method), kept
        assert (
            client.get(f"{API}/tournaments", headers=basic("orga@example.org")).status_code == 200
        )
        dispose(app)


# --- 4. sessions that end ------------------------------------------------------------------


def test_logging_out_ends_every_session_of_the_organiser(app):
    organiser(app)
    laptop, phone = app.test_client(), app.test_client()
    assert log_in(laptop).status_code == 302 and log_in(phone).status_code == 302
    stolen = laptop.get_cookie("session").value
    assert phone.get("/turniere").status_code == 200
    laptop.post("/veranstalter/abmelden")
    thief = app.test_client()
    thief.set_cookie("session", stolen)
    assert thief.get("/turniere").status_code == 302
    assert phone.get("/turniere").status_code == 302  # the other device is logged out too
    with app.app_context():
        assert db.session.query(Organiser).one().session_token


# --- 5. clean input --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "target",
    [
        "/%09/evil.example/phish",
        "/%0a/evil.example",
        "/%0d/evil.example",
        "//evil.example",
        "/\\evil",
    ],
)
def test_login_never_redirects_to_another_host(app, client, target):
    organiser(app)
    response = client.post(
        f"/veranstalter/anmelden?next={target}",
        data={"email": "orga@example.org", "password": PASSWORD},
    )
    assert response.status_code == 302
    location = response.headers["Location"]
    assert location.startswith("/") and not location.startswith(("//", "/\\")), location
    assert "evil" not in location.split("/")[1] if location.count("/") > 1 else True


HOSTILE_PATHS = [
    "/%5Cevil.example/",
    "/%5C%5Cevil.example/",
    "//evil.example/",
    "/%2F%2Fevil.example/",
    "/%2F/evil.example/",
    "/%09/evil.example/",
    "/%0A/evil.example/",
    "/%0D%0A/evil.example/",
    "/\\evil.example/",
]


def where_a_browser_goes(href: str) -> str:
    """The host a browser opens for `href` on http://localhost/: it drops tabs and
    newlines and reads a backslash as a slash (WHATWG URL)."""
    cleaned = re.sub(r"[\t\n\r]", "", html.unescape(href)).replace("\\", "/")
    return urlsplit(urljoin("http://localhost/page", cleaned)).netloc


@pytest.mark.parametrize("path", HOSTILE_PATHS)
def test_no_link_built_from_the_address_leaves_the_site(client, path):
    page = client.get(path + "?x=1")
    assert page.status_code in (200, 404)  # the test client reads "//host/" as a host
    links = re.findall(r'href="([^"]*)"', page.get_data(as_text=True))
    assert any("lang=" in link for link in links)
    assert {where_a_browser_goes(link) for link in links} == {"localhost"}, links
    # A page that answered a form links back to the referrer, only when it is this site's.
    answered = client.post("/neu", data={}, headers={"Referer": "http://localhost" + path})
    links = re.findall(r'href="([^"]*)"', answered.get_data(as_text=True))
    assert {where_a_browser_goes(link) for link in links} == {"localhost"}, links


@pytest.mark.parametrize(
    "referrer", ["http://evil.example/", "http://localhost" + "//evil.example/"]
)
def test_a_tournament_error_goes_back_only_to_a_page_of_this_site(app, client, referrer):
    auth = organiser(app)
    log_in(client)
    tid = created(client, auth, [f"P{i}" for i in range(6)], rounds=1)["id"]
    draw(client, auth, tid)
    again = client.post(f"/turniere/{tid}/auslosen", headers={"Referer": referrer})
    assert again.status_code == 302
    assert where_a_browser_goes(again.headers["Location"]) == "localhost", again.headers


@pytest.mark.parametrize(
    "name", ["Ber\u202eta", "An\u200bton", "Char\x07lotte", "Di\u2066eter", "E\u2028va"]
)
def test_names_with_control_bidi_or_invisible_characters_are_refused(client, name):
    players = (
        ["Anton", "Berta", name]
        if "Anton" not in name.replace("\u200b", "")
        else ["Xaver", "Berta", name]
    )
    response = client.post(
        f"{API}/sessions",
        json={"game": "haferltarock", "system": "parlett-units", "players": players},
    )
    assert response.status_code == 422
    assert "invisible" in str(response.get_json()["error"]["fields"])
    with client.application.app_context():
        assert db.session.query(TableSession).count() == 0


def test_names_are_nfc_and_single_spaced(client):
    decomposed = "Jo\u0308rg  Mu\u0308ller "
    response = client.post(
        f"{API}/sessions",
        json={
            "game": "haferltarock",
            "system": "parlett-units",
            "players": ["Anton", "Berta", decomposed],
            "name": "  Stamm\u0301tisch  ",
        },
    )
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["players"][2] == "Jörg Müller"


def test_the_web_form_refuses_a_bidi_override_in_a_name(client):
    response = new_table(client, players=["Anton", "Berta\u202e", "Charlotte"])
    assert response.status_code == 422
    assert "unsichtbare Zeichen" in response.get_data(as_text=True)


def test_tournament_names_fit_every_table_name(app, client):
    auth = organiser(app)
    too_long = create(client, auth, ["A", "B", "C"], name="T" * 51)
    assert too_long.status_code == 422
    tid = create(client, auth, ["A", "B", "C"], name="T" * 50).get_json()["id"]
    assert client.post(f"{API}/tournaments/{tid}/rounds", json={}, headers=auth).status_code == 201
    # One stored before the limit (120 characters) still draws.
    with app.app_context():
        db.session.get(Tournament, tid).name = "L" * 120
        db.session.commit()
    tid2 = create(client, auth, ["A", "B", "C"], name="kurz").get_json()["id"]
    with app.app_context():
        db.session.get(Tournament, tid2).name = "L" * 120
        db.session.commit()
    assert client.post(f"{API}/tournaments/{tid2}/rounds", json={}, headers=auth).status_code == 201


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("all_tricks", 0),
        ("all_tricks", "yes"),
        ("doublings", ""),
        ("doublings", []),
        ("doublings", 1.0),
        ("points", True),
        ("no_tricks", 1),
    ],
)
def test_wrong_types_are_refused_even_when_falsy(client, field, value):
    key = new_session(client)
    response = client.post(f"{API}/sessions/{key}/hands", json={**HAND, field: value})
    assert response.status_code == 422, (field, value)
    assert field in response.get_json()["error"]["fields"]
    assert client.get(f"{API}/sessions/{key}").get_json()["hand_count"] == 0


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_malformed_json(client, constant):
    key = new_session(client)
    body = '{"declarer": "Anton", "contract": "frage", "points": ' + constant + "}"
    response = client.post(
        f"{API}/sessions/{key}/hands", data=body, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "malformed_json"


def test_an_oversized_chunked_body_is_413(client):
    key = new_session(client)

    def chunks():
        yield b'{"declarer": "Anton", "contract": "frage", "points": 70, "x": "'
        for _ in range(3 * 1024):
            yield b"a" * 1024
        yield b'"}'

    response = client.post(
        f"{API}/sessions/{key}/hands",
        input_stream=chunks_stream(chunks()),
        headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
        environ_base={"wsgi.input_terminated": True},  # as gunicorn says of chunked input
    )
    assert response.status_code == 413
    assert client.get(f"{API}/sessions/{key}").get_json()["hand_count"] == 0


TABLE_WRITES = [
    ("POST", "/api/v1/sessions/{key}/hands"),
    ("PUT", "/api/v1/sessions/{key}/hands/1"),
    ("DELETE", "/api/v1/sessions/{key}/hands/1?version=1"),
    ("POST", "/api/v1/sessions/{key}/close"),
    ("POST", "/t/{key}/spiel"),
    ("POST", "/t/{key}/vorschau"),
    ("POST", "/t/{key}/spiele/1"),
    ("POST", "/t/{key}/spiele/1/streichen"),
    ("POST", "/t/{key}/schliessen"),
    ("POST", "/t/{key}/spieler"),
    ("POST", "/t/{key}/oeffnen"),
]
"""Every request that changes a table, through the API and through its pages."""


@pytest.mark.parametrize(("method", "path"), TABLE_WRITES)
@pytest.mark.parametrize(
    ("language", "said"), [("de", "Das ist zu groß."), ("en", "That is too large.")]
)
def test_an_oversized_body_to_any_table_write_is_413_in_the_readers_words(
    client, method, path, language, said
):
    """A declared body over the limit (2 MB) is refused before anything is read or
    locked, in the reader's language (not werkzeug's English), and the table is as it was."""
    key = new_session(client)
    assert client.post(f"{API}/sessions/{key}/hands", json=HAND).status_code == 201
    before = client.get(f"{API}/sessions/{key}").get_json()
    api = path.startswith("/api/")
    response = client.open(
        path.format(key=key),
        method=method,
        data=b"a=" + b"x" * (2 * 1024 * 1024),
        headers={
            "Accept-Language": language,
            "Content-Type": "application/json" if api else "application/x-www-form-urlencoded",
        },
    )
    assert response.status_code == 413
    if api:
        assert response.get_json()["error"] == {"code": "too_large", "message": said}
    else:
        assert said in response.get_data(as_text=True)
    assert client.get(f"{API}/sessions/{key}").get_json() == before


def chunks_stream(parts):
    import io

    return io.BytesIO(b"".join(parts))


def test_an_idempotency_key_reused_for_another_hand_is_422(client):
    key = new_session(client)
    path = f"{API}/sessions/{key}/hands"
    first = client.post(path, json=HAND, headers={"Idempotency-Key": "k1"})
    again = client.post(path, json=HAND, headers={"Idempotency-Key": "k1"})
    assert first.status_code == again.status_code == 201
    assert first.get_json() == again.get_json()
    other = client.post(path, json={**HAND, "points": 80}, headers={"Idempotency-Key": "k1"})
    assert other.status_code == 422
    assert "Idempotency-Key" in other.get_json()["error"]["fields"]
    assert client.get(f"{API}/sessions/{key}").get_json()["hand_count"] == 1


def test_strohmandeln_takes_every_trick_as_the_valat(client):
    response = client.post(
        f"{API}/sessions",
        json={"game": "strohmandeln", "system": "furr", "players": ["Anton", "Berta"]},
    )
    key = response.get_json()["key"]
    by_flag = client.post(
        f"{API}/sessions/{key}/hands",
        json={"declarer": "Anton", "contract": "game", "points": 70, "all_tricks": True},
    )
    assert by_flag.status_code == 201, by_flag.get_json()
    by_bonus = client.post(
        f"{API}/sessions/{key}/hands",
        json={
            "declarer": "Berta",
            "contract": "game",
            "points": 70,
            "bonuses": [{"id": "valat", "side": "declarer"}],
        },
    )
    assert by_flag.get_json()["net"]["Anton"] == by_bonus.get_json()["net"]["Berta"] > 0
    both = client.post(
        f"{API}/sessions/{key}/hands",
        json={
            "declarer": "Anton",
            "contract": "game",
            "points": 70,
            "all_tricks": True,
            "bonuses": [{"id": "valat", "side": "declarer"}],
        },
    )
    assert both.status_code == 201
    assert both.get_json()["net"] == by_flag.get_json()["net"]


def test_new_tables_imports_and_pdfs_are_limited_per_address(limited_app):
    client = limited_app.test_client()
    body = {"game": "haferltarock", "system": "parlett-units", "players": PLAYERS}
    statuses = [client.post(f"{API}/sessions", json=body).status_code for _ in range(21)]
    assert statuses[:20] == [201] * 20 and statuses[20] == 429
    refused = client.post(f"{API}/sessions", json=body)
    assert refused.get_json()["error"]["code"] == "too_many_requests"
    assert 0 < int(refused.headers["Retry-After"]) <= 60  # 20 a minute were used up
    page = client.post("/neu", data={})
    assert page.status_code == 429  # the page shares the count
    assert 0 < int(page.headers["Retry-After"]) <= 60
    other = limited_app.test_client()
    key = other.post(
        f"{API}/sessions", json=body, environ_base={"REMOTE_ADDR": "10.1.1.1"}
    ).get_json()["key"]
    with limited_app.app_context():
        assert db.session.query(TableSession).count() == 21
    imports = [
        other.post(
            f"{API}/sessions/import", json={}, environ_base={"REMOTE_ADDR": "10.2.2.2"}
        ).status_code
        for _ in range(11)
    ]
    assert imports[:10] == [422] * 10 and imports[10] == 429
    again = other.post(f"{API}/sessions/import", json={}, environ_base={"REMOTE_ADDR": "10.2.2.2"})
    assert again.status_code == 429 and 0 < int(again.headers["Retry-After"]) <= 60
    pdf = f"{API}/sessions/{key}/export.pdf"
    assert other.get(pdf, environ_base={"REMOTE_ADDR": "10.3.3.3"}).status_code == 200
    answers = [
        other.get(pdf, environ_base={"REMOTE_ADDR": "10.3.3.3"}).status_code for _ in range(20)
    ]
    assert answers[:19] == [200] * 19 and answers[19] == 429


def test_a_tournament_player_called_pot_is_refused(app, client):
    auth = organiser(app)
    refused = create(client, auth, ["A", "B", "Pot"])
    assert refused.status_code == 422
    assert "pot" in str(refused.get_json()["error"]["fields"]["players"])
    tid = create(client, auth, ["A", "B", "C"]).get_json()["id"]
    late = client.post(f"{API}/tournaments/{tid}/players", json={"name": "POT"}, headers=auth)
    assert late.status_code == 422
    assert client.post(f"{API}/tournaments/{tid}/rounds", json={}, headers=auth).status_code == 201


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("de", "Dieses Formular konnte nicht geprüft werden"),
        ("en", "This form could not be checked"),
    ],
)
def test_a_refused_form_says_so_in_the_readers_language(tmp_path, language, text):
    """Flask-WTF's reasons are English ("The referrer header is missing."): the page says
    ours, in the reader's language, and nothing is created."""
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    try:
        client = app.test_client()
        headers = {"Accept-Language": language}
        page = client.get("/neu", base_url="https://localhost", headers=headers)
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page.text)
        assert token, "the form carries its token"
        form = {"csrf_token": token.group(1), "game": "tarok", "system": "points-kasse"}
        form |= {"player_0": "A", "player_1": "B", "player_2": "C"}
        for sent in (form, {k: v for k, v in form.items() if k != "csrf_token"}):
            # Over https Flask-WTF also wants a referrer of this site: none is sent here.
            refused = client.post("/neu", data=sent, base_url="https://localhost", headers=headers)
            assert refused.status_code == 400
            assert text in refused.text and "referrer" not in refused.text.lower()
        with app.app_context():
            assert db.session.query(TableSession).count() == 0
    finally:
        dispose(app)


LOOK_ALIKES = [
    pytest.param("\uff21nton", id="fullwidth"),
    pytest.param("\u0391nton", id="greek-alpha"),
    pytest.param("\u0410nton", id="cyrillic-a"),
    pytest.param("anton", id="case"),
]


@pytest.mark.parametrize("twin", LOOK_ALIKES)
def test_names_that_look_alike_are_one_name_everywhere(app, client, twin):
    """On a sheet 'Anton' and 'Ａnton' (or Greek 'Αnton') cannot be told apart: wherever
    names must differ, the pair is refused with a message naming both, and nothing is
    stored."""

    def refused(response, field: str = "players") -> None:
        assert response.status_code == 422, response.get_json()
        said = str(response.get_json()["error"]["fields"][field])
        assert "Anton" in said and twin in said and "look alike" in said, said

    table = {"game": "haferltarock", "system": "parlett-units"}
    refused(client.post(f"{API}/sessions", json={**table, "players": ["Anton", "Berta", twin]}))
    group = {**table, "name": "Freitag", "members": ["Anton", "Berta", "Charlotte"]}
    refused(
        client.post(f"{API}/groups", json={**group, "members": ["Anton", twin, "Berta"]}), "members"
    )
    key = client.post(f"{API}/groups", json=group).get_json()["key"]
    rename = client.put(f"{API}/groups/{key}/members/Berta", json={"name": twin})
    refused(rename, "name")
    auth = organiser(app)
    refused(create(client, auth, ["Anton", "Berta", "Charlotte", twin]))
    tid = create(client, auth, ["Anton", "Berta", "Charlotte"]).get_json()["id"]
    late = client.post(f"{API}/tournaments/{tid}/players", json={"name": twin}, headers=auth)
    refused(late, "name")
    with app.app_context():
        assert db.session.query(TableSession).count() == 0
        assert [p.name for p in db.session.get(Tournament, tid).players] == [
            "Anton",
            "Berta",
            "Charlotte",
        ]
    assert client.get(f"{API}/groups/{key}").get_json()["members"] == [
        "Anton",
        "Berta",
        "Charlotte",
    ]


def test_distinct_names_stay_distinct():
    from scorer.domain.names import look_alike, same_name

    assert not same_name("Müller", "Muller") and not same_name("Anna", "Anne")
    assert look_alike(["Jörg", "Jorg", "Sepp", "Seppi", "Ole", "Olga"]) is None
    assert look_alike(["Ina", "lna"]) == ("Ina", "lna")  # capital I, small L
    assert look_alike(["Pot", "P\u03bft"]) == ("Pot", "P\u03bft")  # Greek omicron


def test_a_sign_up_burst_is_told_when_to_come_back(limited_app):
    client = limited_app.test_client()
    answers = [client.post("/veranstalter/registrieren", data={}) for _ in range(11)]
    assert 429 not in [a.status_code for a in answers[:10]] and answers[10].status_code == 429
    assert 0 < int(answers[10].headers["Retry-After"]) <= 60


def test_every_kind_of_pdf_counts_against_one_limit_per_address(limited_app):
    """Score sheets, season reports and tournament papers share the printer: 20 a minute
    from one address, whichever kind, then 429 with when to come back."""
    client = limited_app.test_client()
    body = {"name": "Freitag", "game": "haferltarock", "system": "parlett-units"}
    group = client.post(f"{API}/groups", json={**body, "members": PLAYERS}).get_json()
    table = client.post(f"{API}/sessions", json={**body, "players": PLAYERS}).get_json()
    season = f"/s/{group['key']}/saison.pdf"
    sheet = f"{API}/sessions/{table['key']}/export.pdf"
    here = {"REMOTE_ADDR": "10.4.4.4"}
    answers = [client.get(season if n % 2 else sheet, environ_base=here) for n in range(20)]
    assert {a.status_code for a in answers} <= {200, 202}
    for paper in (season, sheet):
        refused = client.get(paper, environ_base=here)
        assert refused.status_code == 429 and 0 < int(refused.headers["Retry-After"]) <= 60
    assert client.get(season, environ_base={"REMOTE_ADDR": "10.5.5.5"}).status_code in (200, 202)
    tid = create(client, organiser(limited_app), PLAYERS).get_json()["id"]
    log_in(client)
    papers = [client.get(f"/turniere/{tid}/tabelle.pdf", environ_base=here) for _ in range(2)]
    assert [p.status_code for p in papers] == [429, 429]
