"""Haferl: score keeping and settle-up for Tarock played with real cards.

The package itself loads nothing: `scorer.domain` (the rules engine) imports without
Flask or SQLAlchemy. `create_app` lives in `scorer.app` and is found here on first use.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from scorer.app import create_app

        return create_app
    raise AttributeError(f"module 'scorer' has no attribute {name!r}")
