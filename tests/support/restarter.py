"""The club laptop's restarter, `docs/haferl.service`, done as systemd does it, for
tests/support/faults.py (a day of faults: `bench/faults.py`, `tests/test_faults.py`).

`Restarter` reads the unit: its `ExecStart=` (`/usr/bin/make run`) becomes the recipe of
`run` in the Makefile (`HOST=… PORT=… .venv/bin/python -m scorer.serve`, `make_recipe`),
run with `/bin/sh -c` as make runs a recipe, in a session of its own (what the unit's
control group is to `KillMode=control-group`: `kill` is a SIGKILL to every process of it),
with the unit's `Environment=`; after any exit (`Restart=always`) it is started again
`RestartSec=` later. What differs from a club laptop: the working directory is this
checkout instead of `WorkingDirectory=`, HOST, PORT and the database come from the
environment as in the tests (`overrides`: 127.0.0.1, a free port, a temporary database),
and make's prerequisites of `run` (installing into `.venv`, compiling the catalogues:
nothing to do on a checkout that ran once) are not run. Nothing talks to any address but
127.0.0.1."""

from __future__ import annotations

import os
import re
import shlex
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from http.client import HTTPException
from pathlib import Path

from tests.support.servers import LOOPBACK, PROJECT_ROOT, call, free_port

UNIT = PROJECT_ROOT / "docs" / "haferl.service"
MAKEFILE = PROJECT_ROOT / "Makefile"
PROBE_S = 0.05
"""How often the restarted server is asked whether it answers again."""


@dataclass(frozen=True)
class Unit:
    """What a systemd unit's [Service] section says (the settings used here)."""

    exec_start: list[str]
    working_directory: str
    environment: dict[str, str]
    restart: str
    restart_sec: float
    kill_mode: str


def systemd_seconds(value: str) -> float:
    """A systemd time span as RestartSec= takes it: `2`, `2s`, `500ms`, `1min`."""
    match = re.fullmatch(r"([\d.]+)\s*(ms|s|sec|min)?", value.strip())
    if match is None:
        raise ValueError(f"not a time span: {value!r}")
    number, unit = float(match.group(1)), match.group(2) or "s"
    return number * {"ms": 0.001, "s": 1.0, "sec": 1.0, "min": 60.0}[unit]


def read_unit(path: Path = UNIT) -> Unit:
    service: dict[str, list[str]] = {}
    section = None
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
        elif section == "Service":
            name, _, value = line.partition("=")
            service.setdefault(name.strip(), []).append(value.strip())
    environment: dict[str, str] = {}
    for value in service.get("Environment", []):
        for word in shlex.split(value):
            name, _, setting = word.partition("=")
            environment[name] = setting

    def last(name: str, default: str) -> str:
        return service.get(name, [default])[-1]

    return Unit(
        exec_start=shlex.split(last("ExecStart", "")),
        working_directory=last("WorkingDirectory", ""),
        environment=environment,
        restart=last("Restart", "no"),
        restart_sec=systemd_seconds(last("RestartSec", "100ms")),  # systemd's default
        kill_mode=last("KillMode", "control-group"),
    )


ASSIGNMENT = re.compile(r"^([A-Za-z_]\w*)\s*(\?=|:=|=)\s*(.*)$")
REFERENCE = re.compile(r"\$\((\w+)\)")


def make_recipe(target: str, environ: Mapping[str, str], makefile: Path = MAKEFILE) -> str:
    """The shell line `make <target>` runs for `target` itself, its variables expanded as
    make would (`?=` gives way to the environment, `:=` and `=` do not). Only what this
    Makefile uses: plain assignments and one recipe line."""
    text = makefile.read_text(encoding="utf-8").replace("\\\n", " ")
    variables: dict[str, str] = {}
    recipe: list[str] = []
    inside = False
    for line in text.splitlines():
        if inside and line.startswith("\t"):
            recipe.append(line.strip())
            continue
        inside = False
        assignment = ASSIGNMENT.match(line)
        if assignment:
            name, operator, value = assignment.groups()
            variables[name] = environ[name] if operator == "?=" and name in environ else value
        elif re.match(rf"^{re.escape(target)}\s*:(?!=)", line):
            inside = True
    if len(recipe) != 1:
        raise ValueError(f"`make {target}`: {len(recipe)} recipe lines, one expected")

    def expand(value: str, depth: int = 0) -> str:
        if depth > 10:
            raise ValueError(f"`make {target}`: variables nested too deep")
        return REFERENCE.sub(
            lambda m: expand(variables.get(m.group(1), environ.get(m.group(1), "")), depth + 1),
            value,
        ).replace("$$", "$")

    return expand(recipe[0])


def unit_command(unit: Unit, environ: Mapping[str, str]) -> list[str]:
    """The unit's ExecStart=; `make <target>` as the recipe make would run for it."""
    argv = unit.exec_start
    if Path(argv[0]).name == "make" and len(argv) == 2:
        return ["/bin/sh", "-c", make_recipe(argv[1], environ)]
    return argv


