"""The gunicorn worker `make run` serves with: whole requests only handed to threads, and
the writes the tablets send answered by threads of their own.

- **A request reaches a thread only when it has arrived.** A threaded server that gives a
  connection to a thread as soon as its first bytes come lets a phone on bad Wi-Fi (or
  anyone on purpose) sending its headers a line a second hold that thread, and eight of
  them stop the server. Here the worker's poller gathers each request (its head, and a
  body of up to `GATHERED_BODY` bytes) without a thread, as a buffering proxy would; one
  that has not arrived within `REQUEST_DEADLINE` seconds of its first byte is cut off. A
  larger body (an import) goes to a thread once its head is in, and its connection closes
  after the answer: the import limit per address bounds those.
- **Reads never queue the writes.** Spectators' pages and live polls come by the hundred,
  a table's hand one at a time; in one thread pool a flood of reads queues every hand
  behind it. The request line's method picks the pool: POST, PUT, PATCH and DELETE go to
  `WRITE_THREADS` threads of their own, everything else to the `--threads` pool.
- **A kept-alive connection waits on the poller**, not in a thread, and is gathered and
  sorted again for each request it sends.

It is built only on what gunicorn offers a worker of one's own: the base class that the
`worker_class` setting names (`gunicorn.workers.base.Worker`: its settings, log, signals,
`notify` and `handle_error`), the request parser `gunicorn.http` exports (`get_parser`)
and `gunicorn.http.wsgi.create`, which turn a request into the WSGI call exactly as
gunicorn's own sync worker does. Nothing of gthread. `require_known_gunicorn` (called by
gunicorn.conf.py before anything is served) refuses another major version of gunicorn, or
one without those parts, with what to do.
"""

from __future__ import annotations

import contextlib
import errno
import os
import queue
import selectors
import socket
import time
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_for
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import gunicorn
from gunicorn import http
from gunicorn.http import wsgi
from gunicorn.http.errors import NoMoreData
from gunicorn.workers.base import Worker

KNOWN_GUNICORN = 27
"""The major version of gunicorn this worker was written against."""
PARTS: tuple[tuple[Any, str], ...] = (
    (Worker, "init_process"),
    (Worker, "notify"),
    (Worker, "handle_error"),
    (http, "get_parser"),
    (wsgi, "create"),
)
"""What the worker uses of gunicorn (besides the settings and the log)."""

WRITE_THREADS = 8
"""Threads per server process for the requests that change something."""
WRITES = (b"POST ", b"PUT ", b"PATCH ", b"DELETE ")
REQUEST_DEADLINE = 10.0
"""Seconds a request may take to arrive, from its first byte (a slow phone's hand is a
few hundred bytes)."""
FIRST_BYTE_WAIT = 5.0
"""Seconds a new connection may wait before its first byte, beyond the keep-alive time
a kept connection waits for its next request."""
GATHERED_HEAD = 64 * 1024
"""A head longer than this goes to a thread as it is: gunicorn's parser refuses it."""
GATHERED_BODY = 256 * 1024
"""Bodies up to this size are gathered before a thread sees the request."""
POLL_SECONDS = 1.0
"""How often the poller looks at the clock when nothing happens (deadlines, the arbiter's
heartbeat, the parent)."""


def require_known_gunicorn() -> None:
    """Refuse to serve on a gunicorn this worker was not written against: another major
    version, or one without a part it uses."""
    major = int(gunicorn.__version__.split(".")[0])
    missing = [
        f"{getattr(owner, '__name__', owner)}.{name}"
        for owner, name in PARTS
        if not callable(getattr(owner, name, None))
    ]
    if major != KNOWN_GUNICORN or missing:
        raise RuntimeError(
            f"scorer.worker is written against gunicorn {KNOWN_GUNICORN}; this is "
            f"gunicorn {gunicorn.__version__}"
            + (f", without {', '.join(missing)}" if missing else "")
            + f": install 'gunicorn>={KNOWN_GUNICORN},<{KNOWN_GUNICORN + 1}' "
            "(pyproject.toml pins it) or adapt scorer/worker.py."
        )


def is_write(head: bytes) -> bool:
    """Whether a request that begins with `head` changes something."""
    return head.startswith(WRITES)


@dataclass(frozen=True)
class Arrival:
    """A request as it came: its bytes, what came after them (the start of the next
    request on the connection), and whether it is `whole` (a thread reads nothing more
    from the socket, and the connection may be kept). A request that is not whole goes
    on reading from the socket, and its connection closes after the answer."""

    request: bytes
    rest: bytes = b""
    whole: bool = False


