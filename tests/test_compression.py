"""Pages, JSON and styles go out compressed to a client that accepts it
(`scorer.extensions.compress`), and a live page's ETag is the same either way: a poll
with it gets 304 whether its page came compressed or not."""

from __future__ import annotations

import gzip
import zlib

from tests.support.tables import api_hand, new_table, table_url
from tests.support.tournaments import created, organiser

GZIP = {"Accept-Encoding": "gzip, deflate"}
"""What Chromium sends over plain http (br and zstd only over https)."""


def test_pages_json_and_styles_are_compressed_for_a_client_that_accepts_it(client):
    url = table_url(new_table(client))
    api_hand(client, url, "Anton")
    key = url.rsplit("/", 1)[1]
    static = client.application.static_url_path  # as the pages name them: web.assets
    files = (f"{static}/style.css", f"{static}/js/main.js", f"{static}/js/entry.js")
    for address in (url, url + "/spiele", f"/api/v1/sessions/{key}", *files):
        plain = client.get(address)
        packed = client.get(address, headers=GZIP)
        assert plain.status_code == packed.status_code == 200, address
        assert "Content-Encoding" not in plain.headers, address
        assert packed.headers["Content-Encoding"] in ("gzip", "deflate"), address
        assert "Accept-Encoding" in packed.headers["Vary"], address
        gzipped = packed.headers["Content-Encoding"] == "gzip"
        unpack = gzip.decompress if gzipped else zlib.decompress
        assert unpack(packed.get_data()) == plain.get_data(), address
        assert len(packed.get_data()) < len(plain.get_data()), address
        plain.close()
        packed.close()


def test_a_live_page_keeps_its_etag_compressed_and_answers_304_to_it(client):
    url = table_url(new_table(client))
    key = url.rsplit("/", 1)[1]
    for address in (url, f"/api/v1/sessions/{key}"):
        plain = client.get(address).headers["ETag"]
        packed = client.get(address, headers=GZIP).headers["ETag"]
        assert plain == packed and packed.startswith('W/"'), address
        again = client.get(address, headers={**GZIP, "If-None-Match": packed})
        assert again.status_code == 304 and again.get_data() == b"", address
        strong = client.get(address, headers={"If-None-Match": packed[2:]})
        assert strong.status_code == 304, address  # how static/js/live.js asks


def test_a_pdf_is_sent_as_it_is(client):
    key = table_url(new_table(client)).rsplit("/", 1)[1]
    sheet = client.get(f"/api/v1/sessions/{key}/export.pdf", headers=GZIP)
    assert sheet.status_code == 200 and "Content-Encoding" not in sheet.headers
    assert sheet.get_data().startswith(b"%PDF")


def test_a_server_told_not_to_compress_sends_even_the_kept_standings_plain(tmp_path):
    """`SCORER_COMPRESS_REGISTER=false` (bench/compression.py's plain server): the kept
    standings, which gzip themselves once for all, go out plain too."""
    from tests.conftest import dispose, make_app

    for register, encoded in ((True, "gzip"), (False, None)):
        folder = tmp_path / str(register)
        folder.mkdir()
        app = make_app(folder, COMPRESS_REGISTER=register)
        client = app.test_client()
        tournament = created(client, organiser(app), [f"Spieler {i}" for i in range(1, 7)])
        for address in (
            f"/turnier/{tournament['key']}/stand",
            f"/api/v1/standings/{tournament['key']}",
        ):
            answer = client.get(address, headers=GZIP)
            assert answer.status_code == 200
            assert answer.headers.get("Content-Encoding") == encoded, (register, address)
        dispose(app)
