/* Haferl: the table page's queue of hands, kept in this device's storage (per table) until
 * the server took them: each with the number the page showed for it, its fields, what the
 * waiting list shows of it and an Idempotency-Key. Nothing here needs a secure context
 * (plain http on the pub's Wi-Fi): no crypto.randomUUID. */
import { queueKey } from "./storage.js";

/** The queue of the table `key`: load(), store(queue), drop(id). When the storage refuses
 * (private mode), this page's memory only. */
export function queueOf(key) {
  const name = queueKey(key);
  let kept = null;
  function load() {
    try { return JSON.parse(localStorage.getItem(name)) || []; } catch { return kept || []; }
  }
  function store(queue) {
    kept = queue;
    try {
      if (queue.length) localStorage.setItem(name, JSON.stringify(queue));
      else localStorage.removeItem(name);
    } catch { /* kept in memory */ }
  }
  function drop(id) { store(load().filter((entry) => entry.id !== id)); }
  return { load, store, drop };
}

/** How many hands entered at the table `key` wait (for the start page's list). */
export function waitingAt(key) {
  try { return (JSON.parse(localStorage.getItem(queueKey(key))) || []).length; } catch { return 0; }
}

/** A new Idempotency-Key: 32 hex digits. */
export function newKey() {
  const bytes = new Uint8Array(16);
  (window.crypto || window.msCrypto).getRandomValues(bytes);
  return Array.prototype.map.call(bytes, (b) => (b + 256).toString(16).slice(1)).join("");
}
