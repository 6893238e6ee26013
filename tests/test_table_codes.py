"""A table's short code: typed on a second device's start page, case and look-alikes
forgiven, an open table's only, and each address's misses counted."""

from __future__ import annotations

import re

import pytest

from scorer.store import table_codes
from tests.conftest import dispose, make_app
from tests.support.tables import new_table, table_url


@pytest.mark.parametrize(
    "typed,stored",
    [
        ("K7M3-QXZ9", "K7M3QXZ9"),
        ("k7m3 qxz9", "K7M3QXZ9"),
        ("  K7M3QXZ9 ", "K7M3QXZ9"),
        ("IL0O-1234", "11001234"),  # I and L read as 1, O as 0
        ("K7M3-QXZ", None),
        ("K7M3-QXZ99", None),
        ("UUUU-UUUU", None),  # no U in Crockford's alphabet
        ("K7M3-QXZ\u00e4", None),
        ("", None),
    ],
)
def test_what_is_typed_is_read_as_a_code(typed, stored):
    assert table_codes.normalized(typed) == stored


def test_a_fresh_code_is_eight_characters_of_the_alphabet():
    codes = {table_codes.new_code() for _ in range(200)}
    assert len(codes) == 200
    assert all(table_codes.normalized(code) == code for code in codes)


def shown_code(html: str) -> str:
    match = re.search(r'<strong class="code">([0-9A-Z]{4}-[0-9A-Z]{4})</strong>', html)
    assert match, "the table page shows no code"
    return match.group(1)


def test_the_code_under_the_qr_opens_the_table_as_typed(client):
    url = table_url(new_table(client))
    code = shown_code(client.get(url).get_data(as_text=True))
    typed = code.lower().replace("-", " ").replace("1", "l").replace("0", "o")
    response = client.post("/oeffnen", data={"code": typed})
    assert response.status_code == 302 and response.headers["Location"].endswith(url)
    # The link and the key still open it.
    assert client.post("/oeffnen", data={"code": "http://x" + url}).status_code == 302


def test_a_closed_tables_code_opens_nothing(client):
    url = table_url(new_table(client))
    code = shown_code(client.get(url).get_data(as_text=True))
    client.post(url + "/schliessen", data={})
    assert 'class="code"' not in client.get(url).get_data(as_text=True)
    response = client.post("/oeffnen", data={"code": code})
    assert response.status_code == 422
    assert "Kein offener Tisch mit diesem Code" in response.get_data(as_text=True)


def test_an_address_that_misses_again_and_again_is_refused(tmp_path):
    app = make_app(tmp_path, RATE_LIMITS=True)
    try:
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = "10.8.7.6"
        url = table_url(new_table(client))
        code = shown_code(client.get(url).get_data(as_text=True))
        for _ in range(3):  # a right code never counts
            assert client.post("/oeffnen", data={"code": code}).status_code == 302
        misses = [
            client.post("/oeffnen", data={"code": "AAAA-AAAA"}).status_code for _ in range(11)
        ]
        assert misses == [422] * 10 + [429]
        assert client.post("/oeffnen", data={"code": code}).status_code == 429  # for a while
        other = app.test_client()
        other.environ_base["REMOTE_ADDR"] = "10.8.7.5"
        assert other.post("/oeffnen", data={"code": code}).status_code == 302
    finally:
        dispose(app)
