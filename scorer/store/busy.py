"""`Busy`: what the server cannot do right now but will in a moment (another score sheet
is being printed, the database stayed locked). Pages and the API answer it with 503 and
`Retry-After`."""


class Busy(Exception):
    """Try again in a few seconds."""


class PrinterBusy(Busy):
    """Another score sheet is being printed (one at a time), or this one took too long."""
