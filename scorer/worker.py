"""The gunicorn worker `make run` serves with: gunicorn's threaded worker (gthread), with
whole requests only handed to threads, and the writes the tablets send answered by threads
of their own.

- **A request reaches a thread only when it has arrived.** gthread gives a connection to
  a thread as soon as its first bytes come; a phone on bad Wi-Fi (or anyone on purpose)
  sending its headers a line a second then holds that thread, and eight of them stop the
  server. Here the worker's poller gathers each request (its head, and a body of up to
  `GATHERED_BODY` bytes) without a thread, as a buffering proxy would; one that has not
  arrived within `REQUEST_DEADLINE` seconds is cut off. A larger body (an import) goes to
  a thread once its head is in: the import limit per address bounds those.
- **Reads never queue the writes.** Spectators' pages and live polls come by the hundred,
  a table's hand one at a time; in one thread pool a flood of reads queues every hand
  behind it. The request line's method picks the pool: POST, PUT, PATCH and DELETE go to
  `WRITE_THREADS` threads of their own, everything else to the `--threads` pool.

A kept-alive connection is gathered and sorted again for each request it sends.

This leans on gthread's own parts (its connection `TConn`, its `pending_conns`, its
poller callbacks and `method_queue`, the parser's `unreader`), so pyproject.toml keeps
gunicorn to the major version this was written against, and `require_known_gunicorn`
(called by gunicorn.conf.py before anything is served) refuses another version or one
that lacks any of those parts, with what to do.
"""

from __future__ import annotations

import contextlib
import errno
import selectors
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import gunicorn
from gunicorn.workers.gthread import DEFAULT_WORKER_DATA_TIMEOUT, TConn, ThreadWorker

KNOWN_GUNICORN = 27
"""The major version of gunicorn whose gthread worker this one extends."""
GTHREAD_PARTS = (
    "accept",
    "enqueue_req",
    "finish_request",
    "handle",
    "handle_quit",
    "init_process",
    "murder_pending",
    "on_pending_socket_readable",
    "run",
)
"""The methods of gthread's ThreadWorker this worker calls or overrides."""
TCONN_PARTS = ("init", "close")
"""What it uses of gthread's connection (besides its `sock`, `parser` and `timeout`)."""

WRITE_THREADS = 8
"""Threads per server process for the requests that change something."""
WRITES = (b"POST ", b"PUT ", b"PATCH ", b"DELETE ")
REQUEST_DEADLINE = 10.0
"""Seconds a request may take to arrive, from its first byte (a slow phone's hand is a
few hundred bytes)."""
GATHERED_HEAD = 64 * 1024
"""A head longer than this goes to a thread as it is: gunicorn's parser refuses it."""
GATHERED_BODY = 256 * 1024
"""Bodies up to this size are gathered before a thread sees the request."""


def require_known_gunicorn() -> None:
    """Refuse to serve on a gunicorn this worker was not written against: another major
    version, or one whose gthread lacks a part it uses."""
    major = int(gunicorn.__version__.split(".")[0])
    missing = [p for p in GTHREAD_PARTS if not callable(getattr(ThreadWorker, p, None))]
    missing += [f"TConn.{p}" for p in TCONN_PARTS if not callable(getattr(TConn, p, None))]
    if major != KNOWN_GUNICORN or missing:
        raise RuntimeError(
            f"scorer.worker extends gunicorn {KNOWN_GUNICORN}'s gthread worker; this is "
            f"gunicorn {gunicorn.__version__}"
            + (f", without {', '.join(missing)}" if missing else "")
            + f": install 'gunicorn>={KNOWN_GUNICORN},<{KNOWN_GUNICORN + 1}' "
            "(pyproject.toml pins it) or adapt scorer/worker.py."
        )


def is_write(head: bytes) -> bool:
    """Whether a request that begins with `head` changes something."""
    return head.startswith(WRITES)


