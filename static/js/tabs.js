// The room page on a phone (narrow and touch): the game, the chat and the room's details are
// three tabs instead of one long page. On a wider screen or with a mouse, all three stay on
// screen side by side and the tab bar is not shown. The tab in use is #room's data-tab; the
// CSS (static/app.css, the same media query as PHONE) hides the other two.
import { t } from "./i18n.js";
export const PHONE = "(max-width: 600px) and (pointer: coarse)";

export function createRoomTabs(roomEl, bar) {
  const phone = matchMedia(PHONE);
  const buttons = [...bar.querySelectorAll("[data-tab]")];
  const chatButton = buttons.find((b) => b.dataset.tab === "chat");
  const badge = chatButton.querySelector(".tab-badge");
  let unread = 0;
  let status = null;

  function show(tab) {
    roomEl.dataset.tab = tab;
    for (const b of buttons) b.setAttribute("aria-selected", b.dataset.tab === tab ? "true" : "false");
    if (tab === "chat") { unread = 0; paintBadge(); }
  }
  function paintBadge() {
    badge.hidden = unread === 0;
    badge.textContent = unread > 9 ? "9+" : String(unread);
    chatButton.setAttribute("aria-label", unread ? t("tabs.chat_new", { n: unread }) : t("tabs.chat"));
  }
  for (const b of buttons) b.addEventListener("click", () => show(b.dataset.tab));
  show("room");
  keepActionBar(roomEl);

  return {
    show,
    // the room's status changed: the lobby opens on the room's details, a game on the board
    // (a game that ends stays on the tab in use: its result is on the board)
    status(next) {
      if (next === status) return;
      if (next === "lobby") show("room");
      else if (next === "playing" || status === null) show("game");
      status = next;
    },
    // a chat message arrived: a badge on the Chat tab unless the chat is on screen
    message() {
      if (!phone.matches || roomEl.dataset.tab === "chat") return;
      unread += 1;
      paintBadge();
    },
  };
}

// A game's primary control sits in a bar fixed at the bottom of a phone's screen (.action-bar,
// static/app.css). Two CSS variables keep it usable: --keyboard on <html>, how far the
// on-screen keyboard covers the bottom of the page (a browser that does not shrink the page
// for the keyboard would hide the bar, and the answer box in it, behind the keys), and
// --action-bar on the room, the bar's height, which the game area keeps free below the board.
function keepActionBar(roomEl) {
  const vv = window.visualViewport;
  const html = document.documentElement;
  if (vv) {
    const lift = () => {
      const covered = Math.max(0, Math.round(html.clientHeight - vv.height - vv.offsetTop));
      html.style.setProperty("--keyboard", `${covered}px`);
    };
    vv.addEventListener("resize", lift);
    vv.addEventListener("scroll", lift);
    lift();
  }
  let queued = false;
  const measure = () => {
    queued = false;
    const bar = roomEl.querySelector(".action-bar");
    const height = bar ? bar.getBoundingClientRect().height : 0;
    if (height) roomEl.style.setProperty("--action-bar", `${Math.ceil(height)}px`);
  };
  // games rebuild their board on every update: measure once per frame after a change
  new MutationObserver(() => {
    if (!queued) { queued = true; requestAnimationFrame(measure); }
  }).observe(roomEl, { childList: true, subtree: true });
}
