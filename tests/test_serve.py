"""`make run`'s start-up (`scorer.serve`) and the first sign-up's setup code."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from types import SimpleNamespace

import pytest

from scorer import create_app, serve, worker
from scorer.auth import routes as auth_routes
from scorer.store.database import db
from tests.conftest import dispose, make_app
from tests.support.servers import LOOPBACK, call, migrate_fresh, start_server


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


class Probe:
    """A UDP socket whose kernel picks `picked` as the source address (or has no route)."""

    def __init__(self, picked: str | None):
        self.picked = picked
        self.asked: tuple[str, int] | None = None

    def socket(self, family, kind):
        assert (family, kind) == (socket.AF_INET, socket.SOCK_DGRAM)  # connecting sends nothing
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        pass

    def connect(self, address) -> None:
        self.asked = address
        if self.picked is None:
            raise OSError(101, "Network is unreachable")

    def getsockname(self):
        return (self.picked, 40000)


@pytest.mark.parametrize(
    ("picked", "shown"),
    [
        ("192.168.1.23", "192.168.1.23"),
        ("10.0.0.7", "10.0.0.7"),
        ("127.0.0.1", None),
        ("127.0.1.1", None),  # Debian names its host so in /etc/hosts
        ("0.0.0.0", None),
        (None, None),  # no network at all
    ],
)
def test_the_lan_address_is_the_kernels_pick_unless_that_reaches_only_this_machine(
    monkeypatch, picked, shown
):
    """What the tablets are told to open: the source address the kernel picks for a route
    outwards; none where that is loopback, unbound or there is no route."""
    probe = Probe(picked)
    sockets = SimpleNamespace(
        socket=probe.socket, AF_INET=socket.AF_INET, SOCK_DGRAM=socket.SOCK_DGRAM
    )
    monkeypatch.setattr(serve, "socket", sockets)
    assert serve.lan_address() == shown
    assert probe.asked is not None and not probe.asked[0].startswith("127.")  # a route out


def test_every_server_thread_keeps_a_postgresql_connection_open():
    """A thread beyond the pool's size would open and close a connection per request."""
    url = "postgresql://nobody@127.0.0.1:1/none"  # never connected to
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "test"})
    with app.app_context():
        assert db.engine.pool.size() >= serve.THREADS + worker.WRITE_THREADS


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


def test_the_request_line_sorts_writes_from_reads():
    for head in (b"POST /api", b"PUT /api/v1", b"DELETE /", b"PATCH /x"):
        assert worker.is_write(head)
    for head in (b"GET /t/x", b"HEAD /", b"OPTIONS *", b"", b"POS", b"post /"):
        assert not worker.is_write(head)


def test_slow_clients_hold_no_thread_and_are_cut_off(tmp_path):
    """Sixteen clients (twice the read threads) send their requests a line or a byte a
    second, the way a phone on bad Wi-Fi or an attacker does: the server, started as `make
    run` starts it, keeps answering everyone else and records a hand meanwhile, and cuts
    the slow ones off once their request has taken REQUEST_DEADLINE seconds."""
    url = f"sqlite:///{tmp_path / 'slow.sqlite3'}"
    migrate_fresh(url)
    server = start_server(url, tmp_path / "server.log")
    slow: list[socket.socket] = []
    try:
        status, table = call(
            server.port,
            "POST",
            "/api/v1/sessions",
            {"game": "tarok", "system": "points-kasse", "players": ["A", "B", "C"]},
        )
        assert status == 201, table
        for n in range(2 * serve.THREADS):
            client = socket.create_connection((LOOPBACK, server.port))
            if n % 2:  # a body that comes a byte at a time
                client.sendall(
                    f"POST /api/v1/sessions/{table['key']}/hands HTTP/1.1\r\nHost: x\r\n"
                    "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{".encode()
                )
            else:  # headers that come a line at a time
                client.sendall(b"GET /api/v1/games HTTP/1.1\r\nHost: x\r\n")
            slow.append(client)
        started, answered = time.monotonic(), []
        while time.monotonic() - started < 6:
            for client in slow:
                client.sendall(b"X-Slow: 1\r\n" if slow.index(client) % 2 == 0 else b" ")
            before = time.monotonic()
            status, _ = call(server.port, "GET", "/api/v1/games", timeout=5)
            answered.append((status, time.monotonic() - before))
            time.sleep(0.5)
        assert [status for status, _ in answered] == [200] * len(answered)
        hand = {"declarer": "A", "contract": "frage", "trump": "gras", "points": 70}
        status, body = call(
            server.port, "POST", f"/api/v1/sessions/{table['key']}/hands", hand, timeout=5
        )
        assert status == 201, body
        waits = sorted(seconds for _, seconds in answered)
        print(f"light GET while 16 clients drip: {len(waits)} answers, slowest {waits[-1]:.3f} s")
        # Past the deadline every slow one is cut off (the server closes, answers nothing).
        time.sleep(max(0.0, worker.REQUEST_DEADLINE + 2 - (time.monotonic() - started)))
        for client in slow:
            client.settimeout(2)
            with contextlib.suppress(ConnectionResetError):
                assert client.recv(1024) == b""
    finally:
        for client in slow:
            client.close()
        server.stop()


