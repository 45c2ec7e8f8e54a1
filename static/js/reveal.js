// The round reveal: a game's `results` phase (docs/rules/genius-idea.md, docs/rules/brainiac.md).
// The round just played takes the board until every seat has pressed Continue (the game's
// `ready` action) or the phase's clock runs out; the server starts the next round, this only
// draws the screen: the round, a Continue button, whom we wait for and the time left.
import { el } from "./api.js";
import { t } from "./i18n.js";

// revealScreen(...) -> the node that stands in for the board; the game rebuilds it on every update.
//   title, body: the round's result (body: a node); toAct: the seats not ready yet;
//   seat: ours (null when watching); deadline: epoch ms or null (no clock, or a replay);
//   onReady: sends ready, or null when this page cannot (a replay, a spectator);
//   sending: our ready is on its way; nameOf(seat): a player's name;
//   last: the game's last round, which its end skips (no results phase): the shared screen
//   shows it with the final result, with no Continue and nobody to wait for
export function revealScreen({ title, body, toAct, seat, deadline = null, onReady = null, sending = false, nameOf, last = false }) {
  const mine = !last && onReady !== null && seat !== null && toAct.includes(seat);
  const others = toAct.filter((s) => s !== seat).map((s) => nameOf(s));
  const parts = [el("h2", { class: "reveal-title", "data-testid": "reveal-title", tabindex: "-1" }, title), body];
  if (mine) {
    // in the phone's bar at the bottom of the screen (.action-bar, static/app.css)
    parts.push(el("div", { class: "reveal-actions action-bar" }, el("button", { type: "button", class: "primary",
      "data-testid": "reveal-continue", disabled: sending, onclick: () => onReady() },
    sending ? t("reveal.sending") : t("reveal.continue"))));
  } else if (!last) {
    const text = others.length ? t("reveal.waiting_for", { names: others.join(", ") }) : t("reveal.next_starting");
    parts.push(el("p", { class: "reveal-waiting", "data-testid": "reveal-waiting" }, text));
  }
  if (deadline && !last) parts.push(countdown(deadline));
  return el("section", { class: "reveal", "data-testid": "reveal", "aria-label": title }, ...parts);
}

// "Next round in 9 s", counted down from the frame's deadline (not read out: it would chatter)
function countdown(deadline) {
  const node = el("p", { class: "reveal-count", "data-testid": "reveal-count", "aria-hidden": "true" });
  const tick = () => {
    const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    node.textContent = t("reveal.next_in", { n: left });
  };
  tick();
  const timer = setInterval(() => { if (node.isConnected) tick(); else clearInterval(timer); }, 250);
  return node;
}

// The status line of the results phase, for the page and the screen reader.
export function revealStatus({ toAct, seat, canReady, nameOf }) {
  if (canReady && seat !== null && toAct.includes(seat)) return t("reveal.status_ready");
  const others = toAct.filter((s) => s !== seat).map((s) => nameOf(s));
  return others.length ? t("reveal.status_waiting", { names: others.join(", ") }) : t("reveal.status_starting");
}

// Puts the keyboard on Continue when the reveal comes up, unless the person is typing
// elsewhere (the chat): the reveal interrupts the board, not a message.
export function focusContinue(root) {
  const active = document.activeElement;
  const elsewhere = active && active !== document.body && !root.contains(active)
    && (active.matches("input, textarea, select") || active.isContentEditable);
  if (elsewhere) return;
  const target = root.querySelector('[data-testid="reveal-continue"]') || root.querySelector('[data-testid="reveal-title"]');
  try { target?.focus({ preventScroll: true }); } catch { /* detached */ }
}
