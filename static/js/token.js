/* Haferl: the table page's form token, renewed while the page is open (see
 * scorer/table/page_token.py): a break of an hour must not make the next hand "out of
 * date". Every form on the page takes the new one; Undo and the other buttons of the page
 * post plainly, with a fresh token. */
import { TOKEN_RENEW, TOKEN_URL } from "./hooks.js";

const RETRY_MS = 30000;
let tokenUrl = null, tokenTimer = null, renewing = null;

/** A fresh token in every form of the page; true when the server gave one. */
export function renewToken() {
  if (!tokenUrl) return Promise.resolve(false);
  if (renewing) return renewing;
  renewing = fetch(tokenUrl, { credentials: "same-origin", cache: "no-store" })
    .then((r) => (r.ok ? r.json() : null))
    .then((data) => {
      renewing = null;
      if (!data || !data.csrf_token) return false;
      document.querySelectorAll("input[name=csrf_token]").forEach((input) => {
        input.value = data.csrf_token;
      });
      clearTimeout(tokenTimer);
      tokenTimer = setTimeout(renewToken, data.renew_in_s * 1000);
      return true;
    })
    .catch(() => { renewing = null; return false; })
    .then((ok) => {
      if (!ok) {  // no answer (the Wi-Fi, the server): ask again soon
        clearTimeout(tokenTimer);
        tokenTimer = setTimeout(renewToken, RETRY_MS);
      }
      return ok;
    });
  return renewing;
}

/** Renews the token of `form` (the hand form, data-token) in time. */
export function start(form) {
  tokenUrl = form.getAttribute(TOKEN_URL);
  if (tokenUrl) tokenTimer = setTimeout(renewToken, parseInt(form.getAttribute(TOKEN_RENEW), 10) * 1000);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") renewToken();
  });
  // Sent once: a second tap while the token is renewed is the same Undo.
  document.addEventListener("submit", (event) => {
    const plain = event.target;
    if (plain === form || event.defaultPrevented || !plain.querySelector("input[name=csrf_token]")) return;
    event.preventDefault();
    if (plain.sending) return;
    plain.sending = true;
    renewToken().then(() => { plain.submit(); });
  });
}
