/* Haferl: the table page keeps the screen on while the evening runs. The Wake Lock API
 * exists only in a secure context; a tablet on the pub's Wi-Fi opens plain http, where the
 * usual way is a tiny muted video playing in a loop (the media of NoSleep.js, MIT, in
 * static/keep-awake/). Let go when the page is hidden, taken again when it shows. */
import { TABLE_PAGE_CLASS } from "./hooks.js";

export function start() {
  if (!document.body.classList.contains(TABLE_PAGE_CLASS)) return;
  let keepAwake, video;
  if (navigator.wakeLock) {
    keepAwake = () => {
      navigator.wakeLock.request("screen").catch(() => { /* refused: nothing to do */ });
    };
  } else {
    video = document.createElement("video");
    video.className = "keep-awake";
    video.muted = true;
    video.loop = true;
    video.setAttribute("muted", "");
    video.setAttribute("playsinline", "");
    video.setAttribute("aria-hidden", "true");
    ["webm", "mp4"].forEach((kind) => {
      const source = document.createElement("source");
      source.src = new URL("../keep-awake/screen." + kind, import.meta.url).href;
      source.type = "video/" + kind;
      video.appendChild(source);
    });
    document.body.appendChild(video);
    keepAwake = () => {
      const playing = video.play();
      if (playing) playing.catch(() => { /* wants a tap first: see below */ });
    };
    document.addEventListener("pointerdown", () => { if (video.paused) keepAwake(); });
  }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") keepAwake();
    else if (video) video.pause();
  });
  keepAwake();
}
