"""The worked examples of RULES.md (tests/data/rules-vectors.json): every one through the
domain function and through POST /api/v1/score."""

from __future__ import annotations

import pytest

from tests.conftest import dispose, load_vectors, make_app
from tests.support.vectors import score_vector

VECTORS = load_vectors()
IDS = [v["id"] for v in VECTORS]


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    """One app for the module: POST /api/v1/score stores nothing."""
    app = make_app(tmp_path_factory.mktemp("vectors"))
    yield app.test_client()
    dispose(app)


def test_vectors_are_there():
    assert len(VECTORS) >= 25
    assert len(set(IDS)) == len(IDS), "example ids are unique"
    systems = {v["request"]["system"] for v in VECTORS}
    # every payment system but furr has at least one worked example
    assert len(systems) >= 10


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_vector_domain(vector):
    request, expect = vector["request"], vector["expect"]
    players = request["players"]
    score = score_vector(request)
    assert score.result == expect["result"]
    net = score.net([*players, "pot"])
    assert net == expect["net"]
    assert sum(net.values()) == 0
    assert all(p.cents > 0 for p in score.postings)
    assert score.explanation, "every hand explains itself"


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_vector_api(api, vector):
    request, expect = vector["request"], vector["expect"]
    response = api.post("/api/v1/score", json=request)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["result"] == expect["result"]
    assert body["net"] == expect["net"]
    assert sum(body["net"].values()) == 0
    assert all(p["cents"] > 0 for p in body["postings"])
    assert body["explanation"] and all("text" in line for line in body["explanation"])
