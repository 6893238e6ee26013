"""The rules engine speaks English (the API's language); the table pages speak German.

`german` turns the engine's messages into the players' words; a message it does not know
is shown as it is rather than hidden.
"""

from __future__ import annotations

import re

PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^must be 0\.\.(\d+)$"), r"Augen: 0 bis \1"),
    (re.compile(r"^(.+) deals and sits out this hand$"), r"\1 gibt und setzt aus"),
    (re.compile(r"^must be one of the players of this hand$"), "Wer spielt? Bitte antippen"),
    (re.compile(r"^must be one of: (.+)$"), r"eins von: \1"),
    (
        re.compile(r"^the declarer's card points are needed \(0\.\.(\d+)\)$"),
        r"Augen des Spielers fehlen (0 bis \1)",
    ),
    (re.compile(r"^choose the trump suit$"), "Trumpf antippen"),
    (
        re.compile(r"^a pick-up game \(Frage\) cannot be bid above 61$"),
        "Eine Frage kann nicht über 61 gereizt werden",
    ),
    (re.compile(r"^must be 61\.\.116 in steps of 5.*$"), "Reizen: 61 bis 116 in Fünferschritten"),
    (re.compile(r"^taking every trick means all (\d+) points$"), r"Durch heißt alle \1 Augen"),
    (re.compile(r"^cannot go with no_tricks$"), "Durch und »keinen Stich« schließen sich aus"),
    (re.compile(r"^Bettel takes no card points.*$"), "Beim Bettel zählen keine Augen"),
    (re.compile(r"^Bettel has no trumps$"), "Beim Bettel gibt es keinen Trumpf"),
    (re.compile(r"^a Frage is played with hearts.*$"), "Eine Frage wird hier mit Herz gespielt"),
    (
        re.compile(r"^Berliner: only the dealer may play a Frage$"),
        "Berliner: nur der Geber darf eine Frage spielen",
    ),
    (re.compile(r"^must be 0\.\.(\d+): .* has no Kontra$"), "Hier gibt es kein Kontra"),
    (
        re.compile(r"^the evening is closed: no more changes$"),
        "Der Abend ist abgeschlossen: keine Änderungen mehr",
    ),
    (
        re.compile(r"^hand (\d+) was changed by someone else since: reload and try again$"),
        r"Spiel \1 wurde inzwischen an einem anderen Gerät geändert: bitte neu laden",
    ),
    (
        re.compile(r"^another device recorded a hand at the same moment: reload$"),
        "Ein anderes Gerät hat gerade ein Spiel eingetragen: bitte neu laden",
    ),
    (
        re.compile(r"^(.+) is played by (.+) different players$"),
        r"\1 spielen \2 verschiedene Spieler",
    ),
    (re.compile(r"^(.+) is played by (.+) players$"), r"\1 spielen \2 Spieler"),
    (re.compile(r"^names must be different$"), "Die Namen müssen verschieden sein"),
    (re.compile(r"^every name must have 1\.\.40 characters$"), "Namen: 1 bis 40 Zeichen"),
    (re.compile(r"^must be at least (\d+)$"), r"mindestens \1"),
    (re.compile(r"^must be at most (\d+)$"), r"höchstens \1"),
    (
        re.compile(r"^a declarer with no trick has at most the stock: (\d+) points$"),
        r"Ohne Stich hat der Spieler höchstens den Stock: \1 Augen",
    ),
]


def german(message: str) -> str:
    for pattern, replacement in PATTERNS:
        if pattern.match(message):
            return pattern.sub(replacement, message)
    return message