def test_a_request_gathered_in_pieces_is_answered_whole(tmp_path):
    """Gathering on the poller hands the parser every byte: a head and a body sent in
    pieces (and the next request on the same connection) are answered as if sent whole."""
    url = f"sqlite:///{tmp_path / 'pieces.sqlite3'}"
    migrate_fresh(url)
    server = start_server(url, tmp_path / "server.log")
    try:
        body = b'{"game": "tarok", "system": "points-kasse", "players": ["A", "B", "C"]}'
        request = (
            b"POST /api/v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
        )
        with socket.create_connection((LOOPBACK, server.port), timeout=10) as client:
            for piece in (request[:7], request[7:40], request[40:-5], request[-5:]):
                client.sendall(piece)
                time.sleep(0.2)
            client.sendall(b"GET /api/v1/games HTTP/1.1\r\nHost: x\r\n\r\n")
            answers = b""
            while answers.count(b"HTTP/1.1 ") < 2 or not answers.rstrip().endswith(b"]"):
                data = client.recv(65536)
                assert data, answers[:300]
                answers += data
        assert answers.startswith(b"HTTP/1.1 201") and b"HTTP/1.1 200" in answers
        # A client that waits for "100 Continue" before its body (curl with a large file)
        # gets it: the head alone goes on to a thread.
        with socket.create_connection((LOOPBACK, server.port), timeout=5) as client:
            client.sendall(
                request.replace(b"\r\n\r\n", b"\r\nExpect: 100-continue\r\n\r\n", 1)[: -len(body)]
            )
            assert client.recv(1024).startswith(b"HTTP/1.1 100")
            client.sendall(body)
            assert b"HTTP/1.1 201" in client.recv(65536)
    finally:
        server.stop()


def test_a_pdf_burst_leaves_the_tables_answered(tmp_path):
    """Ten score sheets of a long evening asked for at once, on the server as `make run`
    starts it: every other table is answered meanwhile (each light request within its 2 s
    timeout), and no sheet's request holds its thread for the whole print: the sheets are
    answered 'being printed' (202) or printed (200), and the reload finds the print."""
    url = f"sqlite:///{tmp_path / 'burst.sqlite3'}"
    migrate_fresh(url)
    server = start_server(url, tmp_path / "server.log")
    try:
        body = {"game": "tarok", "system": "points-kasse", "players": ["A", "B", "C"]}
        _, long_evening = call(server.port, "POST", "/api/v1/sessions", body)
        _, other = call(server.port, "POST", "/api/v1/sessions", body)
        for n in range(150):
            hand = {"declarer": "ABC"[n % 3], "contract": "frage", "trump": "gras"}
            status, _ = call(
                server.port,
                "POST",
                f"/api/v1/sessions/{long_evening['key']}/hands",
                {**hand, "points": 40 + n % 60},
            )
            assert status == 201
        sheet = f"/api/v1/sessions/{long_evening['key']}/export.pdf"
        answers: list[int] = []
        askers = [
            threading.Thread(target=lambda: answers.append(call(server.port, "GET", sheet)[0]))
            for _ in range(10)
        ]
        for asker in askers:
            asker.start()
        light = []
        while any(asker.is_alive() for asker in askers):
            light.append(
                call(server.port, "GET", f"/api/v1/sessions/{other['key']}/settlement", timeout=2)
            )
        for asker in askers:
            asker.join()
        assert light and {status for status, _ in light} == {200}
        assert sorted(set(answers)) in ([200], [202], [200, 202]), answers
        deadline = time.monotonic() + 60
        while (status := call(server.port, "GET", sheet)[0]) == 202:
            assert time.monotonic() < deadline
            time.sleep(0.5)
        assert status == 200
    finally:
        server.stop()
