/* Haferl: tables used recently on this device, kept in its own storage, never in a cookie.
 * A table's page (data-remember) is remembered; the start page (data-recent-tables) lists
 * them, with the hands entered there that the server has not taken yet (queue.js). */
import { RECENT_TABLES, REMEMBER, REMEMBER_SAID, REMEMBER_URL, SAID, SELECTOR } from "./hooks.js";
import { RECENT_KEY } from "./storage.js";
import { waitingAt } from "./queue.js";
import { said } from "./words.js";

const RECENT_MAX = 8;

function recentTables() {
  try { return JSON.parse(localStorage.getItem(RECENT_KEY)) || []; } catch { return []; }
}

export function start() {
  const remember = document.querySelector(SELECTOR(REMEMBER));
  if (remember) {
    let words = {};
    try { words = JSON.parse(remember.getAttribute(REMEMBER_SAID)) || {}; } catch { words = {}; }
    const entry = { url: remember.getAttribute(REMEMBER_URL), said: words };
    const others = recentTables().filter((t) => t.url !== entry.url);
    try {
      localStorage.setItem(RECENT_KEY, JSON.stringify([entry].concat(others).slice(0, RECENT_MAX)));
    } catch { /* private mode: nothing remembered */ }
  }
  const recentBox = document.querySelector(SELECTOR(RECENT_TABLES));
  if (!recentBox) return;
  const list = recentBox.querySelector("ul");
  const lang = document.documentElement.lang;
  recentTables().forEach((t) => {
    if (typeof t.url !== "string" || !/^\/[ts]\//.test(t.url)) return;
    // Each language's words were kept; an entry from before has one of each only.
    const words = (t.said && (t.said[lang] || t.said.de)) || { name: t.name, summary: t.summary };
    const link = document.createElement("a");
    link.className = "button wide";
    link.href = t.url;
    const strong = document.createElement("strong");
    strong.textContent = words.name || "";
    link.appendChild(strong);
    link.appendChild(document.createTextNode(" · " + (words.summary || "")));
    const waiting = waitingAt(t.url.split("/")[2]);
    if (waiting) {
      const note = document.createElement("span");
      note.className = "waiting-note";
      note.textContent = waiting === 1 ? said(recentBox, SAID.waitingOne)
        : said(recentBox, SAID.waiting, { count: waiting });
      link.appendChild(document.createTextNode(" · "));
      link.appendChild(note);
    }
    const item = document.createElement("li");
    item.appendChild(link);
    list.appendChild(item);
  });
  if (list.children.length) recentBox.hidden = false;
}
