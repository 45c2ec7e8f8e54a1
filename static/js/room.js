// The room page: lobby, host controls, chat, connection indicator, and the game area into
// which the game's own module renders each view.
import { createAnnouncer } from "./a11y.js";
import { api, el, onSubmit, toast } from "./api.js";
import { createTurnCues } from "./cues.js";
import { errorText, lang, t, tOr } from "./i18n.js";
import { optionsForm } from "./options.js";
import { RoomSocket } from "./socket.js";
import { createRoomTabs } from "./tabs.js";

const roomEl = document.getElementById("room");
const roomId = roomEl.dataset.roomId;
const $ = (id) => document.getElementById(id);
// on a phone: Game / Chat / Room tabs (static/js/tabs.js)
const tabs = createRoomTabs(roomEl, $("room-tabs"));

let games = [];
let info = null;
let room = null;
let you = null;
let gameView = null; // {id, view: createGameView result}
let optionsUi = null;
let optionsKey = "";
// the room's one live region: the game's moves, turns and results, read out by screen readers
const announce = createAnnouncer(document.body);

// Turn cues (static/js/cues.js): the tab's title and icon; with turn alerts on, a sound and
// a vibration when the turn comes and when the clock runs low.
const cues = createTurnCues($("turn-alerts"), { announce });
function turnCue(view, deadline) {
  // a round's reveal (``results``) waits for everyone's Continue: it is no one's turn
  const mine = !!(you && you.seat !== null && !you.away && view && Array.isArray(view.to_act) && view.to_act.includes(you.seat)
    && !view.over && view.phase !== "results");
  cues.turn(mine, deadline);
}

// Frames that change the page are handled one at a time, in order, once the games list is
// here and this module has run: a welcome can beat /api/games, and a move can arrive while
// the game's module loads.
const gamesLoaded = api("GET", "/api/games").then((list) => { games = list; });
let pageReady;
let frames = new Promise((resolve) => { pageReady = resolve; });
const inOrder = (handle) => (frame) => {
  frames = frames.then(() => handle(frame)).catch((err) => console.error(err));
};

const socket = new RoomSocket(roomId, {
  status(state) {
    const conn = $("conn");
    conn.dataset.state = state;
    conn.querySelector(".label").textContent = t(`conn.${state}`);
  },
  welcome: inOrder((frame) => {
    you = frame.you;
    setRoom(frame.room);
    $("chat-log").replaceChildren();
    for (const m of frame.chat || []) addChat(m);
  }),
  room: inOrder((frame) => { setRoom(frame.room); }),
  you: inOrder((frame) => { you = frame.you; if (room) setRoom(room); }),
  state: inOrder((frame) => showState(frame)),
  chat: inOrder((frame) => { addChat(frame); tabs.message(); }),
  error: inOrder((frame) => {
    if (frame.code === "chat_muted" && you) { you.muted = true; renderMuted(); }
    if (frame.code === "not_member") {
      $("game-area").replaceChildren(el("p", {}, t("room.not_member")));
      $("conn").dataset.state = "closed";
      return;
    }
    if (frame.ref == null) toast(errorText(frame), "bad");
  }),
  kicked: inOrder((frame) => {
    const message = serverNews(frame, "room.kicked");
    toast(message, "bad");
    $("game-area").replaceChildren(el("p", { "data-testid": "gone-note" }, message, " ", el("a", { href: "/" }, t("room.home"))));
    leaveBehind();
  }),
  host(frame) { toast(serverNews(frame, "room.host_changed")); },
  closed: inOrder((frame) => {
    const message = serverNews(frame, "room.closed");
    toast(message, "bad");
    $("game-area").replaceChildren(el("p", {}, message));
  }),
});

// news the server words in English, with the names ("… is the host now", "You left the room."):
// as sent in English, else the catalog's plain note (the seat list shows the rest)
const serverNews = (frame, key) => (lang === "en" && frame.message ? frame.message : t(key));

