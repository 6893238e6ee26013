"""Words a page in the other language must not have, money as German writes it, and a
request to say things in (`a_reader`).

The word lists hold common words of each language that the other never uses; card terms
that keep their German names in English (Frage, Solo, Haferl, Bettel, …) are not on them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from scorer.i18n.formats import money

GERMAN = re.compile(
    r"\b([Dd]er|[Dd]ie|[Dd]as|[Uu]nd|[Mm]it|[Nn]icht|[Bb]itte|Spieler|Spiele|Abend|"
    r"[Ee]intragen|[Zz]urück|[Nn]euer?|Tisch|Runde|Stand|Gewinn|zahlt|gibt|[Jj]eder|"
    r"[Ää]ndern|[Ll]öschen|[Ss]chließen|[Öö]ffnen|[Ff]ür|[Vv]on|über|unter|Augen|"
    r"Einsatz|Einstellungen|Abrechnung|Turnier|Saison|Mitglieder|[Ww]er|Zählen|Seite|"
    r"Anfrage|gefunden|Minute|warten)\b"
)
ENGLISH = re.compile(
    r"\b([Tt]he|[Aa]nd|[Ww]ith|[Nn]ot|[Pp]lease|[Pp]layers?|hands?|Hands|[Ee]vening|[Ss]ave|"
    r"[Bb]ack|[Nn]ew|[Tt]able|[Rr]ound|[Ss]tandings|pays|deals|[Ee]ach|[Ee]dit|[Dd]elete|"
    r"[Cc]lose|[Oo]pen|[Ff]or|[Ff]rom|[Oo]ver|[Uu]nder|[Pp]oints|[Ss]take|[Ss]ettings|"
    r"[Ss]ettle|[Tt]ournament|[Ss]eason|[Mm]embers|[Ww]ho|[Ww]hat|Found|Method|Allowed|"
    r"[Rr]equest|[Cc]ount)\b"
)


def german_euros(cents: int, signed: bool = False) -> str:
    """Euros as a German page and sheet write them: '1.234,50 €', '−1,20 €'."""
    return money(cents, signed, "de_DE")


@contextmanager
def a_reader(app, path: str = "/") -> Iterator[None]:
    """A request to `path` as the app begins one (its before_request hooks run: the reader's
    language is known to all that is said), without a view; torn down on leaving."""
    with app.test_request_context(path):
        app.preprocess_request()
        yield
