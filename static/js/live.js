/* Haferl: pages that follow the table live (see scorer/live.py).
 *
 * A live page has a #live-watch element naming its address and ETag. Every POLL_MS while
 * the page is in sight, the page is asked for again with If-None-Match: while nothing
 * changed the answer is an empty 304. When it changed, the new page's live regions
 * ([data-live-region], by id) take the place of the old ones, and [data-live-fill] elements
 * (the entry form) get the new contents, unless something holds them (an event
 * "haferl:replace" on them that is cancelled: a hand half entered). A short notice says
 * what came in, and "haferl:news" on the document tells the entry form how many hands are
 * entered now. Nothing here moves the form: the regions above it keep their size, and the
 * notice floats over the page.
 *
 * start() begins; refresh, expect, settle, onOnline and notice are for the table page's
 * queue (entry.js), and do nothing on a page that is not live.
 */
import {
  FILLED_EVENT, LIVE_CHANGED, LIVE_ETAG, LIVE_FILL, LIVE_MARK, LIVE_NEWS, LIVE_NOTICE_ID,
  LIVE_REGION, LIVE_SHAPE, LIVE_URL, LIVE_WATCH_ID, NEWS_EVENT, REPLACE_EVENT, SELECTOR,
} from "./hooks.js";

const POLL_MS = 1500, NOTICE_MS = 6000;

let watch = null, url = null, etag = null;
let timer = null, asking = null, again = false, online = true;
const listeners = [], mine = {};
let pending = 0, deferred = null;  // writes of this device under way; news held meanwhile

/** A short notice floating over the page, tapped away or gone after NOTICE_MS. */
export function notice(text) {
  if (!text) return;
  let box = document.getElementById(LIVE_NOTICE_ID);
  if (!box) {
    box = document.createElement("div");
    box.id = LIVE_NOTICE_ID;
    box.className = "live-notice";
    box.setAttribute("role", "status");
    box.addEventListener("click", () => { box.hidden = true; });  // tapped away
    document.body.appendChild(box);
  }
  box.textContent = text;
  box.hidden = false;
  clearTimeout(box.hideTimer);
  box.hideTimer = setTimeout(() => { box.hidden = true; }, NOTICE_MS);
}

function held(element) {
  const event = new CustomEvent(REPLACE_EVENT, { cancelable: true });
  return !element.dispatchEvent(event);
}

// The new page's regions in place of the old; true when the whole page must be loaded.
function swap(doc) {
  const fresh = doc.getElementById(LIVE_WATCH_ID);
  if (!fresh) return true;
  if (fresh.getAttribute(LIVE_SHAPE) !== watch.getAttribute(LIVE_SHAPE)) return true;
  doc.querySelectorAll(SELECTOR(LIVE_REGION) + "[id]").forEach((region) => {
    const old = document.getElementById(region.id);
    if (old && !held(old)) old.replaceWith(document.importNode(region, true));
  });
  doc.querySelectorAll(SELECTOR(LIVE_FILL) + "[id]").forEach((region) => {
    const old = document.getElementById(region.id);
    if (!old || held(old)) return;
    old.innerHTML = region.innerHTML;
    old.dispatchEvent(new CustomEvent(FILLED_EVENT));
  });
  const news = fresh.getAttribute(LIVE_MARK) !== watch.getAttribute(LIVE_MARK);
  watch.setAttribute(LIVE_MARK, fresh.getAttribute(LIVE_MARK));
  if (news) {  // the hands entered so far (entry.js moves a half-entered hand along)
    const hands = parseInt(fresh.getAttribute(LIVE_MARK), 10);
    document.dispatchEvent(new CustomEvent(NEWS_EVENT, { detail: { hands } }));
  }
  watch.setAttribute(LIVE_ETAG, fresh.getAttribute(LIVE_ETAG));
  etag = fresh.getAttribute(LIVE_ETAG);
  return news ? fresh.getAttribute(LIVE_NEWS) || fresh.getAttribute(LIVE_CHANGED)
              : fresh.getAttribute(LIVE_CHANGED);
}

function setOnline(value) {
  if (value === online) return;
  online = value;
  listeners.forEach((fn) => fn(online));
}

// Asks for the page; a change this device made itself (`mine`) brings no notice.
function check() {
  if (asking) { again = true; return asking; }
  const headers = { "X-Haferl-Live": "1" };
  if (etag) headers["If-None-Match"] = '"' + etag + '"';
  asking = fetch(url, { headers, cache: "no-store", credentials: "same-origin" })
    .then((response) => {
      setOnline(true);
      if (response.status === 304 || !response.ok) return null;
      return response.text();
    })
    .then((html) => {
      if (html === null) return;
      const before = etag;
      let said = swap(new DOMParser().parseFromString(html, "text/html"));
      const quiet = mine[etag] || etag === before;
      if (said === true) {
        const fill = document.querySelector(SELECTOR(LIVE_FILL));
        if (!fill || !held(fill)) {
          location.reload();
          return;
        }
        said = watch.getAttribute(LIVE_CHANGED);
      }
      if (quiet) return;
      // While this device's own write is under way, the page may be the one it made:
      // said only once the write's answer shows it was another device's.
      if (pending) deferred = { etag, said };
      else notice(said);
    })
    .catch(() => { setOnline(false); })
    .then(() => {
      asking = null;
      if (again) { again = false; return check(); }
    });
  return asking;
}

function schedule() {
  clearTimeout(timer);
  if (document.visibilityState !== "visible") return;
  timer = setTimeout(() => { check().then(schedule); }, POLL_MS);
}

/** Follows the page when it is a live one (a #live-watch). */
export function start() {
  const found = document.getElementById(LIVE_WATCH_ID);
  if (!found || !window.fetch || !window.DOMParser) return;
  watch = found;
  url = watch.getAttribute(LIVE_URL);
  etag = watch.getAttribute(LIVE_ETAG);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") check().then(schedule);
    else clearTimeout(timer);
  });
  window.addEventListener("online", () => { check().then(schedule); });
  schedule();
}

/** The page as stored now, after a change this device made whose page has the ETag
 * `ownEtag` (that change brings no notice; another device's since then does). */
export function refresh(ownEtag) {
  if (!watch) return Promise.resolve();
  if (ownEtag) mine[ownEtag] = true;
  return check();
}

/** A write of this device begins; `settle(ownEtag)` when its answer came (the ETag of the
 * page it made, or nothing when it made none). */
export function expect() {
  if (watch) pending++;
}

export function settle(ownEtag) {
  if (!watch) return;
  pending = Math.max(0, pending - 1);
  if (ownEtag) mine[ownEtag] = true;
  if (pending || !deferred) return;
  if (!mine[deferred.etag]) notice(deferred.said);
  deferred = null;
}

/** fn(online) whenever the server stops or starts answering. */
export function onOnline(fn) {
  listeners.push(fn);
}