function setRoom(next) {
  room = next;
  roomEl.dataset.status = room.status;
  tabs.status(room.status);
  info = games.find((g) => g.id === room.game) || info;
  const title = tOr(`game.${room.game}.title`, room.title);
  cues.title(title);
  $("room-title").textContent = title;
  const statusText = tOr(`room.status.${room.status}`, room.status);
  $("room-status").textContent = `${statusText} · ${t("room.seats", { n: room.seats.length, max: room.max_players })}` + (you && you.seat == null ? ` · ${t("room.watching")}` : "");
  $("invite-url").value = `${location.origin}${room.invite_path}`;
  renderParty();
  $("spectators").textContent = room.spectators ? t("room.spectators", { n: room.spectators }) : "";
  $("locked-note").hidden = !room.locked;
  renderSeats();
  renderAway();
  renderHostControls();
  renderMuted();
  refreshMembers();
  const replay = $("replay-link");
  replay.hidden = !(room.status === "finished" && room.game_id);
  if (!replay.hidden) replay.querySelector("a").href = `/r/${roomId}/replay/${room.game_id}`;
}

// The party night: the room code and the invite's QR code for friends in the same room, and,
// for the host, the code's switch and the shared screen's link.
let qrFor = null; // the invite whose QR code the page shows
let qrLoads = 0;
let screenFor = null; // the invite whose screen link the page holds (a new invite link retires it)
function renderParty() {
  $("room-code").textContent = room.code ? `${room.code.slice(0, 3)} ${room.code.slice(3)}` : "";
  $("room-code").classList.toggle("off", !room.code_open);
  $("code-off-note").hidden = room.code_open;
  if (qrFor !== room.invite_path && you) {
    // a new invite link makes a new QR code (the counter makes the browser fetch it again)
    qrFor = room.invite_path;
    const img = $("invite-qr");
    img.addEventListener("load", () => { img.hidden = false; }, { once: true });
    img.src = `/api/rooms/${encodeURIComponent(roomId)}/qr.svg?n=${++qrLoads}`;
  }
  const host = !!(you && you.host);
  $("code-switch-row").hidden = !host || room.status === "closed";
  $("code-switch").checked = !!room.code_open;
  $("open-screen").hidden = !host;
  if (host && screenFor !== room.invite_path) {
    screenFor = room.invite_path;
    api("GET", `/api/rooms/${encodeURIComponent(roomId)}/screen`)
      .then((res) => { $("open-screen").href = res.screen_path; })
      .catch(() => { screenFor = null; });
  }
}
$("code-switch").addEventListener("change", (e) => {
  hostCall("POST", `/api/rooms/${roomId}/code`, { open: e.target.checked }).catch(() => { e.target.checked = !e.target.checked; });
});

function renderSeats() {
  const host = you && you.host;
  const playing = room.status === "playing";
  const items = room.seats.map((s) => {
    const mine = you && s.seat === you.seat;
    const person = !s.bot || s.away; // a bot standing in plays for a person who is away
    const actions = [];
    if (host && !mine && !s.host && room.status !== "finished") {
      // a bot standing in can be undone (the player takes the seat back); removal can't
      if (playing && !s.bot) actions.push(el("button", { type: "button", "data-testid": `bot-takes-over-${s.seat}`,
        title: t("seat.bot_takes_over_title"),
        onclick: () => hostCall("POST", `/api/rooms/${roomId}/seats/${s.seat}/bot`).catch(() => {}) }, t("seat.bot_takes_over")));
      if (!playing || person) actions.push(el("button", { type: "button", "data-testid": `kick-${s.seat}`,
        title: playing ? t("seat.remove_title_playing") : t("seat.remove_title"),
        onclick: () => {
          if (!confirm(t("mod.remove_confirm", { name: s.name }))) return;
          hostCall("DELETE", `/api/rooms/${roomId}/seats/${s.seat}`).catch(() => {});
        } }, t("seat.remove")));
      const member = memberAt(s.seat);
      if (member && !member.bot) actions.push(muteButton(member, `mute-${s.seat}`));
      if (!s.bot) actions.push(el("button", { type: "button", "data-testid": `make-host-${s.seat}`,
        onclick: () => hostCall("POST", `/api/rooms/${roomId}/host`, { seat: s.seat }).catch(() => {}) }, t("seat.make_host")));
    }
    return el("li", { class: mine ? "me" : "", "data-seat": s.seat },
      el("span", { class: `online ${s.online ? "on" : ""}`, title: s.online ? t("seat.online") : t("seat.offline") }),
      el("span", { class: "name" }, s.name),
      s.away ? el("span", { class: "badge", "data-testid": `away-${s.seat}`, title: t("seat.away_title") }, t("seat.away")) : s.bot ? el("span", { class: "badge" }, t("seat.bot")) : null,
      s.host ? el("span", { class: "badge" }, t("seat.host")) : null,
      host && memberAt(s.seat)?.muted ? el("span", { class: "badge", "data-testid": `muted-${s.seat}` }, t("mod.muted")) : null,
      mine ? el("span", { class: "badge" }, t("seat.you")) : null,
      // the host's buttons on a line of their own, so the name they act on is never squeezed out
      actions.length ? el("span", { class: "seat-actions" }, ...actions) : null);
  });
  $("seats").replaceChildren(...items);
}

