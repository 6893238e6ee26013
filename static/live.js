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
 */
(function () {
  "use strict";
  var POLL_MS = 1500, NOTICE_MS = 6000;
  var watch = document.getElementById("live-watch");
  if (!watch || !window.fetch || !window.DOMParser) return;

  var url = watch.getAttribute("data-live");
  var etag = watch.getAttribute("data-live-etag");
  var timer = null, asking = null, again = false, online = true;
  var listeners = [], mine = {};
  var pending = 0, deferred = null;  // writes of this device under way; news held meanwhile

  function notice(text) {
    if (!text) return;
    var box = document.getElementById("live-notice");
    if (!box) {
      box = document.createElement("div");
      box.id = "live-notice";
      box.className = "live-notice";
      box.setAttribute("role", "status");
      box.addEventListener("click", function () { box.hidden = true; });  // tapped away
      document.body.appendChild(box);
    }
    box.textContent = text;
    box.hidden = false;
    clearTimeout(box.hideTimer);
    box.hideTimer = setTimeout(function () { box.hidden = true; }, NOTICE_MS);
  }

  function held(element) {
    var event = new CustomEvent("haferl:replace", { cancelable: true });
    return !element.dispatchEvent(event);
  }

  // The new page's regions in place of the old; true when the whole page must be loaded.
  function swap(doc) {
    var fresh = doc.getElementById("live-watch");
    if (!fresh) return true;
    if (fresh.getAttribute("data-live-shape") !== watch.getAttribute("data-live-shape")) {
      return true;
    }
    doc.querySelectorAll("[data-live-region][id]").forEach(function (region) {
      var old = document.getElementById(region.id);
      if (old && !held(old)) old.replaceWith(document.importNode(region, true));
    });
    doc.querySelectorAll("[data-live-fill][id]").forEach(function (region) {
      var old = document.getElementById(region.id);
      if (!old || held(old)) return;
      old.innerHTML = region.innerHTML;
      old.dispatchEvent(new CustomEvent("haferl:filled"));
    });
    var news = fresh.getAttribute("data-live-mark") !== watch.getAttribute("data-live-mark");
    watch.setAttribute("data-live-mark", fresh.getAttribute("data-live-mark"));
    if (news) {  // the hands entered so far (entry.js moves a half-entered hand along)
      var hands = parseInt(fresh.getAttribute("data-live-mark"), 10);
      document.dispatchEvent(new CustomEvent("haferl:news", { detail: { hands: hands } }));
    }
    watch.setAttribute("data-live-etag", fresh.getAttribute("data-live-etag"));
    etag = fresh.getAttribute("data-live-etag");
    return news ? fresh.getAttribute("data-live-news") || fresh.getAttribute("data-live-changed")
                : fresh.getAttribute("data-live-changed");
  }

  function setOnline(value) {
    if (value === online) return;
    online = value;
    listeners.forEach(function (fn) { fn(online); });
  }

  // Asks for the page; a change this device made itself (`mine`) brings no notice.
  function check() {
    if (asking) { again = true; return asking; }
    var headers = { "X-Haferl-Live": "1" };
    if (etag) headers["If-None-Match"] = '"' + etag + '"';
    asking = fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        setOnline(true);
        if (response.status === 304 || !response.ok) return null;
        return response.text();
      })
      .then(function (html) {
        if (html === null) return;
        var before = etag;
        var said = swap(new DOMParser().parseFromString(html, "text/html"));
        var quiet = mine[etag] || etag === before;
        if (said === true) {
          if (!document.querySelector("[data-live-fill]") ||
              !held(document.querySelector("[data-live-fill]"))) {
            location.reload();
            return;
          }
          said = watch.getAttribute("data-live-changed");
        }
        if (quiet) return;
        // While this device's own write is under way, the page may be the one it made:
        // said only once the write's answer shows it was another device's.
        if (pending) deferred = { etag: etag, said: said };
        else notice(said);
      })
      .catch(function () { setOnline(false); })
      .then(function () {
        asking = null;
        if (again) { again = false; return check(); }
      });
    return asking;
  }

  function schedule() {
    clearTimeout(timer);
    if (document.visibilityState !== "visible") return;
    timer = setTimeout(function () { check().then(schedule); }, POLL_MS);
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") check().then(schedule);
    else clearTimeout(timer);
  });
  window.addEventListener("online", function () { check().then(schedule); });
  schedule();

  window.Haferl = window.Haferl || {};
  window.Haferl.live = {
    /** The page as stored now, after a change this device made whose page has the ETag
     * `ownEtag` (that change brings no notice; another device's since then does). */
    refresh: function (ownEtag) { if (ownEtag) mine[ownEtag] = true; return check(); },
    /** A write of this device begins; `settle(ownEtag)` when its answer came (the ETag of
     * the page it made, or nothing when it made none). */
    expect: function () { pending++; },
    settle: function (ownEtag) {
      pending = Math.max(0, pending - 1);
      if (ownEtag) mine[ownEtag] = true;
      if (pending || !deferred) return;
      if (!mine[deferred.etag]) notice(deferred.said);
      deferred = null;
    },
    /** fn(online) whenever the server stops or starts answering. */
    onOnline: function (fn) { listeners.push(fn); },
    notice: notice
  };
})();
