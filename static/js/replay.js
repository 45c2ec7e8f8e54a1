// A reusable move-by-move replay player.
//
// createReplayPlayer(root, {apiBase}) reads `${apiBase}/log` and `${apiBase}/state?seq=k`
// (the admin API or a finished game's player API; both answer the same shapes) and draws
// the game with its own board module (/static/games/<engine>.js, ctx.mode "replay", send
// null). "View as" picks a seat's view, the spectator's, or (admin, `full: true`) the raw state. Without a
// board module (or if it fails) the views are shown as readable JSON. Text only, never HTML.

import { api, el, stringifyExact } from "./api.js";
import { t, tOr } from "./i18n.js";

const PLAY_MS = 900;

async function loadBoard(engine) {
  const css = `/static/games/${engine}.css`;
  try {
    const mod = await import(`/static/games/${engine}.js`);
    if (typeof mod.createGameView !== "function") throw new Error("no createGameView");
    if (!document.querySelector(`link[href="${css}"]`)) {
      document.head.append(el("link", { rel: "stylesheet", href: css }));
    }
    return mod;
  } catch (err) {
    console.info(`no board module for ${engine}:`, err);
    return null;
  }
}

function rawView(root, note) {
  const pre = el("pre", { class: "raw-view", dataset: { testid: "replay-raw" } });
  if (note) root.append(el("p", { class: "muted", dataset: { testid: "replay-fallback" } }, note));
  root.append(pre);
  return {
    update(value) { pre.textContent = stringifyExact(value, 2); },
    destroy() { root.replaceChildren(); },
  };
}

// "place: colors red/blue, at 3,-2" rather than raw JSON: the move's type, then its fields
function describeValue(value) {
  if (Array.isArray(value)) return value.map(describeValue).join(value.every((x) => typeof x !== "object") ? "/" : ", ");
  if (value && typeof value === "object") return Object.entries(value).map(([k, v]) => `${k} ${describeValue(v)}`).join(", ");
  return String(value);
}

function describeMove(move) {
  if (!move) return t("replay.start");
  const who = move.seat === null ? t("replay.timer") : move.player;
  const { type, ...fields } = move.action || {};
  const details = Object.entries(fields).map(([k, v]) => `${k.replaceAll("_", " ")} ${describeValue(v)}`).join("; ");
  return `${t("replay.move", { n: move.seq })} · ${who}: ${String(type || "move").replaceAll("_", " ")}${details ? ` (${details})` : ""}`;
}

function seatNames(seats, list) {
  return (list || []).map((s) => (seats.find((x) => x.seat === s) || { name: t("options.player", { n: s + 1 }) }).name).join(", ");
}