// The host's view of everyone in the room (GET .../members): spectators by name, who is
// muted, each seat's member. Read again when the seats or the spectators change, and after
// each of the host's moderation steps.
let members = [];
let membersKey = "";
const memberAt = (seat) => members.find((m) => m.seat === seat) || null;
async function refreshMembers(force = false) {
  const host = !!(you && you.host) && room.status !== "closed";
  const key = JSON.stringify([host, room.status, room.spectators, room.seats.map((s) => [s.name, s.bot])]);
  if (!force && key === membersKey) return;
  membersKey = key;
  if (!host) { members = []; renderSpectators(); return; }
  try {
    members = await api("GET", `/api/rooms/${encodeURIComponent(roomId)}/members`);
  } catch { membersKey = ""; return; }
  renderSeats();
  renderSpectators();
}

function muteButton(member, testid) {
  return el("button", { type: "button", "data-testid": testid, "aria-pressed": member.muted ? "true" : "false",
    onclick: () => hostCall("POST", `/api/rooms/${roomId}/members/${member.member_id}/mute`, { muted: !member.muted })
      .then(() => refreshMembers(true)).catch(() => {}) }, member.muted ? t("mod.unmute") : t("mod.mute"));
}

function renderSpectators() {
  const watching = members.filter((m) => m.seat === null);
  const host = !!(you && you.host);
  $("spectator-box").hidden = !host || !watching.length;
  $("spectators").hidden = host && watching.length > 0; // the host sees the names instead of the count
  $("spectator-list").replaceChildren(...(host ? watching : []).map((m) => el("li", { "data-member": m.member_id },
    el("span", { class: `online ${m.online ? "on" : ""}`, title: m.online ? t("seat.online") : t("seat.offline") }),
    el("span", { class: "name" }, m.name),
    m.muted ? el("span", { class: "badge" }, t("mod.muted")) : null,
    el("span", { class: "seat-actions" },
      muteButton(m, `mute-member-${m.member_id}`),
      el("button", { type: "button", "data-testid": `remove-member-${m.member_id}`, title: t("seat.remove_title"),
        onclick: () => {
          if (!confirm(t("mod.remove_confirm", { name: m.name }))) return;
          hostCall("DELETE", `/api/rooms/${roomId}/members/${m.member_id}`).then(() => refreshMembers(true)).catch(() => {});
        } }, t("seat.remove"))))));
}

// A muted member's page says so, and its chat box rests.
function renderMuted() {
  const muted = !!(you && you.muted);
  $("muted-note").hidden = !muted;
  $("chat-input").disabled = muted;
}

