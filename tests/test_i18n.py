"""German and English: every message of the rules engine in both languages, the
catalogues complete and used, the reader's locale chosen as promised, money per locale."""

from __future__ import annotations

import re
from itertools import product
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from scorer.domain import GAMES, Bonus, Hand, RuleError
from scorer.domain.scoring import Rules, score_hand
from scorer.i18n.catalogue import say, say_all, say_line
from scorer.i18n.formats import euros
from scorer.i18n.words import speaking
from tests.conftest import load_vectors
from tests.support.languages import a_reader
from tests.support.tournaments import created, log_in, organiser
from tests.support.vectors import hand_from_json, score_vector

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "scorer" / "translations"
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "_l": None,
    "lazy_gettext": None,
    "msg": None,
    "msg_n": (1, 2),
}

ENGLISH = re.compile(
    r"\b(the|with|pays|each|won|lost|defenders?|declarer|more|short|points?|over|below|"
    r"above|bid|took|draw|counts|announced|made|failed|nothing|paid|from|to|of|and|for|"
    r"rounded|raises?|levels?|wins|loses|doubled|half|rest|goes|only|holds|must|cannot)\b"
)
GERMAN = re.compile(
    r"\b(der|die|das|und|mit|zahlt|jeder|gewonnen|verloren|Gegenspieler|Spieler|mehr|"
    r"Augen|über|unter|gereizt|zählt|angesagt|gemacht|nichts|von|für|gerundet|Erhöhung|"
    r"Stufe|doppelt|Hälfte|bleibt|nur|muss|kann|nicht|bitte|zu|ein|eine)\b"
)
PLAYERS = ["Anton", "Berta", "Charlotte"]


def explanations(game, system_id, params):
    """The explanation lines of many hands of one game and system: every contract, points
    in steps of 7, each bonus in each state, with and without Kontra, a pot that runs dry."""
    rules = Rules.build(game.id, system_id, params)
    players = PLAYERS[: game.active]
    bonus_sets = [()]
    for bonus_id in game.bonus_ids(system_id, rules.params):
        for side, announced, made in product(
            ("declarer", "defenders"), (False, True), (False, True)
        ):
            bonus_sets.append((Bonus(bonus_id, side, announced, made),))
    for contract, points, bonuses, doublings in product(
        game.contracts, range(0, game.total + 1, 7), bonus_sets, (0, 1)
    ):
        hand = Hand(
            "Anton",
            contract,
            trump="herz" if game.trump_required else None,
            points=None if contract == "bettel" else points,
            bonuses=bonuses,
            doublings=doublings,
            no_tricks=contract == "bettel" and points % 2 == 0,
        )
        try:
            score = rules.score(players, hand, pot_cents=15, factor=2)
        except RuleError:
            continue
        yield from (line.to_json() for line in score.explanation)


def said(app, language, lines):
    with a_reader(app), speaking(language):
        return {say_line(line) for line in lines}


def leftovers(texts, other_language):
    return {t for t in texts if other_language.search(t) or "%(" in t}


GAME_SYSTEMS = [
    (g.id, s, p)
    for g in GAMES.values()
    for s in g.systems
    for p in ([{}, {"kontra_shifts_burden": True}] if g.doublings else [{}])
]


@pytest.mark.parametrize(("game_id", "system_id", "params"), GAME_SYSTEMS)
def test_every_explanation_line_in_both_languages(app, game_id, system_id, params):
    lines = list(explanations(GAMES[game_id], system_id, params))
    assert lines
    german, english = said(app, "de", lines), said(app, "en", lines)
    assert not leftovers(german, ENGLISH)
    assert not leftovers(english, GERMAN)
    assert len(german) == len(english), "two lines that differ in one language differ in both"


def test_every_explanation_line_of_every_worked_example_in_both_languages(app):
    lines = []
    for vector in load_vectors():
        lines += [line.to_json() for line in score_vector(vector["request"]).explanation]
    german, english = said(app, "de", lines), said(app, "en", lines)
    assert not leftovers(german, ENGLISH), "German lines with English words"
    assert not leftovers(english, GERMAN), "English lines with German words"
    assert "Handspiel gewonnen, gereizt 76, 83 Augen" in german
    assert "hand game won, bid 76, took 83" in english