def arrived(data: bytes) -> Arrival | None:
    """The request at the start of `data` once it has arrived (or as much of it as is
    gathered: a head too long, a client that waits for "100 Continue", a body beyond
    `GATHERED_BODY`, a chunked body once its last chunk is in); None while more is to
    come."""
    end = data.find(b"\r\n\r\n")
    if end < 0:
        return Arrival(data) if len(data) > GATHERED_HEAD else None
    head, body = data[:end].lower(), len(data) - end - 4
    if b"\nexpect:" in head:
        return Arrival(data)
    if b"\ntransfer-encoding:" in head:
        return Arrival(data) if body > GATHERED_BODY or data.endswith(b"0\r\n\r\n") else None
    length = content_length(head)
    if length is None or length > GATHERED_BODY:
        return Arrival(data)  # the parser refuses a length it cannot read
    if body < length:
        return None
    cut = end + 4 + length
    return Arrival(data[:cut], data[cut:], whole=True)


def content_length(head: bytes) -> int | None:
    """The body's length that a (lower-cased) head names, 0 when it names none; None when
    the value is not a length."""
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip() == b"content-length":
            value = value.strip()
            return int(value) if value.isdigit() and len(value) < 16 else None
    return 0


class _Source:
    """What the parser reads a request from: the gathered bytes first, then (for a request
    that is not whole) the socket."""

    def __init__(self, sock: socket.socket, arrival: Arrival):
        self.sock, self.arrival, self.given = sock, arrival, False

    def recv(self, size: int) -> bytes:
        if not self.given:
            self.given = True
            return self.arrival.request
        return b"" if self.arrival.whole else self.sock.recv(size)


class _Connection:
    """A client's connection while it waits on the poller: the bytes of its next request
    so far, and until when it may wait."""

    def __init__(self, sock: socket.socket, address: Any, server: Any):
        self.sock, self.address, self.server = sock, address, server
        self.data = b""
        self.deadline = 0.0
        self.answering: Future | None = None

    def wait(self, seconds: float, rest: bytes = b"") -> None:
        """Wait for the next request (`rest`: what of it came already)."""
        self.data = b""
        self.deadline = time.monotonic() + seconds
        if rest:
            self.received(rest)

    def received(self, data: bytes) -> None:
        if not self.data:
            self.deadline = time.monotonic() + REQUEST_DEADLINE
        self.data += data


