"""The server's settings are gunicorn's own file; the worker is built on what gunicorn
offers a worker of one's own (nothing of gthread's), refuses a gunicorn it was not written
against, and sorts a connection's bytes into whole requests."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import gunicorn
import gunicorn.http
import pytest

from scorer import serve, worker

ROOT = Path(__file__).resolve().parent.parent


def test_this_gunicorn_is_the_one_the_worker_knows():
    worker.require_known_gunicorn()


@pytest.mark.parametrize("version", ["26.0.0", "28.0.0", "100.1"])
def test_another_major_version_of_gunicorn_is_refused(monkeypatch, version):
    monkeypatch.setattr(gunicorn, "__version__", version)
    with pytest.raises(RuntimeError, match=f"this is gunicorn {version}.*pyproject.toml"):
        worker.require_known_gunicorn()


def test_a_gunicorn_without_a_part_the_worker_uses_is_refused(monkeypatch):
    monkeypatch.delattr(gunicorn.http, "get_parser")
    with pytest.raises(RuntimeError, match=r"without gunicorn\.http\.get_parser"):
        worker.require_known_gunicorn()


def test_the_worker_uses_only_what_gunicorn_offers_a_worker_of_ones_own():
    """The base class `worker_class` names, the parser `gunicorn.http` exports, its WSGI
    call and its errors: no bundled worker's parts (gthread's were private)."""
    tree = ast.parse((ROOT / "scorer" / "worker.py").read_text(encoding="utf-8"))
    used = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("gunicorn"):
            used |= {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            used |= {a.name for a in node.names if a.name.startswith("gunicorn")}
    assert used == {
        "gunicorn",
        "gunicorn.http",
        "gunicorn.http.wsgi",
        "gunicorn.http.errors.NoMoreData",
        "gunicorn.workers.base.Worker",
    }
    assert "get_parser" in gunicorn.http.__all__


HEAD = b"POST /api/v1/sessions/k/hands HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\n"


def test_a_request_is_whole_once_its_body_is_in_and_the_next_one_is_kept_apart():
    assert worker.arrived(HEAD[:20]) is None
    assert worker.arrived(HEAD + b"{}") is None
    whole = worker.arrived(HEAD + b"{}{}GET / HTTP/1.1\r\n")
    assert whole == worker.Arrival(HEAD + b"{}{}", b"GET / HTTP/1.1\r\n", whole=True)
    get = b"GET /api/v1/games HTTP/1.1\r\nHost: x\r\n\r\n"
    assert worker.arrived(get) == worker.Arrival(get, b"", whole=True)


@pytest.mark.parametrize(
    "request_bytes",
    [
        HEAD.replace(b"Content-Length: 4", b"Content-Length: 999999"),  # an import
        HEAD.replace(b"Content-Length: 4", b"Content-Length: -1"),  # for the parser to refuse
        HEAD.replace(b"\r\n\r\n", b"\r\nExpect: 100-continue\r\n\r\n"),
        b"GET / HTTP/1.1\r\n" + b"X: y\r\n" * 20_000,  # a head too long to gather
        HEAD.replace(b"Content-Length: 4", b"Transfer-Encoding: chunked") + b"2\r\n{}\r\n0\r\n\r\n",
    ],
)
def test_what_cannot_be_gathered_whole_goes_on_to_a_thread_and_its_connection_closes(
    request_bytes,
):
    arrival = worker.arrived(request_bytes)
    assert arrival == worker.Arrival(request_bytes, b"", whole=False)


def test_a_chunked_body_is_gathered_until_its_last_chunk():
    chunked = HEAD.replace(b"Content-Length: 4", b"Transfer-Encoding: chunked")
    assert worker.arrived(chunked + b"2\r\n{}\r\n") is None


def with_the_settings(code: str, **env: str) -> str:
    """What `code` prints in a fresh process where gunicorn's own loader has read
    gunicorn.conf.py into `c` (gunicorn's settings)."""
    script = (
        "import sys; from gunicorn.app.wsgiapp import WSGIApplication;"
        "sys.argv = ['gunicorn', '--config', sys.argv[1], 'wsgi:app'];"
        f"c = WSGIApplication().cfg; {code}"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(serve.CONFIG)],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def settings(**env: str) -> dict[str, object]:
    """gunicorn's settings as its own loader reads gunicorn.conf.py, in a fresh process."""
    code = (
        "import json; print(json.dumps({k: str(getattr(c, k)) for k in"
        " ('bind', 'workers', 'threads', 'worker_class_str', 'timeout', 'keepalive',"
        " 'worker_connections', 'accesslog', 'control_socket_disable')}))"
    )
    return json.loads(with_the_settings(code, **env))


def test_make_runs_server_is_the_settings_file_with_host_port_and_workers():
    read = settings(HOST="127.0.0.1", PORT="8123", WORKERS="3")
    assert read == {
        "bind": "['127.0.0.1:8123']",
        "workers": "3",
        "threads": str(serve.THREADS),
        "worker_class_str": "scorer.worker.TabletsFirstWorker",
        "timeout": str(serve.TIMEOUT),
        "keepalive": str(serve.KEEP_ALIVE),
        "worker_connections": str(serve.CONNECTIONS),
        "accesslog": "-",
        "control_socket_disable": "True",
    }
    assert settings()["bind"] == "['0.0.0.0:5000']"  # every interface, as make run
    assert settings()["workers"] == "1"  # by hand, without scorer.serve: SQLite's one
    assert serve.gunicorn_argv()[-3:] == ["--config", str(serve.CONFIG), "wsgi:app"]


def test_sqlite_gets_one_process_and_postgresql_one_per_core_and_one():
    assert serve.workers_for(sqlite=True) == 1
    assert 2 <= serve.workers_for(sqlite=False) <= 8
    assert serve.workers_for(sqlite=True, workers=4) == 4


def test_a_worker_with_its_app_loaded_keeps_it_out_of_the_garbage_collector():
    """gunicorn.conf.py's `post_worker_init` (as gunicorn's loader reads it) freezes what
    the process made so far: a full collection under load then walks only the requests'
    objects (at 500 players on one core, standings p95 124 -> 62 ms on PostgreSQL)."""
    code = (
        "import gc; before = gc.get_freeze_count(); c.post_worker_init(None);"
        " print(before, gc.get_freeze_count())"
    )
    before, after = map(int, with_the_settings(code).split())
    assert after > before + 10_000  # every object the process holds by then


def test_make_run_makes_room_for_every_connection_a_process_holds(monkeypatch):
    """A shell's soft limit of 1,024 open files is raised (within the hard limit) before
    gunicorn starts: a process holds up to CONNECTIONS connections."""
    import resource

    limits = {"now": (1024, 65536)}
    monkeypatch.setattr(resource, "getrlimit", lambda kind: limits["now"])
    monkeypatch.setattr(resource, "setrlimit", lambda kind, value: limits.update(now=value))
    serve.room_for_connections()
    assert limits["now"] == (serve.CONNECTIONS + 256, 65536)
    limits["now"] = (1024, 2048)  # a hard limit below: as far as it allows
    serve.room_for_connections()
    assert limits["now"] == (2048, 2048)