def rule_errors():
    """A hand of each kind of mistake, and the messages the engine gives for it."""
    cases = [
        ("haferltarock", "parlett-units", dict(declarer="Zoe", contract="frage", points=70)),
        ("haferltarock", "parlett-units", dict(declarer="Anton", contract="hand", points=200)),
        ("haferltarock", "parlett-units", dict(declarer="Anton", contract="frage", bid=76)),
        ("tarok-bettel", "multiples", dict(declarer="Anton", contract="bettel", points=3)),
        ("tarok", "points-kasse", dict(declarer="Anton", contract="hand")),
        (
            "tapp-tarock",
            "tapp-points",
            dict(
                declarer="Anton",
                contract="solo",
                points=40,
                bonuses=[{"id": "koepfe", "announced": True}],
            ),
        ),
        (
            "strohmandeln",
            "beck",
            dict(declarer="Anton", contract="game", points=40, bonuses=[{"id": "uhu"}]),
        ),
    ]
    for game_id, system_id, hand in cases:
        game = GAMES[game_id]
        players = PLAYERS[: game.active]
        with pytest.raises(RuleError) as caught:
            score_hand(
                game_id, system_id, {}, players=players, hand=hand_from_json(hand, game.total)
            )
        yield caught.value.fields


def test_rule_errors_in_both_languages(app):
    for fields in rule_errors():
        with a_reader(app):
            with speaking("de"):
                german = say_all(fields)
            with speaking("en"):
                english = say_all(fields)
        assert german and english and german != english
        assert not ENGLISH.search(german), german
        assert not GERMAN.search(english), english


def test_money_and_numbers_follow_the_locale(app):
    with a_reader(app):
        with speaking("de"):
            assert euros(120) == "1,20 €"
            assert euros(-123456) == "−1.234,56 €"
            assert euros(5, signed=True) == "+0,05 €"
            assert (
                say(
                    Rules.build("tarok", "points-kasse", {})
                    .system.params[3]
                    .describe(Rules.build("tarok", "points-kasse", {}).params["rate_frage"])
                )
                == "0,5"
            )
        with speaking("en"):
            assert euros(120) == "€1.20"
            assert euros(-123456) == "−€1,234.56"
            assert euros(0, signed=True) == "€0.00"


# ---- the catalogues -------------------------------------------------------------------


def extracted() -> dict[str, tuple[str, ...]]:
    """Every msgid in the code and the templates (as `make messages` extracts them)."""
    found: dict[str, tuple[str, ...]] = {}
    method_map = [("scorer/**.py", "python"), ("templates/**.html", "jinja2")]
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map, keywords=KEYWORDS, comment_tags=()
    ):
        ids = message if isinstance(message, tuple) else (message,)
        if ids and ids[0]:
            found[ids[0]] = ids
    return found


def catalogue(language: str):
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as f:
        return read_po(f, locale=language)


PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


@pytest.mark.parametrize("language", ["de", "en"])
def test_every_string_has_a_translation_and_every_entry_is_used(language):
    strings = extracted()
    entries = {m.id[0] if isinstance(m.id, tuple) else m.id: m for m in catalogue(language) if m.id}
    missing = sorted(set(strings) - set(entries))
    untranslated = sorted(
        key
        for key, m in entries.items()
        if not (all(m.string) if isinstance(m.string, tuple) else m.string)
    )
    unused = sorted(set(entries) - set(strings))
    assert not missing, f"no {language} entry for {missing[:20]}"
    assert not untranslated, f"no {language} translation of {untranslated[:20]}"
    assert not unused, f"{language} entries no code uses: {unused[:20]}"
    for key, m in entries.items():
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        wanted = set().union(*(PLACEHOLDER.findall(i) for i in ids))
        for form in forms:
            # A singular may leave the count out ("one hand"); nothing else may be dropped.
            assert set(PLACEHOLDER.findall(form)) | {"num"} >= wanted, (key, form)
            assert set(PLACEHOLDER.findall(form)) <= wanted, (key, form)


# ---- choosing the language --------------------------------------------------------------


def test_the_pages_speak_german_unless_asked(client):
    page = client.get("/")
    assert '<html lang="de">' in page.text
    english = client.get("/", headers={"Accept-Language": "en-GB,en;q=0.8"})
    assert '<html lang="en">' in english.text


def test_lang_in_the_address_is_remembered_by_this_device(client):
    first = client.get("/?lang=en")
    assert '<html lang="en">' in first.text
    assert "lang=en" in first.headers.get("Set-Cookie", "")
    again = client.get("/", headers={"Accept-Language": "de"})
    assert '<html lang="en">' in again.text
    back = client.get("/?lang=de")
    assert '<html lang="de">' in back.text
    assert '<html lang="de">' in client.get("/").text


def test_an_unknown_language_falls_back_and_sets_nothing(client):
    page = client.get("/?lang=xx")
    assert '<html lang="de">' in page.text
    assert "lang=" not in page.headers.get("Set-Cookie", "")


