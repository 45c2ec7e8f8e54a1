// The shared screen (/r/{room_id}/screen#<key>): a TV or a laptop the whole room watches. It
// holds no seat and no name: its socket says hello with the room's screen key (from the
// link's fragment, which never reaches a server) and gets what a spectator gets. It shows the
// room code and the invite's QR code (neither while the room is locked), the players and their
// scores, the game's board drawn by the game's own module (as for a spectator), and the final
// result beside the last round's reveal.
import { createAnnouncer } from "./a11y.js";
import { api, el } from "./api.js";
import { errorText, t, tOr } from "./i18n.js";
import { RoomSocket } from "./socket.js";

const $ = (id) => document.getElementById(id);
const roomId = $("screen").dataset.roomId;
const key = decodeURIComponent(location.hash.slice(1));
// another key in the same tab (the host's new link, after a new invite link): start again with it
window.addEventListener("hashchange", () => location.reload());
const announce = createAnnouncer(document.body);

let games = [];
let room = null;
let view = null;
let board = null; // {id, view}: the game module drawing the current game
let qrFor = null; // the invite whose QR code the screen shows (a new invite link: a new one)
let gone = false; // no link to a live room (none, a retired one, a closed room): nothing to reconnect to

function showConn(state) {
  const conn = $("conn");
  conn.dataset.state = gone ? "gone" : state;
  conn.querySelector(".label").textContent = t(`conn.${conn.dataset.state}`);
}

// why the screen shows the room no more, at the top of the page where the room sees it
function goneFor(message) {
  gone = true;
  showConn("gone");
  $("screen-error").textContent = message;
}

const gamesLoaded = api("GET", "/api/games").then((list) => { games = list; });
let frames = gamesLoaded;
const inOrder = (handle) => (frame) => { frames = frames.then(() => handle(frame)).catch((err) => console.error(err)); };

if (!key) {
  goneFor(t("screen.no_key"));
} else {
  new RoomSocket(roomId, {
    status: showConn,
    welcome: inOrder((frame) => setRoom(frame.room)),
    room: inOrder((frame) => setRoom(frame.room)),
    state: inOrder((frame) => showState(frame)),
    error: inOrder((frame) => {
      if (frame.ref != null) return;
      if (frame.code !== "bad_screen_key") {
        $("screen-error").textContent = errorText(frame);
        return;
      }
      // a key a new invite link retired: the old code and QR code lead nowhere now, and the
      // socket stays closed (not "reconnecting")
      $("screen-join").hidden = true;
      goneFor(errorText(frame));
    }),
    closed: inOrder((frame) => goneFor(frame.message || t("room.closed"))),
  }, { screen: key });
}

function setRoom(next) {
  room = next;
  $("screen").dataset.status = room.status;
  $("screen-game").textContent = tOr(`game.${room.game}.title`, room.title);
  // the code, spaced for reading aloud from across the room
  $("screen-code").textContent = room.code ? `${room.code.slice(0, 3)} ${room.code.slice(3)}` : "";
  $("screen-code").hidden = !room.code_open;
  $("screen-code-off").hidden = room.code_open;
  if (qrFor !== room.invite_path) showQr(room.invite_path);
  // a locked room lets nobody new in: no code, no QR code, no "Join now!"
  $("screen-join-call").hidden = !!room.locked;
  $("screen-locked").hidden = !room.locked;
  const waiting = $("screen-waiting"); // until the first game's board takes its place
  if (waiting) waiting.textContent = t(room.locked ? "screen.waiting_locked" : "screen.waiting");
  renderPlayers();
  renderResult();
}

// the invite's QR code, which the screen's key unlocks: an <img> can't send the key, and the
// page's CSP allows no blob: images, so the server's SVG goes into the page as SVG
async function showQr(invitePath) {
  qrFor = invitePath;
  try {
    const res = await fetch(`/api/rooms/${encodeURIComponent(roomId)}/qr.svg`, { headers: { Authorization: `Bearer ${key}` } });
    if (!res.ok) throw new Error(res.statusText);
    const svg = new DOMParser().parseFromString(await res.text(), "image/svg+xml").documentElement;
    if (svg.nodeName !== "svg") throw new Error("not an SVG");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", t("screen.qr_alt"));
    const box = $("screen-qr");
    box.replaceChildren(document.importNode(svg, true));
    box.hidden = false;
  } catch (err) {
    qrFor = null;
    console.error(err);
  }
}

