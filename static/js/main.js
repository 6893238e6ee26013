/* Haferl: the pages' scripts, ES modules without a build step (see docs/ARCHITECTURE.md).
 * Small progressive enhancements: every action also works as a plain form post. Each
 * feature starts here, in this order: the hand form's listeners come before the queue's
 * (entry.js), as the live page's (live.js) do. static/theme.js stays a classic script,
 * loaded blocking in <head> so that the theme never flashes. */
import * as dealsHint from "./deals-hint.js";
import * as doorSearch from "./door-search.js";
import * as entry from "./entry.js";
import * as handForm from "./hand-form.js";
import * as keepAwake from "./keep-awake.js";
import * as live from "./live.js";
import * as newTable from "./new-table.js";
import * as recentTables from "./recent-tables.js";
import * as themeSwitch from "./theme-switch.js";

themeSwitch.start();
keepAwake.start();
dealsHint.start();
doorSearch.start();
newTable.start();
recentTables.start();
handForm.start();
live.start();
entry.start();