export async function createReplayPlayer(root, { apiBase, full = false, initialSeq = null, onSeq = null }) {
  root.replaceChildren(el("p", { class: "muted" }, t("replay.loading")));
  const log = await api("GET", `${apiBase}/log`);
  const game = log.game;
  const last = game.last_seq;
  const games = await api("GET", "/api/games").catch(() => []);
  const info = games.find((g) => g.id === game.engine) || null;
  const board = await loadBoard(game.engine);
  const states = new Map();
  let seq = initialSeq === null ? 0 : Math.max(0, Math.min(last, initialSeq));
  let viewAs = "spectator";
  let view = null;
  let timer = null;
  let token = 0;

  const button = (label, testid, title, onclick) =>
    el("button", { type: "button", title, "aria-label": title, dataset: { testid }, onclick }, label);
  const first = button("|◀", "replay-first", t("replay.first"), () => go(0));
  const prev = button("◀", "replay-prev", t("replay.prev"), () => go(seq - 1));
  const play = button(`▶ ${t("replay.play")}`, "replay-play", t("replay.play_pause"), () => (timer ? pause() : start()));
  const next = button("▶", "replay-next", t("replay.next"), () => go(seq + 1));
  const end = button("▶|", "replay-last", t("replay.last"), () => go(last));
  const slider = el("input", {
    type: "range", min: 0, max: last, value: seq, "aria-label": t("replay.slider"), dataset: { testid: "replay-slider" },
  });
  slider.addEventListener("input", () => go(Number(slider.value)));
  const jump = el("input", {
    type: "number", min: 0, max: last, value: seq, inputmode: "numeric", "aria-label": t("replay.jump_label"),
    class: "replay-jump", dataset: { testid: "replay-jump" },
  });
  jump.addEventListener("change", () => go(Number(jump.value)));
  const seqLabel = el("span", { class: "replay-seq", dataset: { testid: "replay-seq" } });
  const select = el("select", { "aria-label": t("replay.view_as"), dataset: { testid: "replay-view-as" } });
  for (const s of game.seats) {
    select.append(el("option", { value: `seat:${s.seat}` }, `${s.name}${s.bot ? ` (${t("seat.bot")})` : ""}`));
  }
  select.append(el("option", { value: "spectator" }, t("replay.spectator")));
  // the engine's raw state (PRNG, undealt cards) is the admin's only
  if (full) select.append(el("option", { value: "full" }, "Full state (everything)"));
  select.value = viewAs;
  select.addEventListener("change", () => { viewAs = select.value; remount(); render(); });
  const moveLine = el("p", { class: "replay-move", dataset: { testid: "replay-move" } });
  const status = el("p", { class: "muted replay-status", dataset: { testid: "replay-status" } });
  const stage = el("div", { class: "replay-stage", dataset: { testid: "replay-board" } });
  const controls = el("div", { class: "replay-controls" }, first, prev, play, next, end, seqLabel);
  const options = el("div", { class: "replay-controls" },
    el("label", {}, `${t("replay.jump")} `, jump), el("label", {}, `${t("replay.view_as")} `, select));
  root.replaceChildren(
    el("h2", {}, `${t("replay.page_title")} · ${info ? tOr(`game.${info.id}.title`, info.title) : game.engine}`),
    controls, slider, options, moveLine, status, stage,
  );
  root.tabIndex = -1;
  root.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.key === "ArrowLeft") { e.preventDefault(); go(seq - 1); }
    if (e.key === "ArrowRight") { e.preventDefault(); go(seq + 1); }
    if (e.key === " ") { e.preventDefault(); timer ? pause() : start(); }
  });

  function remount() {
    if (view) view.destroy();
    stage.replaceChildren();
    if (viewAs === "full") {
      view = rawView(stage, "Showing everything, hidden parts included (the engine's full state).");
      return;
    }
    const seat = viewAs.startsWith("seat:") ? Number(viewAs.slice(5)) : null;
    if (!board) {
      view = rawView(stage, t("room.board_failed"));
      return;
    }
    const ctx = {
      seat,
      players: game.seats.map((s) => ({ seat: s.seat, name: s.name, bot: s.bot })),
      info,
      mode: "replay",
      send: null,
    };
    const host = el("div", { class: "replay-board-host" });
    stage.append(host);
    try {
      view = board.createGameView(host, ctx);
    } catch (err) {
      console.error(err);
      stage.replaceChildren();
      view = rawView(stage, t("room.board_failed"));
    }
  }

  async function fetchState(k) {
    if (!states.has(k)) states.set(k, api("GET", `${apiBase}/state?seq=${k}`));
    try {
      return await states.get(k);
    } catch (err) {
      states.delete(k);
      throw err;
    }
  }

  async function render() {
    const mine = ++token;
    seqLabel.textContent = t("replay.move_of", { n: seq, last });
    root.dataset.seq = String(seq);
    slider.value = String(seq);
    jump.value = String(seq);
    prev.disabled = first.disabled = seq <= 0;
    next.disabled = end.disabled = seq >= last;
    let data;
    try {
      data = await fetchState(seq);
    } catch (err) {
      status.textContent = t("replay.move_failed", { n: seq, error: err.message });
      return;
    }
    if (mine !== token) return; // a newer step won the race
    moveLine.textContent = describeMove(data.move);
    const nextUp = seatNames(game.seats, data.to_act);
    status.textContent = data.outcome
      ? t("replay.over")
      : `${tOr(`phase.${game.engine}.${data.phase}`, String(data.phase).replaceAll("_", " "))}${nextUp ? ` · ${t("replay.next_up", { names: nextUp })}` : ""}`;
    let shown;
    if (viewAs === "full") shown = data.state;
    else if (viewAs === "spectator") shown = data.spectator;
    else shown = data.views[Number(viewAs.slice(5))];
    try {
      view.update(shown, { seq, deadline: null });
    } catch (err) {
      console.error(err);
      view.destroy();
      view = rawView(stage, t("room.board_failed"));
      view.update(shown, { seq, deadline: null });
    }
    if (onSeq) onSeq(seq);
    // warm the next step so stepping forward feels instant
    if (seq < last) fetchState(seq + 1).catch(() => {});
  }

  function go(k) {
    const target = Math.max(0, Math.min(last, Number.isFinite(k) ? Math.trunc(k) : seq));
    if (target === seq && view) return;
    seq = target;
    render();
  }

  function start() {
    if (seq >= last) seq = 0;
    play.textContent = "❚❚ Pause";
    render();
    timer = setInterval(() => {
      go(seq + 1);
      if (seq >= last) pause(); // at once: a later tick must not move on from a seq picked by hand
    }, PLAY_MS);
  }

  function pause() {
    clearInterval(timer);
    timer = null;
    play.textContent = "▶ Play";
  }

  remount();
  render();
  return {
    go,
    get seq() { return seq; },
    setViewAs(value) { select.value = value; viewAs = value; remount(); render(); },
    destroy() { pause(); if (view) view.destroy(); root.replaceChildren(); },
  };
}

// The players' page /r/<room>/replay/<game>: the same player once the game is over.
export async function mountPlayerReplay(container) {
  const { roomId, gameId } = container.dataset;
  const root = container.querySelector("#replay");
  try {
    await createReplayPlayer(root, { apiBase: `/api/rooms/${encodeURIComponent(roomId)}/games/${encodeURIComponent(gameId)}` });
  } catch (err) {
    const message = err.status === 409
      ? t("error.game_running")
      : err.status === 401
        ? t("replay.players_only")
        : t("replay.failed", { error: err.message });
    root.replaceChildren(el("p", { class: "error", dataset: { testid: "replay-error" } }, message));
  }
}

const playerPage = document.getElementById("player-replay");
if (playerPage) mountPlayerReplay(playerPage);
