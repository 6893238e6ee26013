"""How long the PDF score sheet takes: a 30-hand and a 300-hand evening at a table of four.

Run: `.venv/bin/python bench/pdf.py [runs]`. Builds both evenings in an in-memory SQLite
app through `scorer.services.tables`, renders each a few times and prints the median. The
target is under 2 s for 300 hands. Wall time is what a user waits; CPU time (this
process only) is steadier on a busy machine. Prints only; nothing is asserted.
"""

from __future__ import annotations

import io
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pypdf import PdfReader  # noqa: E402

from scorer import create_app  # noqa: E402
from scorer.domain import Hand, RuleError, commands  # noqa: E402
from scorer.domain.commands import RecordHand
from scorer.domain.scoring import BIDS, SUITS  # noqa: E402
from scorer.reports.pdf import render_pdf  # noqa: E402
from scorer.services import tables  # noqa: E402
from scorer.store.database import db

PLAYERS = ["Anton", "Berta", "Charlotte", "Dieter"]
TARGET_SECONDS = 2.0


def build_evening(hands: int, seed: int = 7):
    """A Haferltarock evening (Parlett units, with the Haferl) of `hands` random hands."""
    rng = random.Random(seed)
    session = tables.create_session(
        commands.open_table(
            name=f"Stammtisch, {hands} Spiele",
            game="haferltarock",
            system="parlett-units",
            params={},
            players=PLAYERS,
            first_dealer="Anton",
        )
    )
    while session.hand_count < hands:
        dealer = session.state["next_dealer"]
        declarer = rng.choice([p for p in PLAYERS if p != dealer])
        frage = rng.random() < 0.6
        hand = Hand(
            declarer=declarer,
            contract="frage" if frage else "hand",
            trump=rng.choice(SUITS),
            bid=61 if frage else rng.choice(BIDS[:7]),
            points=rng.randint(25, 110),
            doublings=rng.choice((0, 0, 0, 0, 0, 0, 1, 2)),
        )
        try:
            tables.record_hand(session, RecordHand(hand))
        except RuleError:
            continue
    db.session.commit()
    return session


def main(runs: int = 5) -> None:
    app = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "bench"}
    )
    with app.app_context():
        db.create_all()
        desk = app.extensions["desk"]
        render_pdf(build_evening(3), "de", desk)  # warm up: imports, fonts, templates
        print(f"render_pdf, median of {runs} runs (target: < {TARGET_SECONDS:.0f} s for 300)")
        for hands in (30, 300):
            session = build_evening(hands)
            wall, cpu = [], []
            for _ in range(runs):
                start, start_cpu = time.perf_counter(), time.process_time()
                pdf = render_pdf(session, "de", desk)
                wall.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
            pages = len(PdfReader(io.BytesIO(pdf)).pages)
            median = statistics.median(wall)
            verdict = ""
            if hands == 300:
                verdict = f"  target {'met' if median < TARGET_SECONDS else 'missed'}"
            print(
                f"{hands:4d} hands: {median:6.3f} s wall, {statistics.median(cpu):.3f} s CPU  "
                f"({pages} pages, {median / pages * 1000:.0f} ms a page, "
                f"{len(pdf) / 1024:.0f} KiB){verdict}"
            )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