class TabletsFirstWorker(ThreadWorker):
    """gthread with a second thread pool for writes (see the module's docstring)."""

    def init_process(self) -> None:
        self.write_pool = ThreadPoolExecutor(WRITE_THREADS, thread_name_prefix="writes")
        self.gathering: dict[socket.socket, _Gathering] = {}
        super().init_process()

    def accept(self, listener: socket.socket) -> None:
        """A new connection waits on the poller for its first request, as gthread lets a
        connection that sent nothing yet wait (and for as long: its data timeout, then its
        keep-alive timeout)."""
        try:
            client, address = listener.accept()
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        self.nr_conns += 1
        conn = TConn(self.cfg, client, address, listener.getsockname())  # non-blocking
        conn.timeout = time.monotonic() + DEFAULT_WORKER_DATA_TIMEOUT + self.cfg.keepalive
        self.pending_conns.append(conn)
        self.poller.register(
            conn.sock, selectors.EVENT_READ, partial(self.on_pending_socket_readable, conn)
        )

    def enqueue_req(self, conn: TConn) -> None:
        """Gather the connection's next request on the poller, then hand it to a pool."""
        if self.cfg.is_ssl:  # `make run` serves plain http; TLS ends at a proxy
            self._dispatch(conn, _first_bytes(conn))
            return
        conn.init()  # the parser, for plain http without I/O
        gathering = _Gathering(conn, conn.parser.unreader.take_buffered())
        if gathering.complete():
            self._dispatch(conn, gathering.handed_on())
            return
        self.gathering[conn.sock] = gathering
        self.poller.register(conn.sock, selectors.EVENT_READ, self.on_gathering_readable)

    def on_gathering_readable(self, sock: socket.socket) -> None:
        gathering = self.gathering[sock]
        try:
            data = sock.recv(64 * 1024, socket.MSG_DONTWAIT)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:  # the client went away
            self._drop_gathering(sock)
            return
        gathering.data += data
        if gathering.complete():
            self.poller.unregister(sock)
            del self.gathering[sock]
            self._dispatch(gathering.conn, gathering.handed_on())

    def murder_pending(self) -> None:
        """Also cut off the requests that did not arrive in time, and, once the worker is
        stopping, every request still arriving (it would only delay the stop)."""
        super().murder_pending()
        now = time.monotonic()
        late = [s for s, g in self.gathering.items() if g.deadline < now or not self.alive]
        for sock in late:
            self._drop_gathering(sock)

    def _drop_gathering(self, sock: socket.socket) -> None:
        gathering = self.gathering.pop(sock)
        with contextlib.suppress(OSError, KeyError, ValueError):
            self.poller.unregister(sock)
        self.nr_conns -= 1
        gathering.conn.close()

    def _dispatch(self, conn: TConn, head: bytes) -> None:
        pool = self.write_pool if is_write(head) else self.tpool
        done = pool.submit(self.handle, conn)
        done.add_done_callback(
            lambda future: self.method_queue.defer(self.finish_request, conn, future)
        )

    def handle_quit(self, sig, frame) -> None:
        self.write_pool.shutdown(wait=False)
        super().handle_quit(sig, frame)

    def run(self) -> None:
        try:
            super().run()
        finally:
            self.write_pool.shutdown(wait=False)


def _first_bytes(conn: TConn) -> bytes:
    """The first bytes of the connection's next request, without taking them: what its
    parser read ahead, then what waits on the socket."""
    head = b""
    if conn.parser is not None:
        head = conn.parser.unreader.buf.getvalue()[:8]
    if len(head) < 8:
        # Nothing there (yet), or closed: the read pool finds out.
        with contextlib.suppress(OSError):
            head += conn.sock.recv(8 - len(head), socket.MSG_PEEK | socket.MSG_DONTWAIT)
    return head


class _Gathering:
    """A request arriving on a connection: the bytes so far, and until when it may take."""

    def __init__(self, conn: TConn, data: bytes):
        self.conn, self.data = conn, bytearray(data)
        self.deadline = time.monotonic() + REQUEST_DEADLINE

    def complete(self) -> bool:
        """Whether the request is in (or as much of it as is gathered): its head, and a
        body of the length it names; a chunked body up to its last chunk."""
        end = self.data.find(b"\r\n\r\n")
        if end < 0:
            return len(self.data) > GATHERED_HEAD
        head = bytes(self.data[:end]).lower()
        body = len(self.data) - end - 4
        if b"\nexpect:" in head:  # the client waits for "100 Continue" before its body
            return True
        if b"\ntransfer-encoding:" in head:
            return body > GATHERED_BODY or self.data.endswith(b"0\r\n\r\n")
        length = _content_length(head)
        return length is None or length > GATHERED_BODY or body >= length

    def handed_on(self) -> bytes:
        """Put the gathered bytes where the request's parser reads first; its first bytes."""
        self.conn.parser.unreader.unread(bytes(self.data))
        return bytes(self.data[:8])


def _content_length(head: bytes) -> int | None:
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip() == b"content-length":
            value = value.strip()
            return int(value) if value.isdigit() and len(value) < 16 else None
    return None
