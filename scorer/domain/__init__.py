"""The rules engine: games, payment systems, card points, ledger and settle-up.

Plain Python with no Flask and no SQLAlchemy in it. Everything money is integer cents.
Importing this package registers every game and payment system in `registry`.
"""

from scorer.domain import bavarian, strohmandeln, tapp  # noqa: F401  (registration)
from scorer.domain.model import Bonus, Hand, Line, Posting, RuleError, Score
from scorer.domain.registry import GAMES, SYSTEMS, get_game, get_system
from scorer.domain.scoring import score_hand

__all__ = [
    "GAMES",
    "SYSTEMS",
    "Bonus",
    "Hand",
    "Line",
    "Posting",
    "RuleError",
    "Score",
    "get_game",
    "get_system",
    "score_hand",
]
