"""The gunicorn worker `make run` serves with: gunicorn's threaded worker (gthread), with
the writes the tablets send answered by threads of their own.

Spectators' pages and live polls come by the hundred, a table's hand one at a time; in one
thread pool a flood of reads queues every hand behind it. Here a new connection waits on
the worker's poller (holding no thread) until its request's first bytes arrive, and the
request line's method picks the pool: POST, PUT, PATCH and DELETE go to `WRITE_THREADS`
threads of their own, everything else to the `--threads` pool. A flood of reads fills the
read pool's queue, never the writes'. A kept-alive connection is sorted again for each
request it sends.

This leans on gthread's own parts (its connection, its poller callbacks), so pyproject.toml
keeps gunicorn to the major version this was written against.
"""

from __future__ import annotations

import contextlib
import errno
import selectors
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial

from gunicorn.workers.gthread import DEFAULT_WORKER_DATA_TIMEOUT, TConn, ThreadWorker

WRITE_THREADS = 8
"""Threads per server process for the requests that change something."""
WRITES = (b"POST ", b"PUT ", b"PATCH ", b"DELETE ")


def is_write(head: bytes) -> bool:
    """Whether a request that begins with `head` changes something."""
    return head.startswith(WRITES)


class TabletsFirstWorker(ThreadWorker):
    """gthread with a second thread pool for writes (see the module's docstring)."""

    def init_process(self) -> None:
        self.write_pool = ThreadPoolExecutor(WRITE_THREADS, thread_name_prefix="writes")
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
        pool = self.write_pool if is_write(_first_bytes(conn)) else self.tpool
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