def test_the_api_speaks_english_unless_asked_for_german(client):
    bad = {
        "game": "tarok",
        "system": "points-kasse",
        "players": PLAYERS,
        "hand": {"declarer": "Zoe", "contract": "frage", "trump": "herz", "points": 70},
    }
    english = client.post("/api/v1/score", json=bad).get_json()["error"]
    german = client.post(
        "/api/v1/score", json=bad, headers={"Accept-Language": "de-AT,de;q=0.9"}
    ).get_json()["error"]
    assert english["code"] == german["code"] == "validation"
    assert set(english["fields"]) == set(german["fields"]) == {"declarer"}
    assert english["message"] == "the request breaks a rule"
    assert german["message"] == "die Anfrage verstößt gegen eine Regel"
    good = dict(bad, hand=dict(bad["hand"], declarer="Anton"))
    lines = client.post("/api/v1/score", json=good).get_json()["explanation"]
    deutsch = client.post("/api/v1/score", json=good, headers={"Accept-Language": "de"}).get_json()[
        "explanation"
    ]
    assert [line["cents"] for line in lines if "cents" in line] == [
        line["cents"] for line in deutsch if "cents" in line
    ]
    assert lines[0]["text"].startswith("won with 70")
    assert deutsch[0]["text"].startswith("gewonnen mit 70")


def test_dates_follow_the_locale(app):
    from datetime import date

    from scorer.reports.paper import Clock

    long_date = Clock().long_date

    with a_reader(app, "/?lang=en"):
        assert long_date(date(2026, 12, 2)) == "2 December 2026"
    with a_reader(app, "/"):
        assert long_date(date(2026, 12, 2)) == "2. Dezember 2026"


def test_a_score_sheet_in_each_language_is_its_own_file(app, client):
    body = {"game": "haferltarock", "system": "parlett-units", "players": PLAYERS}
    key = client.post("/api/v1/sessions", json=body).get_json()["key"]
    hand = {"declarer": "Anton", "contract": "frage", "points": 70}
    assert client.post(f"/api/v1/sessions/{key}/hands", json=hand).status_code == 201
    german = client.get(f"/api/v1/sessions/{key}/export.pdf?lang=de")
    english = client.get(f"/api/v1/sessions/{key}/export.pdf?lang=en")
    assert german.status_code == english.status_code == 200
    assert german.data != english.data
    cached = sorted(p.name for p in Path(app.config["PDF_CACHE"]).glob(f"{key}-*.pdf"))
    assert len(cached) == 2 and any("-de" in n for n in cached) and any("-en" in n for n in cached)
    again = client.get(f"/api/v1/sessions/{key}/export.pdf?lang=en")
    assert again.data == english.data  # from the cache


def test_choices_are_named_in_the_readers_words_never_by_id(client):
    """A wrong contract, suit, option or payment system: the message lists the choices as
    players call them, in the reader's language; the ids stay in the field names only."""
    from scorer.domain.message import Msg, one_of
    from scorer.domain.scoring import SUIT_NAMES

    table = client.post(
        "/api/v1/sessions",
        json={"game": "haferltarock", "system": "parlett-units", "players": ["A", "B", "C"]},
    ).get_json()["key"]
    wrong = {"declarer": "A", "contract": "solo", "points": 70}
    for language, said in (
        ("en", "must be one of: Frage, Hand (Solo)"),
        ("de", "bitte eines wählen: Frage, Hand (Solo)"),
    ):
        answer = client.post(
            f"/api/v1/sessions/{table}/hands", json=wrong, headers={"Accept-Language": language}
        )
        assert answer.status_code == 422
        assert answer.get_json()["error"]["fields"]["contract"] == [said]
    group = client.post(
        "/api/v1/groups",
        json={"game": "haferltarock", "system": "tapp-points", "members": ["A", "B", "C"]},
        headers={"Accept-Language": "de"},
    ).get_json()["error"]["fields"]["system"][0]
    assert "Einheiten (Parlett)" in group and "parlett-units" not in group
    # A message with choices survives its JSON form (stored explanation lines, errors).
    suits = one_of(SUIT_NAMES.values())
    assert Msg.from_json(suits.to_json()) == suits
    assert str(suits) == "must be one of: Acorns, Leaves, Hearts, Bells"


@pytest.mark.parametrize(
    "language, said",
    [
        ("de", "Feld kann nicht länger als 40 Zeichen sein."),
        ("en", "Field cannot be longer than 40 characters."),
    ],
)
def test_wtforms_own_messages_speak_the_readers_language(app, client, language, said):
    """A message WTForms writes itself (a name too long for the desk's form) is said in
    the reader's language by the one façade, as the page's own words are."""
    auth = organiser(app)
    t = created(client, auth, [], entry_fee_cents=0)
    app.config["WTF_CSRF_ENABLED"] = False
    log_in(client)
    headers = {"Accept-Language": language}
    sent = client.post(
        f"/turniere/{t['id']}/einlass/neu", data={"name": "N" * 41, "club": ""}, headers=headers
    )
    assert sent.status_code == 302
    page = client.get(sent.headers["Location"], headers=headers).get_data(as_text=True)
    assert said in page, page[:3000]
