"""The OpenAPI document describes exactly the API there is."""

from __future__ import annotations

import re

from scorer.api.openapi import document


def routes(app) -> set[tuple[str, str]]:
    found = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            found.add((path, method.lower()))
    return found


def documented(app) -> set[tuple[str, str]]:
    return {(path, method) for path, ops in document(app)["paths"].items() for method in ops}


def test_every_api_route_is_documented_and_every_documented_route_exists(app):
    assert routes(app) - documented(app) == set(), "routes missing from openapi.json"
    assert documented(app) - routes(app) == set(), "documented routes that do not exist"


def test_the_document_is_served_and_its_references_resolve(client):
    served = client.get("/api/v1/openapi.json")
    assert served.status_code == 200
    document = served.get_json()
    assert document["openapi"].startswith("3.1")
    text = served.get_data(as_text=True)
    for target in set(re.findall(r'"\$ref": ?"#/components/(\w+)/(\w+)"', text)):
        kind, name = target
        assert name in document["components"][kind], target


def test_every_path_parameter_is_declared(app):
    for path, ops in document(app)["paths"].items():
        names = set(re.findall(r"{(\w+)}", path))
        for method, op in ops.items():
            declared = {p["name"] for p in op.get("parameters", []) if p["in"] == "path"}
            assert declared == names, (method, path)
