"""`Busy`: what the server cannot do right now but will in a moment (the database or a
table stayed locked; the printer's own refusal is `scorer.reports.refusals.PrinterBusy`).
Pages and the API answer it with 503 and `Retry-After`."""


class Busy(Exception):
    """Try again in a few seconds."""
