"""What a table announces, for those who build on it to listen: a tournament closes its
round when its last table is done, a Stammtisch group takes back its Haferl when an
evening closes. The table never imports its listeners (no import cycles).

Receivers run inside the sender's transaction, holding its locks; an exception from one
(a refusal) undoes the whole write.
"""

from __future__ import annotations

from blinker import Namespace

_signals = Namespace()

table_done = _signals.signal("table-done")
"""A table with planned hands has them all (sender: the TableSession)."""

table_closed = _signals.signal("table-closed")
"""An evening was closed (sender: the TableSession)."""

table_reopened = _signals.signal("table-reopened")
"""A closed evening was opened again (sender: the TableSession)."""

hand_changing = _signals.signal("hand-changing")
"""A stored hand is about to be corrected or struck (sender: the TableSession; `by`: the
organiser who does it, or None for a table's key). A receiver may refuse (raise), or
answer True to allow it at a closed table."""

hand_changed = _signals.signal("hand-changed")
"""A stored hand was corrected or struck (sender: the TableSession; `number`, `before`,
`after` (None when struck) and `by`)."""