def overrides(url: str, directory: Path) -> dict[str, str]:
    """What differs from a club laptop's environment, as in the tests' servers
    (tests/support/servers.py): loopback, a free port, the database, no rate limits (every
    device here shares one address), the setup code given, the PDF cache and the backups in
    `directory`."""
    return {
        "HOST": LOOPBACK,
        "PORT": str(free_port()),
        "SCORER_DATABASE_URL": url,
        "SCORER_SECRET_KEY": "faults",
        "SCORER_RATE_LIMITS": "false",
        "SCORER_SETUP_CODE": "faults-setup-code",
        "SCORER_PDF_CACHE": str(directory / "pdf-cache"),
        "SCORER_BACKUP_DIR": str(directory / "backups"),
    }


@dataclass
class Outage:
    """One kill and what followed it, in time.monotonic() seconds."""

    killed_at: float
    killed_wall: float
    """The same moment in time.time() (hands' created_at are compared with it)."""
    planned: bool = True
    """False: the server ended by itself (a crash, or a start that failed)."""
    exited_at: float | None = None
    """When the restarter saw the process end."""
    started_at: float | None = None
    """When it started the command again (RestartSec after the exit)."""
    listening_at: float | None = None
    """When the new server's port took a connection (gunicorn's arbiter listens)."""
    serving_at: float | None = None
    """The first answer after the kill."""

    def covers(self, began: float, ended: float) -> bool:
        """Whether a request from `began` to `ended` failed for this outage."""
        return ended >= self.killed_at and began <= (self.serving_at or float("inf"))


def listening(port: int, deadline: float) -> float | None:
    """Connect every PROBE_S until the port takes a connection; when it did."""
    while time.monotonic() < deadline:
        try:
            socket.create_connection((LOOPBACK, port), timeout=1).close()
            return time.monotonic()
        except OSError:
            time.sleep(PROBE_S)
    return None


def serving(port: int, deadline: float) -> float | None:
    """Ask `GET /api/v1/games` every PROBE_S until it answers 200; when it did (None: not
    before `deadline`)."""
    while time.monotonic() < deadline:
        try:
            if call(port, "GET", "/api/v1/games", timeout=10)[0] == 200:
                return time.monotonic()
        except (OSError, HTTPException):
            pass
        time.sleep(PROBE_S)
    return None


class Restarter:
    """What systemd does with the unit: the command in a process group of its own, started
    again RestartSec after any exit (Restart=always); `kill` is a SIGKILL of the whole
    group, `stop` is `systemctl stop` (SIGTERM to the group, SIGKILL after 15 s)."""

    def __init__(self, unit: Unit, overrides: Mapping[str, str], log: Path):
        if unit.restart != "always":
            raise ValueError(f"the unit restarts {unit.restart!r}, not always")
        self.unit, self.log = unit, log
        self.environment = {**os.environ, **unit.environment, **overrides}
        self.argv = unit_command(unit, self.environment)
        self.port = int(self.environment["PORT"])
        self.lock = threading.Lock()
        self.process: subprocess.Popen | None = None
        self.stopping = False
        self.outages: list[Outage] = []
        self.starts = 0
        self.keeper = threading.Thread(target=self._keep, daemon=True)

    def _spawn(self) -> None:
        with self.log.open("ab") as handle:
            self.process = subprocess.Popen(
                self.argv,
                cwd=PROJECT_ROOT,
                env=self.environment,
                stdout=handle,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.starts += 1

    def start(self, timeout: float = 90) -> None:
        with self.lock:
            self._spawn()
        self.keeper.start()
        if serving(self.port, time.monotonic() + timeout) is None:
            self.stop()
            raise RuntimeError(f"the server did not answer: {self.log.read_text()[-3000:]}")

    def _keep(self) -> None:
        while True:
            process = self.process
            assert process is not None
            process.wait()
            now = time.monotonic()
            with self.lock:
                if self.stopping:
                    return
                last = self.outages[-1] if self.outages else None
                if last is None or last.exited_at is not None:
                    last = Outage(now, time.time(), planned=False)
                    self.outages.append(last)
                last.exited_at = now
            time.sleep(self.unit.restart_sec)
            with self.lock:
                if self.stopping:
                    return
                last.started_at = time.monotonic()
                self._spawn()
            if not last.planned:  # nobody else waits for it to answer again
                self._follow(last, time.monotonic() + 90)

    def _follow(self, outage: Outage, deadline: float) -> None:
        """When the server started again listens, and when it answers. The port is tried
        only once the command was started again: until the killed processes are gone their
        socket may still take a connection."""
        while outage.started_at is None and time.monotonic() < deadline:
            time.sleep(0.01)
        outage.listening_at = listening(self.port, deadline)
        outage.serving_at = serving(self.port, deadline)

    def kill(self, timeout: float = 90) -> Outage:
        """SIGKILL to every process of the server; returns when it answers again."""
        with self.lock:
            assert self.process is not None
            outage = Outage(time.monotonic(), time.time())
            self.outages.append(outage)
            os.killpg(self.process.pid, signal.SIGKILL)
        self._follow(outage, time.monotonic() + timeout)
        return outage

    def stop(self) -> None:
        with self.lock:
            self.stopping = True
            process = self.process
        if process is None or process.poll() is not None:
            return
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
