"""The server's settings are gunicorn's own file, and the worker that extends gthread's
private parts refuses a gunicorn it was not written against."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import gunicorn
import pytest
from gunicorn.workers.gthread import ThreadWorker

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
    monkeypatch.delattr(ThreadWorker, "enqueue_req")
    with pytest.raises(RuntimeError, match="without enqueue_req"):
        worker.require_known_gunicorn()


def settings(**env: str) -> dict[str, object]:
    """gunicorn's settings as its own loader reads gunicorn.conf.py, in a fresh process."""
    script = (
        "import json, sys; from gunicorn.app.wsgiapp import WSGIApplication;"
        "sys.argv = ['gunicorn', '--config', sys.argv[1], 'wsgi:app'];"
        "app = WSGIApplication(); c = app.cfg;"
        "print(json.dumps({k: str(getattr(c, k)) for k in"
        " ('bind', 'workers', 'threads', 'worker_class_str', 'timeout', 'keepalive',"
        " 'accesslog', 'control_socket_disable')}))"
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
    import json

    return json.loads(done.stdout)


def test_make_runs_server_is_the_settings_file_with_host_port_and_workers():
    read = settings(HOST="127.0.0.1", PORT="8123", WORKERS="3")
    assert read == {
        "bind": "['127.0.0.1:8123']",
        "workers": "3",
        "threads": str(serve.THREADS),
        "worker_class_str": "scorer.worker.TabletsFirstWorker",
        "timeout": str(serve.TIMEOUT),
        "keepalive": str(serve.KEEP_ALIVE),
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