// Your own seat: let a bot play it while you are away, and take it back.
function renderAway() {
  const box = $("away-controls");
  const away = !!(you && you.away);
  if (away) {
    box.replaceChildren(
      el("p", { class: "muted", "data-testid": "away-note" }, t("away.note")),
      el("button", { type: "button", class: "primary", "data-testid": "take-seat-back",
        onclick: () => hostCall("POST", `/api/rooms/${roomId}/back`).catch(() => {}) }, t("away.take_back")));
  } else if (you && you.seat != null && room.status === "playing") {
    box.replaceChildren(el("button", { type: "button", "data-testid": "bot-plays-for-me",
      title: t("away.title"),
      onclick: () => hostCall("POST", `/api/rooms/${roomId}/away`).catch(() => {}) }, t("away.let_bot")));
  } else {
    box.replaceChildren();
  }
  box.hidden = !box.children.length;
  // you watch your seat while the bot plays it: the board shows it, but takes no moves
  $("game-area").classList.toggle("away", away);
}

function renderHostControls() {
  const box = $("host-controls");
  const host = you && you.host;
  box.hidden = !host || room.status === "closed";
  // everyone else learns who may act next instead of seeing controls they can't use
  const note = $("guest-note");
  const hostSeat = room.seats.find((s) => s.host);
  const host_name = hostSeat ? hostSeat.name : t("room.the_host");
  note.textContent = { lobby: t("room.guest_lobby", { host: host_name }), finished: t("room.guest_finished", { host: host_name }) }[room.status] || "";
  note.hidden = !!host || !note.textContent;
  // on a phone the Game tab shows this at a game's end: the rematch lives on the Room tab
  $("next-game-text").textContent = host ? t("room.host_finished") : note.textContent;
  $("next-game-rematch").hidden = !host;
  if (box.hidden) return;
  $("lock-switch").checked = !!room.locked;
  const lobby = room.status === "lobby";
  $("start").hidden = !lobby;
  $("rematch").hidden = room.status !== "finished";
  $("add-bot").parentElement.hidden = !lobby;
  $("start").disabled = room.seats.length < room.min_players;
  const botSelect = $("bot-kind");
  if (!botSelect.options.length) {
    for (const b of info.bots) botSelect.append(el("option", { value: b.id, title: tOr(`bot.${info.id}.${b.id}.help`, b.help || "") }, tOr(`bot.${info.id}.${b.id}`, b.label)));
    botSelect.value = info.default_bot;
  }
  const setup = lobby || room.status === "finished"; // options apply to the next game
  const key = JSON.stringify([room.options, room.time_limits, room.status]);
  if (key !== optionsKey) {
    optionsKey = key;
    if (setup) {
      optionsUi = optionsForm(info, room.options, room.time_limits, { upload: lobby ? uploadOption : null, custom: room.custom_options || [] });
      $("room-options").replaceChildren(...[
        lobby ? optionsUi.node : el("details", { class: "advanced", "data-testid": "rematch-options" },
          el("summary", {}, t("room.rematch_options")), optionsUi.node),
        lobby ? el("button", { type: "button", "data-testid": "apply-options", onclick: applyOptions }, t("room.apply_options")) : null,
      ].filter(Boolean));
    } else {
      $("room-options").replaceChildren();
    }
  }
}

async function applyOptions() {
  try {
    const { options, time_limits } = optionsUi.read();
    await hostCall("PATCH", `/api/rooms/${roomId}`, { options, time_limits });
    toast(t("room.options_saved"));
  } catch (err) { showRoomError(errorText(err)); }
}

async function uploadOption(name, file) {
  showRoomError("");
  const form = new FormData();
  form.append("file", file);
  const res = await fetch(`/api/rooms/${roomId}/options/${encodeURIComponent(name)}/file`, { method: "POST", body: form, credentials: "same-origin" });
  const data = await res.json().catch(() => ({}));
  if (res.ok) toast(t("room.file_loaded", { file: file.name }));
  else showRoomError(errorText(data) || res.statusText);
}

let errorTimer = null;
function showRoomError(message) {
  // a refused host action is news for a moment, not a permanent fixture
  $("room-error").textContent = message;
  clearTimeout(errorTimer);
  if (message) errorTimer = setTimeout(() => { $("room-error").textContent = ""; }, 6000);
}

async function hostCall(method, path, body) {
  showRoomError("");
  try { return await api(method, path, body); }
  catch (err) { showRoomError(errorText(err)); throw err; }
}

