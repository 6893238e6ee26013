"""Every limit on what a request, a form or a file may hold, each with a name of its own.

Forms, the API's checks and its OpenAPI document, the file formats and the database schema
read them from here; a limit is changed in one place. The numbers are generous for any
real evening or tournament and bound what one request can make the server store, fold,
list or print.
"""

# --- names and identifiers ------------------------------------------------------------
MAX_PLAYER_NAME = 40
"""Characters of a player's name."""
MAX_TABLE_NAME = 80
"""Characters of an evening's (a table's) name."""
MAX_GROUP_NAME = 80
"""Characters of a Stammtisch group's name."""
MAX_TOURNAMENT_NAME = 50
"""Characters of a tournament's name."""
MAX_ID = 40
"""Characters of an identifier in a hand's facts (a game, a contract, a bonus)."""
MAX_IDEMPOTENCY_KEY = 200
"""Characters of an `Idempotency-Key` header."""
MAX_TABLE_LINK = 300
"""Characters of a table's link or key typed into the "open a table" form."""

# --- an organiser's account -----------------------------------------------------------
MAX_ORGANISER_NAME = 80
"""Characters of an organiser's name."""
MAX_EMAIL = 200
"""Characters of an organiser's e-mail address."""
MAX_PASSWORD = 200
"""Characters of a password as typed."""
MAX_SETUP_CODE = 40
"""Characters of the setup code the server shows when it starts."""

# --- a hand ---------------------------------------------------------------------------
MAX_SEATS = 12
"""Names a hand's facts may list (partners, players who said Kontra, …)."""
MAX_BONUSES = 20
"""Bonuses announced or made in one hand."""

# --- an evening -----------------------------------------------------------------------
MAX_EVENING_HANDS = 2000
"""Hands an evening (or an imported evening) may hold."""
MAX_EVENING_PLAYERS = 8
"""Names in an evening's file or lineup (players who came and went included)."""
MAX_PARAMS = 64
"""Rule parameters in an evening's file."""
MAX_LINEUPS = 200
"""Changes of players in an evening's file."""
FORM_PLAYERS = 4
"""Player fields on the new-table form (a table seats three or four)."""

# --- a group and a tournament ---------------------------------------------------------
MAX_GROUP_MEMBERS = 40
"""Members of a Stammtisch group."""
MAX_MEMBERS_TEXT = 2000
"""Characters of the new-group form's list of members (one per line)."""
MAX_TOURNAMENT_PLAYERS = 1500
"""Players of a tournament: the largest real events (the Tarock record, 424; Schafkopf and
Skat championships, 464 to 476; a Skat cup caps its field at 1,400) fit."""
MAX_CLUB_NAME = 60
"""A player's club, as he writes it at registration."""
MAX_ENTRY_FEE_CENTS = 100_000
"""An entry fee up to 1,000 € (Bavarian club events keep it at 15 €)."""
MAX_CHARITY_CENTS = 1_000_000
"""One gift to the charity pot, up to 10,000 €."""
DESK_CODE_DIGITS = 4
"""The desk's code a player types on his phone to check himself in."""

MAX_TOURNAMENT_ROUNDS = 20
"""Rounds of a tournament."""
MAX_DEALS_PER_PLAYER = 20
"""Deals of each player at a tournament table in one round."""
MAX_ADJUSTMENT_REASON = 200
"""Characters of the reason of a director's adjustment."""
MAX_ADJUSTMENT_POINTS = 10_000
"""Points of one adjustment, either way."""
MAX_TOURNAMENT_TABLES = MAX_TOURNAMENT_PLAYERS // 3
"""Tables of a round: every player seated, three at a table at least."""

# --- files and bodies -----------------------------------------------------------------
MAX_UPLOAD_BYTES = 2 * 1024 * 1024
"""Bytes of a request body or an uploaded evening's file."""
MAX_ARCHIVE_BYTES = 8 * 1024 * 1024
"""Bytes of a group's or a tournament's archive (the import endpoints only)."""
MAX_ARCHIVE_EVENINGS = 1000
"""Evenings in a group's archive."""
MAX_ARCHIVE_EVENTS = 10_000
"""Lines of a group's history in its archive."""
MAX_ARCHIVE_HANDS = 20_000
"""Hands in an archive, all its evenings together."""
