"""The rules engine speaks English (the API's language); the table pages speak German.

`german` turns the engine's messages into the players' words; a message it does not know
is shown as it is rather than hidden.
"""

from __future__ import annotations

import re

from scorer.domain.scoring import POT_SHORT

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
    (
        re.compile(r"^a Valat made by the declarer means the declarer has (\d+) points$"),
        r"Ein Valat des Spielers heißt: der Spieler hat \1 Augen",
    ),
    (
        re.compile(r"^a Valat made by the defenders means the declarer has (\d+) points$"),
        r"Ein Valat der Gegner heißt: der Spieler hat \1 Augen",
    ),
    (
        re.compile(r"^.* has no such flag: enter a Valat as a bonus$"),
        "Hier gibt es das nicht: einen Valat als Prämie eintragen",
    ),
    (
        re.compile(r"^'(\w+)' is not announced in Strohmandeln$"),
        r"\1 wird beim Strohmandeln nicht angesagt",
    ),
    (re.compile(r"^a Frage is played with hearts.*$"), "Eine Frage wird hier mit Herz gespielt"),
    (
        re.compile(r"^Berliner: only the dealer may play a Frage$"),
        "Berliner: nur der Geber darf eine Frage spielen",
    ),
    (re.compile(r"^must be 0\.\.(\d+): .* has no Kontra$"), "Hier gibt es kein Kontra"),
    (re.compile(r"^the evening is not closed$"), "Der Abend ist noch offen"),
    (
        re.compile(r"^an evening of this season is still open: close it first$"),
        "Ein Abend dieser Saison ist noch offen: bitte erst beenden",
    ),
    (
        re.compile(r"^this season has no evening yet: nothing to close$"),
        "Diese Saison hat noch keinen Abend: es gibt nichts zu beenden",
    ),
    (
        re.compile(r"^nobody played this season: the Haferl stays$"),
        "In dieser Saison hat niemand gespielt: das Haferl bleibt",
    ),
    (
        re.compile(r"^the evening's season is closed: it cannot be reopened$"),
        "Die Saison dieses Abends ist beendet: er kann nicht wieder geöffnet werden",
    ),
    (
        re.compile(r"^the evening is paid in a collected settle-up$"),
        "Der Abend ist in einer gesammelten Abrechnung schon bezahlt",
    ),
    (
        re.compile(r"^a later evening carried this Haferl on: this evening cannot be reopened$"),
        "Ein späterer Abend hat dieses Haferl weitergeführt: "
        "dieser Abend kann nicht wieder geöffnet werden",
    ),
    (re.compile(r"^no group with this key$"), "Diese Runde gibt es nicht"),
    (re.compile(r"^no member called (.+)$"), r"\1 gehört nicht zu dieser Runde"),
    (re.compile(r"^another member has this name$"), "So heißt schon ein anderes Mitglied"),
    (
        re.compile(r"^the table was changed on another device since: reload and try again$"),
        "Der Tisch wurde inzwischen an einem anderen Gerät geändert: bitte neu laden",
    ),
    (
        re.compile(r"^at a tournament table the draw decides who plays$"),
        "An einem Turniertisch bestimmt die Auslosung, wer spielt",
    ),
    (
        re.compile(r"^'(.+)' is '(.+)', who played before$"),
        r"„\1“ ist „\2“, der schon mitgespielt hat",
    ),
    (
        re.compile(r"^changes of players must come in order$"),
        "Spielerwechsel kommen der Reihe nach",
    ),
    (
        re.compile(r"^a tournament table is closed with its round$"),
        "Ein Turniertisch wird mit seiner Runde geschlossen",
    ),
    (
        re.compile(r"^the evening is closed: no more changes$"),
        "Der Abend ist abgeschlossen: keine Änderungen mehr",
    ),
    (
        re.compile(r"^hand (\d+) was changed by someone else since: reload and try again$"),
        r"Spiel \1 wurde inzwischen an einem anderen Gerät geändert: bitte neu laden",
    ),
    (
        re.compile(r"^hand (\d+) was struck out by someone else since: reload$"),
        r"Spiel \1 wurde inzwischen an einem anderen Gerät gestrichen: bitte neu laden",
    ),
    (
        re.compile(r"^an evening holds at most (\d+) hands: start a new table$"),
        r"Ein Abend fasst höchstens \1 Spiele: bitte einen neuen Tisch anlegen",
    ),
    (
        re.compile(r"^was used before for a different hand: use a new key$"),
        "wurde schon für ein anderes Spiel verwendet",
    ),
    (
        re.compile(r"^(.+) is played by (.+) different players$"),
        r"\1 spielen \2 verschiedene Spieler",
    ),
    (
        re.compile(r"^(.+) is played by (\d+) or (\d+) players$"),
        r"\1 spielen \2 oder \3 Spieler",
    ),
    (re.compile(r"^(.+) is played by (.+) players$"), r"\1 spielen \2 Spieler"),
    (re.compile(r"^names must be different$"), "Die Namen müssen verschieden sein"),
    (re.compile(r"^every name must have 1\.\.40 characters$"), "Namen: 1 bis 40 Zeichen"),
    (re.compile(r"^must have 1\.\.(\d+) characters$"), r"1 bis \1 Zeichen"),
    (
        re.compile(r"^may not contain control or invisible characters$"),
        "Bitte ohne Steuer- oder unsichtbare Zeichen",
    ),
    (re.compile(r"^must be text$"), "muss Text sein"),
    (
        re.compile(r"^every trick to the declarer is the declarer's Valat$"),
        "Alle Stiche beim Spieler sind seine Valat",
    ),
    (
        re.compile(r"^enter the defenders' Valat as the Valat bonus$"),
        "Die Valat der Gegenpartei bitte als Prämie »Valat« eintragen",
    ),
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


