"""Every hand reads whole in the hand list, on the score sheet (PDF) and in the spreadsheet
(CSV): Tapp's and Strohmandeln's bonuses and announcements, Durch once, no trick, the
Kontra; no contract cut off on the sheet; no stake for a round before a player came."""

from __future__ import annotations

import csv
import io

from tests.support.pdfs import pdf_text
from tests.support.tables import PLAYERS3, change_players, new_table, record, table_url

API = "/api/v1"
FAILED_PAGAT = {"id": "pagat_ultimo", "side": "declarer", "announced": True, "made": False}


def session(client, game: str, system: str, players=PLAYERS3, **params) -> str:
    body = {"game": game, "system": system, "players": players, "params": params}
    response = client.post(f"{API}/sessions", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["key"]


def hand(client, key: str, **facts) -> None:
    response = client.post(f"{API}/sessions/{key}/hands", json=facts)
    assert response.status_code == 201, response.get_json()


def sheet(client, key: str) -> str:
    return pdf_text(client.get(f"{API}/sessions/{key}/export.pdf").data)


def spreadsheet(client, key: str) -> list[dict[str, str]]:
    data = client.get(f"{API}/sessions/{key}/export.csv?lang=en").data.decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(data), delimiter=","))


def test_a_failed_announced_bonus_is_in_the_list_the_sheet_and_the_spreadsheet(client):
    key = session(client, "tapp-tarock", "tapp-points")
    hand(client, key, declarer="Anton", contract="unterer", points=50, bonuses=[FAILED_PAGAT])
    said = "Pagat Ultimo, Spieler: angesagt, verloren"
    html = client.get(f"/t/{key}/spiele").get_data(as_text=True)
    assert f'<span class="badge">{said}</span>' in html
    assert said in sheet(client, key)
    [row] = [r for r in spreadsheet(client, key) if r["Name"] == "Anton"]
    assert row["Extras"] == "Pagat Ultimo, declarer: announced, lost"


def test_a_strohmandeln_bonus_reads_whole(client):
    from scorer.domain import GAMES

    game = GAMES["strohmandeln"]
    bonus_id = next(iter(game.bonus_names))
    key = session(client, "strohmandeln", "beck", players=["Anton", "Berta"])
    bonus = {"id": bonus_id, "side": "defenders", "announced": False, "made": True}
    hand(client, key, declarer="Anton", contract="game", points=70, bonuses=[bonus])
    html = client.get(f"/t/{key}/spiele").get_data(as_text=True)
    assert ", Gegenpartei: gemacht</span>" in html
    assert ", Gegenpartei: gemacht" in sheet(client, key)


def test_durch_is_said_once_and_no_contract_is_cut_off_on_the_sheet(client):
    key = session(client, "haferltarock", "levels")
    hand(client, key, declarer="Anton", contract="hand", bid="durch", points=120, all_tricks=True)
    hand(client, key, declarer="Berta", contract="frage", points=0, no_tricks=True, doublings=1)
    html = client.get(f"/t/{key}/spiele").get_data(as_text=True)
    assert "Hand Durch" in html and "Durch</span>" not in html  # the bid says it
    text = sheet(client, key)
    assert "…" not in text
    assert "keinen Stich · Kontra" in text  # on the hand's own line beneath it, whole
    rows = spreadsheet(client, key)
    assert {r["Extras"] for r in rows if r["Declarer"] == "Berta"} == {"no trick · Kontra"}


def test_no_stake_is_shown_for_a_round_before_a_player_came(client):
    url = table_url(new_table(client, game="haferltarock", players=PLAYERS3))
    record(client, url)
    change_players(client, url, ["Anton", "Berta", "Charlotte", "Dieter"])
    record(client, url)
    text = sheet(client, url.rsplit("/", 1)[-1])
    first = next(line for line in text.splitlines() if line.startswith("Runde 1:"))
    assert "0,00" not in first and "–" in first  # Dieter was not there yet
