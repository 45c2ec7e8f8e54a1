// Keyboard and screen-reader help shared by the game views.

// A game view that rebuilds its controls on every update would drop the keyboard on the page's
// start each time. focusKeeper(root, { key, fallback }) returns { keep, land }. keep(rebuild) runs rebuild()
// and, if the focus was inside root before, puts it back on the control with the same key (by
// default its data-testid), or else on the first usable control, or else on fallback() (an
// element with tabindex="-1", e.g. the status line). A control parked on the fallback moves on
// to the first usable control as soon as one appears (after a move was sent, the next one).
// land() puts the keyboard into root at once (the first usable control, else the fallback).
export function focusKeeper(root, { key = (node) => node.getAttribute("data-testid"), fallback = () => null } = {}) {
  let parked = null;
  const usable = (node) => node && node.isConnected && !node.disabled && node.getAttribute("aria-disabled") !== "true"
    && node.getClientRects().length > 0;
  const controls = () => [...root.querySelectorAll("button, input, select, textarea, [tabindex='0']")].filter(usable);
  const focus = (node) => { try { node.focus({ preventScroll: true }); } catch { /* detached */ } };

  function land() {
    const target = controls()[0] || fallback();
    parked = controls().length ? null : target;
    if (target) focus(target);
  }

  function keep(rebuild) {
    const active = document.activeElement;
    const inside = !!active && active !== root && root.contains(active);
    const wanted = inside && active !== parked ? key(active) : null;
    rebuild();
    if (!inside) return;
    if (active === parked && usable(active) && !controls().length) return;
    let target = null;
    if (wanted !== null) target = controls().find((node) => key(node) === wanted) || null;
    if (!target) target = controls()[0] || null;
    parked = null;
    if (!target) {
      target = fallback();
      parked = target;
    }
    if (target && target !== document.activeElement) focus(target);
  }

  return { keep, land };
}

// The room's one polite live region: moves in plain words, whose turn it is, round results.
// Each message is its own paragraph (the same words twice are still read twice); the last few
// stay, so the region can also be read back.
export function createAnnouncer(host, { keep = 20 } = {}) {
  const region = document.createElement("div");
  region.className = "visually-hidden";
  region.setAttribute("aria-live", "polite");
  region.setAttribute("data-testid", "announcer");
  host.append(region);
  return function announce(text) {
    if (!text) return;
    const p = document.createElement("p");
    p.textContent = text;
    region.append(p);
    while (region.children.length > keep) region.firstChild.remove();
  };
}
