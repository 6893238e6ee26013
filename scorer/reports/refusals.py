"""`PrinterBusy`: the printer's refusal. Another score sheet is being printed (one at a
time), or this one took too long; a `Busy` of the store's kind, so pages and the API
answer it with 503 and `Retry-After` (`scorer.web`)."""

from __future__ import annotations

from scorer.store.busy import Busy


class PrinterBusy(Busy):
    """Another score sheet is being printed (one at a time), or this one took too long."""
