"""The static files under the version of their contents (`scorer.web.assets`): the pages
name them there, the browser keeps them for a year, a module's relative import lands under
the same version, another version or none is given today's file unkept, and nothing
outside static/ is given."""

from __future__ import annotations

import re

from scorer.web.assets import KEPT_FOR, contents_version


def test_the_pages_name_every_file_under_todays_version(client):
    static = client.application.static_url_path
    assert re.fullmatch(r"/static/[0-9a-f]{12}", static)
    page = client.get("/").get_data(as_text=True)
    named = re.findall(r'(?:href|src)="(/static/[^"]+)"', page)
    assert named and all(address.startswith(f"{static}/") for address in named), named


def test_todays_files_are_kept_for_a_year_without_asking_again(client):
    static = client.application.static_url_path
    for name in ("style.css", "js/main.js", "suits/herz.svg"):
        response = client.get(f"{static}/{name}")
        assert response.status_code == 200, name
        control = response.cache_control
        assert control.max_age == KEPT_FOR and control.immutable and control.public, name
        assert not control.no_cache and not control.no_store, name
        again = client.get(f"{static}/{name}", headers={"If-None-Match": response.headers["ETag"]})
        assert again.status_code == 304, name
        response.close()


def test_a_module_imports_its_siblings_under_the_same_version(client):
    """`import … from "./hooks.js"` in /static/<version>/js/main.js is fetched from
    /static/<version>/js/hooks.js: kept like the page's own."""
    static = client.application.static_url_path
    main = client.get(f"{static}/js/main.js").get_data(as_text=True)
    sibling = re.search(r'from "\./([\w.-]+\.js)"', main)
    assert sibling is not None
    response = client.get(f"{static}/js/{sibling[1]}")
    assert response.status_code == 200 and response.cache_control.immutable


def test_another_version_or_none_is_given_todays_file_to_ask_for_again(client):
    """A page opened before an upgrade that asks for a file later, or an old link."""
    today = client.get(f"{client.application.static_url_path}/style.css").get_data()
    for address in ("/static/0123456789ab/style.css", "/static/style.css"):
        response = client.get(address)
        assert response.status_code == 200, address
        assert response.get_data() == today, address
        assert response.cache_control.no_cache and not response.cache_control.immutable, address


def test_nothing_outside_static_and_nothing_missing_is_given(client):
    static = client.application.static_url_path
    for address in (
        f"{static}/nothing.css",
        "/static/0123456789ab/nothing.css",
        "/static/../pyproject.toml",
        "/static/0123456789ab/../../pyproject.toml",
        "/static/%2e%2e/pyproject.toml",
        f"{static}/%2e%2e/%2e%2e/pyproject.toml",
    ):
        response = client.get(address)
        assert response.status_code == 404, address
        assert b"[project]" not in response.get_data(), address


def test_the_version_changes_with_any_files_name_or_contents(tmp_path):
    folder = tmp_path / "static"
    (folder / "js").mkdir(parents=True)
    (folder / "js" / "main.js").write_text("one")
    first = contents_version(folder)
    contents_version.cache_clear()
    assert contents_version(folder) == first  # the same files: the same version
    (folder / "js" / "main.js").write_text("two")
    contents_version.cache_clear()
    changed = contents_version(folder)
    (folder / "js" / "main.js").rename(folder / "js" / "entry.js")
    contents_version.cache_clear()
    renamed = contents_version(folder)
    assert len({first, changed, renamed}) == 3