// A score the screen can show is a number; a game whose score is more (Ingenious: one track
// per colour) shows it on its own board, and the list leaves it out.
const shownScore = (score) => (typeof score === "number" ? String(score) : null);

function renderPlayers() {
  const scores = view && Array.isArray(view.scores) ? view.scores : null;
  // a round's reveal waits for everyone's Continue: nobody is "to play" then
  const toAct = view && !view.over && view.phase !== "results" && Array.isArray(view.to_act) ? view.to_act : [];
  const items = room.seats.map((s) => el("li", { class: toAct.includes(s.seat) ? "to-act" : "", "data-seat": s.seat },
    el("span", { class: "name" }, s.name),
    s.bot && !s.away ? el("span", { class: "badge" }, t("seat.bot")) : null,
    toAct.includes(s.seat) ? el("span", { class: "badge turn-badge" }, t("screen.their_turn")) : null,
    scores && shownScore(scores[s.seat]) !== null
      ? el("span", { class: "score", "data-testid": `screen-score-${s.seat}` }, shownScore(scores[s.seat])) : null));
  $("screen-players").replaceChildren(...items);
}

// the moment the room watches together: who won, and every score. It stands at the top of
// the side column in place of the players' list (the same names and scores), with a smaller QR
// code under it, so the board keeps the page's whole height for the last round's reveal: a TV
// has nobody to scroll it.
function renderResult() {
  const box = $("screen-result");
  const result = view && view.over ? view.result : null;
  box.hidden = !result;
  $("screen-players-card").hidden = !!result;
  $("screen").classList.toggle("screen-over", !!result);
  if (!result) return;
  const name = (seat) => (room.seats.find((s) => s.seat === seat) || {}).name || `${seat + 1}`;
  const winners = (result.winners || []).map(name).join(", ");
  // the winners first, then by score where scores are numbers
  const won = (s) => ((result.winners || []).includes(s.seat) ? 1 : 0);
  const points = (s) => (typeof s.score === "number" ? s.score : 0);
  const ranked = room.seats.map((s) => ({ ...s, score: (result.scores || [])[s.seat] }))
    .sort((a, b) => won(b) - won(a) || points(b) - points(a));
  box.replaceChildren(
    el("h2", { class: "screen-winner", "data-testid": "screen-winner" },
      (result.winners || []).length > 1 ? t("screen.winners", { names: winners }) : t("screen.winner", { name: winners })),
    el("ol", { class: "screen-ranking" }, ranked.map((s) => el("li", { class: (result.winners || []).includes(s.seat) ? "winner" : "" },
      el("span", { class: "name" }, s.name), shownScore(s.score) !== null ? el("span", { class: "score" }, shownScore(s.score)) : null))));
}

async function showState(frame) {
  view = frame.view;
  if (!board || board.id !== frame.game_id) {
    board?.view?.destroy?.();
    const root = el("div", { class: `game-root game-${room.game}` });
    $("game-area").replaceChildren(root);
    board = { id: frame.game_id, view: null };
    board.view = await mountGame(root);
  }
  board.view?.update(frame.view, { seq: frame.seq, deadline: frame.deadline });
  if (room) { renderPlayers(); renderResult(); }
}

async function mountGame(root) {
  const css = `/static/games/${room.game}.css`;
  if (!document.querySelector(`link[href="${css}"]`)) document.head.append(el("link", { rel: "stylesheet", href: css }));
  const ctx = {
    seat: null, // a spectator's view: no hand, no rack, no buttons
    get players() { return room.seats.map((s) => ({ seat: s.seat, name: s.name, bot: s.bot })); },
    info: games.find((g) => g.id === room.game),
    mode: "screen",
    announce,
    send: null,
  };
  try {
    const mod = await import(`/static/games/${room.game}.js`);
    return mod.createGameView(root, ctx);
  } catch (err) {
    console.error(err);
    root.append(el("p", { class: "error" }, t("room.board_failed")));
    return null;
  }
}