def german_all(fields: dict[str, list[str]]) -> str:
    """Every message of a RuleError's fields, each in German, as one line for a flash."""
    return " ".join(german(m) for messages in fields.values() for m in messages)


# Explanation lines ("warum?"): the engine's English phrases, longest first, in German.
LINE_PHRASES: list[tuple[str, str]] = [
    (r"60 to 60: a draw, nothing is paid", "60 zu 60: unentschieden, niemand zahlt"),
    (r"35 to 35: a draw, only bonuses are paid", "35 zu 35: unentschieden, nur Prämien zählen"),
    (r"35 to 35 counts as lost", "35 zu 35 zählt als verloren"),
    (
        r"Kontra shifts the burden: defenders took (\d+), needed (\d+) → declarer wins the "
        r"smallest amount",
        r"Kontra dreht die Last um: Gegenpartei hat \1, brauchte \2 → "
        r"Spieler gewinnt den kleinsten Betrag",
    ),
    (
        r"Kontra shifts the burden: defenders took (\d+), needed (\d+) → declarer loses the "
        r"smallest amount",
        r"Kontra dreht die Last um: Gegenpartei hat \1, brauchte \2 → "
        r"Spieler verliert den kleinsten Betrag",
    ),
    (
        r"the pot holds only (\d+) of the (\d+) cents due to (.+): it pays what it has and is "
        r"empty",
        r"im Haferl sind nur noch \1 der \2 Cent für \3: es zahlt, was es hat, und ist "
        r"leer",
    ),
    (
        r"after a draw this hand counts ×(\d+), the cap: further draws do not double it",
        r"nach einem Unentschieden zählt dieses Spiel ×\1, die Obergrenze: weitere "
        r"Unentschieden verdoppeln nicht mehr",
    ),
    (r"after a draw this hand counts ×(\d+)", r"nach einem Unentschieden zählt dieses Spiel ×\1"),
    (
        r"to each defender: one from the declarer, one from the Haferl",
        "an jeden Gegenspieler: einer vom Spieler, einer aus dem Haferl",
    ),
    (
        r"to each defender, one share from the pot",
        "an jeden Gegenspieler, ein Anteil aus dem Haferl",
    ),
    (
        r"to each defender, one share from the Haferl",
        "an jeden Gegenspieler, ein Anteil aus dem Haferl",
    ),
    (r"replaces the contract and every other bonus", "ersetzt das Spiel und alle anderen Prämien"),
    (r"replaces everything else", "ersetzt alles andere"),
    (r"scores for the opponent", "zählt für den Gegner"),
    (r"each defender receives half, rounded", "jeder Gegenspieler bekommt die Hälfte, gerundet"),
    (r"the Kasse pays the difference", "die Kasse zahlt den Rest"),
    (r"the rest goes into the Kasse", "der Rest geht in die Kasse"),
    (r"each defender pays", "jeder Gegenspieler zahlt"),
    (r"paid to each defender", "an jeden Gegenspieler"),
    (r"from each defender", "von jedem Gegenspieler"),
    (r"to each defender", "an jeden Gegenspieler"),
    (r"the loser pays the winner", "der Verlierer zahlt dem Gewinner"),
    (r"nothing to pay", "nichts zu zahlen"),
    (r"the declarer pays", "der Spieler zahlt"),
    (r"the Haferl pays", "das Haferl zahlt"),
    (r"the Kasse pays", "die Kasse zahlt"),
    (r"the pot pays", "das Haferl zahlt"),
    (r"a Frage won counts half", "eine gewonnene Frage zählt halb"),
    (r"× a Frage's win", "× Gewinn einer Frage"),
    (r"hand game", "Handspiel"),
    (r"Durch announced", "Durch angesagt"),
    (r"Durch made", "Durch gemacht"),
    (r"Durch: doubled", "Durch: doppelt"),
    (r"Schwarz \(no trick\)", "Schwarz (kein Stich)"),
    (r"both passed, (\d+) of 70 wins", r"beide gepasst, \1 von 70 gewinnt"),
    (r"both passed, (\d+) of 70 loses", r"beide gepasst, \1 von 70 verliert"),
    (r"big win with (\d+) \(45 or more\)", r"hoher Gewinn mit \1 (45 oder mehr)"),
    (
        r"the defender's big win: (\d+) \(44 or more\)",
        r"hoher Gewinn der Gegenpartei: \1 (44 oder mehr)",
    ),
    (r"(\d+) more five\(s\) over the bid", r"\1 Fünfer mehr über dem Gebot"),
    (r"(\d+) more five\(s\) over (\d+)", r"\1 Fünfer mehr über \2"),
    (r"(\d+) more five\(s\) short", r"\1 Fünfer mehr zu wenig"),
    (r"(\d+) five\(s\) short", r"\1 Fünfer zu wenig"),
    (r"(\d+) level\(s\) reached \(66, 71, …\)", r"\1 Stufe(n) erreicht (66, 71, …)"),
    (r"bid (\d+): (\d+) raise\(s\)", r"gereizt \1: \2 Erhöhung(en)"),
    (r"(\d+) point\(s\) above 65", r"\1 Auge(n) über 65"),
    (r"(\d+) point\(s\) below 56", r"\1 Auge(n) unter 56"),
    (r"(\d+) point\(s\) above the band × 2", r"\1 Auge(n) über der Spanne × 2"),
    (r"(\d+) point\(s\) below the band × 2", r"\1 Auge(n) unter der Spanne × 2"),
    (r"(\d+) points over 60", r"\1 Augen über 60"),
    (r"(\d+) points short", r"\1 Augen zu wenig"),
    (r"([+-]\d+) points ×", r"\1 Punkte ×"),
    (r"rounded \(up5\)", "aufgerundet auf 5 ct"),
    (r"rounded \(nearest5\)", "gerundet auf 5 ct"),
    (r"rounded \(none\)", "auf ganze Cent gerundet"),
    (r", made by the declarer", ", vom Spieler gemacht"),
    (r", made by the defenders", ", von der Gegenpartei gemacht"),
    (r" for the declarer", " für den Spieler"),
    (r" for the defenders", " für die Gegenpartei"),
    (r" of the declarer lost", " des Spielers verloren"),
    (r" of the defenders lost", " der Gegenpartei verloren"),
    (r" announced and failed", " angesagt und verloren"),
    (r" announced", " angesagt"),
    (r", failed", ", verloren"),
    (r",? not made", " nicht gemacht"),
    (r"target (\d+)", r"Ziel \1"),
    (r"\btook (\d+)", r"\1 Augen"),
    (r"\bbid (\d+)", r"gereizt \1"),
    (r"\bwon with\b", "gewonnen mit"),
    (r"\blost with\b", "verloren mit"),
    (r"\bwon\b", "gewonnen"),
    (r"\blost\b", "verloren"),
    (r"\bwith\b", "mit"),
    (r"\bsimple\b", "einfach"),
    (r"\bof 70\b", "von 70"),
    (r"\bnothing\b", "nichts"),
    (r"(\d+)\.(\d+) ct", r"\1,\2 ct"),
]
_LINE_PATTERNS = [(re.compile(p), r) for p, r in LINE_PHRASES]


def german_line(text: str) -> str:
    """An explanation line in the players' words."""
    for pattern, replacement in _LINE_PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def pot_short(explanation) -> str:
    """The line saying the pot could not pay all it owed in a hand, in German; else ''."""
    for line in explanation or ():
        if line.get("text", "").startswith(POT_SHORT):
            return german_line(line["text"])
    return ""
