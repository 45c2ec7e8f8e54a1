// The round reveal: a moment to stop and look at what just happened before the next round
// takes the screen. It stays until this person presses Continue, or for a few seconds.
import { el } from "./api.js";

export const REVEAL_SECONDS = 8;

// returnFocus(): where the keyboard goes when the reveal closes while it had it and the control
// focused before it is gone (the game's next useful control).
export function createReveal(host, { seconds = REVEAL_SECONDS, returnFocus = null } = {}) {
  let shown = null; // {key, node, timer, before}
  const seen = new Set();

  function close() {
    if (!shown) return;
    clearInterval(shown.timer);
    const had = shown.node.contains(document.activeElement);
    const before = shown.before;
    shown.node.remove();
    shown = null;
    if (!had) return;
    if (before && before.isConnected && before !== document.body) before.focus({ preventScroll: true });
    else returnFocus?.();
  }

  // show(key, title, body): once per key (a round), never again after it was closed
  function show(key, title, body) {
    if (seen.has(key)) return;
    seen.add(key);
    const before = shown ? shown.before : document.activeElement;
    close();
    let left = seconds;
    const count = el("span", { class: "reveal-count", "data-testid": "reveal-count" }, `${left}s`);
    const button = el("button", { type: "button", class: "primary", "data-testid": "reveal-continue", onclick: close },
      "Continue ", count);
    const node = el("div", { class: "reveal", role: "dialog", "aria-modal": "false", "aria-label": title, "data-testid": "reveal" },
      el("div", { class: "reveal-card" }, el("h2", {}, title), body, button));
    host.append(node);
    const timer = setInterval(() => {
      left -= 1;
      count.textContent = `${left}s`;
      if (left <= 0) close();
    }, 1000);
    shown = { key, node, timer, before };
    button.focus({ preventScroll: true });
  }

  // rounds already over when the page opened are history, not news
  function remember(key) { seen.add(key); }

  return { show, remember, close, get open() { return shown !== null; } };
}
