/* Haferl: every hook between the templates and the scripts, in one place. The modules use
 * these constants, never the strings: a hook renamed here and in its template is renamed
 * everywhere. Attributes are named without brackets; SELECTOR(name) makes "[name]".
 *
 * Attribute / id / event          Set by (template)                    Used by (module)
 * ------------------------------  -----------------------------------  --------------------
 * data-theme (on <html>)          static/theme.js, theme-switch.js     theme-switch.js
 * data-theme-switch               base.html                            theme-switch.js
 * body.table-page                 table.html (body_class)              keep-awake.js
 * data-deals-hint                 tournaments/new.html                 deals-hint.js
 * data-door-search, data-door-name,
 *   data-door-none                tournaments/door.html                door-search.js
 * form.new-table                  new_table.html                       new-table.js
 * select.autosubmit, #game,       new_table.html (macros.html),        new-table.js
 *   #system                         tournaments/new.html, stammtisch/rules.html
 * data-player-row, data-clear,    macros.html (the players' rows)      new-table.js
 *   data-move
 * data-remember, data-url,        table.html, stammtisch/group.html    recent-tables.js
 *   data-said (JSON)
 * data-recent-tables,             index.html                           recent-tables.js
 *   data-said-waiting(-one)
 * #hand-form                      table.html, edit_hand.html           hand-form.js, preview.js
 * data-hide-for, data-show-for,   macros.html (the hand form)          hand-form.js
 *   data-durch-only, data-not-durch, data-not-durch-made
 * .counter data-total, data-at-most, data-at-least, data-too-many;
 *   input data-value, data-label  macros.html (the calculator)         counter.js
 * data-preview                    table.html, edit_hand.html (form)    preview.js
 * #preview, data-keep, data-hint, macros.html (the entry bar)          preview.js, bar.js,
 *   data-said-offline                                                    entry.js
 * #waiting                        macros.html (the entry bar)          bar.js
 * #live-watch, data-live, data-live-etag, data-live-shape, data-live-mark,
 *   data-live-news, data-live-changed
 *                                 macros.html (live_watch)             live.js, entry.js
 * data-live-region                table.html, hands.html, settle.html, live.js
 *                                   stammtisch/group.html, tournaments/show.html,
 *                                   tournaments/standings.html, macros.html
 * data-live-fill                  table.html (the hand form)           live.js
 * #live-notice                    made by live.js                      live.js
 * form[data-queue], data-token,   table.html (the hand form)           entry.js, token.js
 *   data-token-renew, data-said-* (sits-out, moved, waiting, waiting-one, sending,
 *   reload, refused, correct, drop)
 * .upcoming-seats data-number,    table.html                           entry.js
 *   data-active; .next-seats
 * data-required                   macros.html, scorer/table/hand_pages.py  entry.js
 * data-undo                       _recorded.html                       entry.js
 * #conflict, data-drop,           _conflict.html (the server's panel)  conflict.js
 *   data-renumber
 * data-entry, data-next,          made by conflict.js                  conflict.js
 *   data-correct
 *
 * Events (CustomEvent)            Sent by                              Heard by
 * haferl:replace (cancelable)     live.js, on a region or the form     entry.js (holds it)
 * haferl:filled                   live.js, conflict.js (the form)      hand-form.js, entry.js
 * haferl:cleared                  entry.js (the form)                  hand-form.js, preview.js
 * haferl:news {hands}             live.js (the document)               entry.js
 */

export const SELECTOR = (name) => "[" + name + "]";

// The theme (static/theme.js sets the same attribute before the page is drawn).
export const THEME = "data-theme";
export const THEME_SWITCH = "data-theme-switch";
export const TABLE_PAGE_CLASS = "table-page";

// New tournament, new table.
export const DEALS_HINT = "data-deals-hint";

// The desk at the door (tournaments/door.html).
export const DOOR_SEARCH = "data-door-search";
export const DOOR_NAME = "data-door-name";
export const DOOR_NONE = "data-door-none";
export const NEW_TABLE_FORM = "form.new-table";
export const AUTOSUBMIT = "select.autosubmit";
export const GAME_ID = "game";
export const SYSTEM_ID = "system";
export const PLAYER_ROW = "data-player-row";
export const CLEAR = "data-clear";
export const MOVE = "data-move";

// Tables used recently on this device.
export const REMEMBER = "data-remember";
export const REMEMBER_URL = "data-url";
export const REMEMBER_SAID = "data-said";
export const RECENT_TABLES = "data-recent-tables";

// The hand form.
export const HAND_FORM_ID = "hand-form";
export const HIDE_FOR = "data-hide-for";
export const SHOW_FOR = "data-show-for";
export const DURCH_ONLY = "data-durch-only";
export const NOT_DURCH = "data-not-durch";
export const NOT_DURCH_MADE = "data-not-durch-made";
export const REQUIRED = "data-required";

// The card-count calculator.
export const COUNTER = ".counter";
export const COUNT_SUM = ".count-sum";
export const COUNT_TOTAL = "data-total";
export const COUNT_VALUE = "data-value";
export const COUNT_LABEL = "data-label";
export const COUNT_AT_MOST = "data-at-most";
export const COUNT_AT_LEAST = "data-at-least";
export const COUNT_TOO_MANY = "data-too-many";

// The entry bar: the preview, what was saved, the queue.
export const PREVIEW_URL = "data-preview";
export const PREVIEW_ID = "preview";
export const WAITING_ID = "waiting";
export const KEEP = "data-keep";
export const HINT = "data-hint";
export const UNDO = "data-undo";

// Live pages.
export const LIVE_WATCH_ID = "live-watch";
export const LIVE_URL = "data-live";
export const LIVE_ETAG = "data-live-etag";
export const LIVE_SHAPE = "data-live-shape";
export const LIVE_MARK = "data-live-mark";
export const LIVE_NEWS = "data-live-news";
export const LIVE_CHANGED = "data-live-changed";
export const LIVE_REGION = "data-live-region";
export const LIVE_FILL = "data-live-fill";
export const LIVE_NOTICE_ID = "live-notice";

// The table page's queue, token and conflicts.
export const QUEUE = "data-queue";
export const TOKEN_URL = "data-token";
export const TOKEN_RENEW = "data-token-renew";
export const UPCOMING_SEATS = ".upcoming-seats";
export const NEXT_SEATS = ".next-seats";
export const SEAT_NUMBER = "data-number";
export const SEAT_ACTIVE = "data-active";
export const CONFLICT_ID = "conflict";
export const CONFLICT_ENTRY = "data-entry";
export const CONFLICT_NEXT = "data-next";
export const DROP = "data-drop";
export const RENUMBER = "data-renumber";
export const CORRECT = "data-correct";

// The page's words, translated: data-said-<name> on the element that needs them.
export const SAID = {
  offline: "data-said-offline",
  waiting: "data-said-waiting",
  waitingOne: "data-said-waiting-one",
  sitsOut: "data-said-sits-out",
  moved: "data-said-moved",
  sending: "data-said-sending",
  reload: "data-said-reload",
  refused: "data-said-refused",
  correct: "data-said-correct",
  drop: "data-said-drop",
};

// Events between the modules.
export const REPLACE_EVENT = "haferl:replace";
export const FILLED_EVENT = "haferl:filled";
export const CLEARED_EVENT = "haferl:cleared";
export const NEWS_EVENT = "haferl:news";
