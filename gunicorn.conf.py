"""gunicorn's settings for Haferl: `make run` (scorer.serve) starts
`gunicorn -c gunicorn.conf.py wsgi:app` after it migrated the database; the same command
serves by hand. HOST, PORT and WORKERS come from the environment (scorer.serve sets WORKERS
for the database: one process on SQLite, cores + 1 on PostgreSQL); `GUNICORN_CMD_ARGS` and
`FORWARDED_ALLOW_IPS` reach gunicorn as usual.
"""

import gc
import os

from scorer.serve import CONNECTIONS, KEEP_ALIVE, THREADS, TIMEOUT
from scorer.worker import require_known_gunicorn

require_known_gunicorn()

bind = f"{os.environ.get('HOST') or '0.0.0.0'}:{os.environ.get('PORT') or '5000'}"
workers = int(os.environ.get("WORKERS") or 1)
threads = THREADS
# A poller that gathers whole requests, and threads of their own for the tablets' writes
# (scorer.worker, on gunicorn's base Worker).
worker_class = "scorer.worker.TabletsFirstWorker"
timeout = TIMEOUT
# Live pages ask every 1.5 s (static/js/live.js): an idle connection is kept a little longer
# than that, so a watching device does not open a new one for every ask. It waits in the
# worker's poller, not in a thread.
keepalive = KEEP_ALIVE
worker_connections = CONNECTIONS
# No max_requests: with SQLite's one process, each replacement stopped every table for the
# ~1.4 s a new worker takes to start; PDFs render in a child process, and a worker's memory
# levels off (about 130 MB after 18 imports of 1,990 hands and 60 answers of a 1,990-hand
# table).
accesslog = "-"
# No control socket: unused here, and two servers on one machine would share its path.
control_socket_disable = True


def post_worker_init(worker):
    """The app is loaded: what it made to start (modules, routes, models, templates) is
    moved out of the garbage collector's reach (`gc.freeze`), so a full collection under
    load walks only what the requests made, not the whole process."""
    gc.freeze()