$("lock-switch").addEventListener("change", (e) => {
  hostCall("POST", `/api/rooms/${roomId}/lock`, { locked: e.target.checked }).catch(() => { e.target.checked = !e.target.checked; });
});
$("new-invite").addEventListener("click", async () => {
  if (!confirm(t("mod.new_invite_confirm"))) return;
  try {
    await hostCall("POST", `/api/rooms/${roomId}/invite`);
    toast(t("mod.new_invite_done"));
  } catch { /* shown in room-error */ }
});
$("add-bot").addEventListener("click", () => hostCall("POST", `/api/rooms/${roomId}/bots`, { bot: $("bot-kind").value }).catch(() => {}));
$("start").addEventListener("click", () => hostCall("POST", `/api/rooms/${roomId}/start`).catch(() => {}));
$("rematch").addEventListener("click", async () => {
  try {
    // the rematch plays with whatever the host set in the options form
    const { options, time_limits } = optionsUi.read();
    await hostCall("PATCH", `/api/rooms/${roomId}`, { options, time_limits });
    await hostCall("POST", `/api/rooms/${roomId}/rematch`);
  } catch { /* shown in room-error */ }
});
$("next-game-rematch").addEventListener("click", () => { tabs.show("room"); $("rematch").focus(); });
// Out of the room (left or removed): nothing here is ours to use any more, and the socket
// is not coming back.
function leaveBehind() {
  roomEl.dataset.gone = "true";
  const conn = $("conn");
  conn.dataset.state = "gone";
  conn.querySelector(".label").textContent = t("conn.gone");
  you = null;
  if (room) setRoom(room);
}
$("leave-room").addEventListener("click", async () => {
  if (!confirm(t(you && you.host ? "room.leave_confirm_host" : "room.leave_confirm"))) return;
  try { await hostCall("POST", `/api/rooms/${roomId}/leave`); } catch { return; }
  leaveBehind();
  location.assign("/");
});
$("how-to-play")?.addEventListener("click", () => $("rules-dialog").showModal());
$("copy-invite").addEventListener("click", async () => {
  const input = $("invite-url");
  try { await navigator.clipboard.writeText(input.value); toast(t("room.invite_copied")); }
  catch { input.select(); document.execCommand("copy"); toast(t("room.invite_copied")); }
});

function addChat(m) {
  const log = $("chat-log");
  log.append(el("li", {}, el("span", { class: "who" }, m.name), el("span", { class: "text" }, m.text)));
  log.scrollTop = log.scrollHeight;
}
onSubmit($("chat-form"), () => {
  const input = $("chat-input");
  const text = input.value.trim();
  if (!text) return;
  socket.chat(text);
  input.value = "";
});

async function showState(frame) {
  turnCue(frame.view, frame.deadline);
  if (!gameView || gameView.id !== frame.game_id) {
    gameView?.view?.destroy?.();
    const area = $("game-area");
    const root = el("div", { class: `game-root game-${room ? room.game : ""}` });
    area.replaceChildren(root);
    gameView = { id: frame.game_id, view: null };
    gameView.view = await mountGame(root);
  }
  if (gameView.view) gameView.view.update(frame.view, { seq: frame.seq, deadline: frame.deadline });
}

async function mountGame(root) {
  const game = room.game;
  const css = `/static/games/${game}.css`;
  if (!document.querySelector(`link[href="${css}"]`)) {
    document.head.append(el("link", { rel: "stylesheet", href: css }));
  }
  const ctx = {
    get seat() { return you ? you.seat : null; },
    get players() { return room.seats.map((s) => ({ seat: s.seat, name: s.name, bot: s.bot })); },
    info,
    mode: "play",
    announce,
    send: async (action) => {
      const res = await socket.act(action);
      if (!res.ok) toast(errorText(res), "bad");
      return res;
    },
  };
  try {
    const mod = await import(`/static/games/${game}.js`);
    return mod.createGameView(root, ctx);
  } catch (err) {
    console.error(err);
    const pre = el("pre", { class: "raw-view" });
    root.append(el("p", { class: "error" }, t("room.board_failed")), pre);
    return { update(view) { pre.textContent = JSON.stringify(view, null, 2); }, destroy() {} };
  }
}

await gamesLoaded;
pageReady();