class TabletsFirstWorker(Worker):
    """A poller that gathers requests, and two thread pools (see the module's docstring)."""

    def init_process(self) -> None:
        if self.cfg.is_ssl:
            raise RuntimeError("scorer.worker serves plain http: end TLS at a proxy")
        self.reads = ThreadPoolExecutor(self.cfg.threads, thread_name_prefix="reads")
        self.writes = ThreadPoolExecutor(WRITE_THREADS, thread_name_prefix="writes")
        self.selector = selectors.DefaultSelector()
        self.waiting: dict[socket.socket, _Connection] = {}
        self.serving: set[Future] = set()  # the poller's own: threads tell by `answered`
        self.answered: queue.SimpleQueue[tuple[_Connection, Arrival | None]] = queue.SimpleQueue()
        self.wake_read, self.wake_write = os.pipe()
        os.set_blocking(self.wake_read, False)
        os.set_blocking(self.wake_write, False)
        self.accepting = False
        super().init_process()

    # --- the poller (the worker's main thread) ------------------------------------------

    def run(self) -> None:
        for listener in self.sockets:
            listener.setblocking(False)
        for pipe in (self.wake_read, self.PIPE[0]):  # a thread's answer; a signal
            self.selector.register(pipe, selectors.EVENT_READ, self._woken)
        try:
            while self.alive:
                self.notify()
                self._accept_while_there_is_room()
                for key, _ in self.selector.select(POLL_SECONDS):
                    key.data(key.fileobj)
                self._take_back_answered()
                self._cut_off(time.monotonic())
                if self.ppid != os.getppid():
                    self.log.info("Parent changed, shutting down: %s", self)
                    break
        finally:
            self._stop()

    def _accept_while_there_is_room(self) -> None:
        room = len(self.waiting) + len(self.serving) < self.cfg.worker_connections
        if room == self.accepting:
            return
        for listener in self.sockets:
            if room:
                self.selector.register(listener, selectors.EVENT_READ, self._accept)
            else:
                self.selector.unregister(listener)
        self.accepting = room

    def _accept(self, listener: Any) -> None:
        try:
            client, address = listener.accept()
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        client.setblocking(False)
        conn = _Connection(client, address, listener.getsockname())
        conn.wait(FIRST_BYTE_WAIT + self.cfg.keepalive)
        self._wait_for_request(conn)

    def _wait_for_request(self, conn: _Connection) -> None:
        self.waiting[conn.sock] = conn
        self.selector.register(conn.sock, selectors.EVENT_READ, self._readable)

    def _readable(self, sock: socket.socket) -> None:
        conn = self.waiting[sock]
        try:
            data = sock.recv(64 * 1024)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:  # the client went away
            self._drop(conn)
            return
        conn.received(data)
        arrival = arrived(conn.data)
        if arrival is not None:
            self.selector.unregister(sock)
            del self.waiting[sock]
            self._hand_on(conn, arrival)

    def _hand_on(self, conn: _Connection, arrival: Arrival) -> None:
        pool = self.writes if is_write(arrival.request) else self.reads
        conn.answering = pool.submit(self._serve, conn, arrival)
        self.serving.add(conn.answering)

    def _woken(self, pipe: int) -> None:
        with contextlib.suppress(BlockingIOError):
            os.read(pipe, 4096)

    def _take_back_answered(self) -> None:
        """Kept connections wait on the poller for their next request; others close."""
        while True:
            try:
                conn, kept = self.answered.get_nowait()
            except queue.Empty:
                return
            self.serving.discard(conn.answering)
            if kept is None or not self.alive:
                self._close(conn.sock)
                continue
            conn.sock.setblocking(False)
            conn.wait(self.cfg.keepalive, kept.rest)
            arrival = arrived(conn.data) if conn.data else None
            if arrival is not None:  # the next request came with the last one
                self._hand_on(conn, arrival)
            else:
                self._wait_for_request(conn)

    def _cut_off(self, now: float) -> None:
        """Drop the connections whose time is up: a request that did not arrive in time,
        a kept connection that sent nothing more (and all of them once the worker stops)."""
        for conn in [c for c in self.waiting.values() if c.deadline < now or not self.alive]:
            self._drop(conn)

    def _drop(self, conn: _Connection) -> None:
        self.waiting.pop(conn.sock, None)
        with contextlib.suppress(KeyError, ValueError, OSError):
            self.selector.unregister(conn.sock)
        self._close(conn.sock)

    def _close(self, sock: socket.socket) -> None:
        with contextlib.suppress(OSError):
            sock.close()

    def _stop(self) -> None:
        """Answer what is being answered (up to the graceful timeout), then close."""
        self.alive = False
        self._cut_off(time.monotonic())
        wait_for(list(self.serving), timeout=self.cfg.graceful_timeout)
        self._take_back_answered()
        self.reads.shutdown(wait=False)
        self.writes.shutdown(wait=False)

    # --- a request, on a thread ---------------------------------------------------------

    def _serve(self, conn: _Connection, arrival: Arrival) -> None:
        kept: Arrival | None = None
        try:
            conn.sock.setblocking(True)
            conn.sock.settimeout(self.cfg.timeout)  # a client that stops reading its answer
            if self._handle(conn, arrival) and arrival.whole:
                kept = arrival
        finally:
            self.answered.put((conn, kept))
            with contextlib.suppress(BlockingIOError, OSError):
                os.write(self.wake_write, b".")

    def _handle(self, conn: _Connection, arrival: Arrival) -> bool:
        """Parse the request and answer it, as gunicorn's sync worker does; whether the
        connection may be kept."""
        req = None
        try:
            parser = http.get_parser(self.cfg, _Source(conn.sock, arrival), conn.address)
            req = next(parser)
            return self._answer(conn, req)
        except NoMoreData as exc:
            self.log.debug("Ignored premature client disconnection. %s", exc)
        except StopIteration as exc:
            self.log.debug("Closing connection. %s", exc)
        except OSError as exc:
            if exc.errno not in (errno.EPIPE, errno.ECONNRESET, errno.ENOTCONN, None):
                self.log.exception("Socket error processing request.")
        except Exception as exc:
            self.handle_error(req, conn.sock, conn.address, exc)
        return False

    def _answer(self, conn: _Connection, req: Any) -> bool:
        environ: dict[str, Any] = {}
        resp = None
        try:
            self.cfg.pre_request(self, req)
            started = datetime.now()
            resp, environ = wsgi.create(req, conn.sock, conn.address, conn.server, self.cfg)
            self.nr += 1
            if self.nr >= self.max_requests:
                self.log.info("Autorestarting worker after current request.")
                self.alive = False
            if not self.alive or not self.cfg.keepalive:
                resp.force_close()
            respiter = self.wsgi(environ, resp.start_response)
            try:
                if isinstance(respiter, environ["wsgi.file_wrapper"]):
                    resp.write_file(respiter)
                else:
                    for item in respiter:
                        resp.write(item)
                resp.close()
            finally:
                self.log.access(resp, req, environ, datetime.now() - started)
                if hasattr(respiter, "close"):
                    respiter.close()
            return not resp.should_close()
        except OSError:
            raise
        except Exception:
            if resp is not None and resp.headers_sent:
                # Half an answer is out: a 500 on the same socket would corrupt it.
                self.log.exception("Error handling request")
                raise StopIteration() from None
            raise
        finally:
            try:
                self.cfg.post_request(self, req, environ, resp)
            except Exception:
                self.log.exception("Exception in post_request hook")
