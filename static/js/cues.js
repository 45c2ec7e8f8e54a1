// Turn cues: the tab's title and icon say when this person is to act, so a player in another
// tab notices. With turn alerts switched on (the room's "Turn alerts" toggle, off by default,
// the choice kept in this browser's localStorage) a short sound (WebAudio, no file) and a
// vibration (phones that allow it) come when the turn comes, and again when the clock of a
// timed phase runs under LOW_SECONDS while it is still this person's turn. A screen reader
// hears the low clock in any case (announce: the room's live region).
import { t } from "./i18n.js";

export const ALERTS_KEY = "geniusnight.turn-alerts";
export const LOW_SECONDS = 10;

const svg = (body) => "data:image/svg+xml," + encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">${body}</svg>`);
const BASE_ICON = svg('<circle cx="8" cy="8" r="7" fill="#3b5bdb"/>');
const TURN_ICON = svg('<circle cx="8" cy="8" r="7" fill="#f59f00"/><circle cx="8" cy="8" r="3" fill="#fff"/>');
// the notes of each cue (Hz) and its vibration pattern (ms)
const SOUNDS = { turn: [660, 880], low: [520, 520, 520] };
const BUZZ = { turn: 120, low: [60, 60, 60, 60, 60] };

function stored() {
  try { return localStorage.getItem(ALERTS_KEY) === "on"; } catch { return false; }
}

export function createTurnCues(toggle, { announce = null } = {}) {
  const icon = document.createElement("link");
  icon.rel = "icon";
  icon.href = BASE_ICON;
  document.head.append(icon);
  let name = t("tabs.room");
  let mine = false;
  let on = stored();
  let audio = null;
  let lowTimer = null;
  let lowFor = null; // the deadline the low-clock cue is set for

  function showToggle() {
    if (!toggle) return;
    toggle.setAttribute("aria-pressed", on ? "true" : "false");
    // the bell's slash (static/app.css) follows aria-pressed
  }

  // Browsers let a page make sound only after a tap or a key: the toggle is one, and when the
  // alerts were already on from an earlier visit, the first tap or key on the page is.
  function unlock() {
    if (!on) return;
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    try {
      if (!audio) audio = new Ctx();
      if (audio.state === "suspended") audio.resume();
    } catch { audio = null; }
  }
  for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, unlock, { capture: true });

  function beep(notes) {
    if (!audio) return;
    const t0 = audio.currentTime + 0.01;
    notes.forEach((hz, i) => {
      const t = t0 + i * 0.16;
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = hz;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.25, t + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.14);
      osc.connect(gain).connect(audio.destination);
      osc.start(t);
      osc.stop(t + 0.15);
    });
  }

  function alert(kind) {
    if (!on) return;
    beep(SOUNDS[kind]);
    try { navigator.vibrate?.(BUZZ[kind]); } catch { /* not allowed here */ }
  }

  function showTitle() {
    document.title = `${mine ? `● ${t("cues.your_turn")} · ` : ""}${name} · ${t("brand")}`;
    icon.href = mine ? TURN_ICON : BASE_ICON;
    document.body.dataset.yourTurn = String(mine);
  }

  function watchClock(deadline) {
    if (lowFor === deadline) return;
    clearTimeout(lowTimer);
    lowTimer = null;
    lowFor = deadline;
    if (!deadline) return;
    const wait = deadline - LOW_SECONDS * 1000 - Date.now();
    if (wait < 0) return; // the turn came with the clock already low: the turn cue says it
    lowTimer = setTimeout(() => {
      if (!mine || lowFor !== deadline) return;
      announce?.(t("cues.seconds_left", { n: LOW_SECONDS }));
      alert("low");
    }, wait);
  }

  toggle?.addEventListener("click", () => {
    on = !on;
    try { localStorage.setItem(ALERTS_KEY, on ? "on" : "off"); } catch { /* private mode */ }
    showToggle();
    if (on) { unlock(); alert("turn"); } // switching on plays the cue once, so one knows it
  });
  showToggle();

  return {
    // the room's name, for the tab title
    title(roomTitle) { name = roomTitle || t("tabs.room"); showTitle(); },
    // after every state frame: is this person to act now, and until when (epoch ms or null)
    turn(isMine, deadline) {
      const came = isMine && !mine;
      mine = isMine;
      showTitle();
      if (came) alert("turn");
      watchClock(mine ? deadline || null : null);
    },
  };
}
