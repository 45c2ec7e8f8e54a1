// The admin console: login, rooms list, a room's detail, a game's log and replay.
// Player names and actions are untrusted text: everything goes in with textContent.

import { api, el, onSubmit, stringifyExact, toast } from "./api.js";
import { createReplayPlayer } from "./replay.js";

const page = document.getElementById("admin-page");
const $ = (id) => document.getElementById(id);

function when(iso) {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

function cells(...values) {
  return el("tr", {}, values.map((v) => (v instanceof Node ? el("td", {}, v) : el("td", {}, v ?? "—"))));
}

function json(value) {
  return el("code", { class: "json" }, stringifyExact(value));
}

function authFailed(err) {
  if (err.status === 401) { location.reload(); return true; }
  return false;
}

const logout = $("admin-logout");
if (logout) {
  logout.addEventListener("click", async () => {
    await api("POST", "/api/admin/logout").catch(() => {});
    location.href = "/admin";
  });
}

// --- login -----------------------------------------------------------------------------

function loginPage() {
  onSubmit($("login-form"), async () => {
    $("login-error").textContent = "";
    try {
      await api("POST", "/api/admin/login", { token: $("admin-token").value });
      const next = page.dataset.next || "/admin";
      location.href = next.startsWith("/admin") ? next : "/admin";
    } catch (err) {
      $("login-error").textContent = err.message;
    }
  });
  $("admin-token").focus();
}

// --- rooms -----------------------------------------------------------------------------

function roomsPage() {
  const params = new URLSearchParams(location.search);
  for (const [key, id] of [["status", "f-status"], ["game", "f-game"], ["q", "f-q"]]) {
    if (params.get(key)) $(id).value = params.get(key);
  }
  let pending = null;
  async function refresh() {
    const query = new URLSearchParams();
    if ($("f-status").value) query.set("status", $("f-status").value);
    if ($("f-game").value) query.set("game", $("f-game").value);
    if ($("f-q").value.trim()) query.set("q", $("f-q").value.trim());
    history.replaceState(null, "", `/admin${query.toString() ? `?${query}` : ""}`);
    let data;
    try {
      data = await api("GET", `/api/admin/rooms?${query}`);
    } catch (err) {
      if (!authFailed(err)) $("rooms-count").textContent = err.message;
      return;
    }
    $("rooms-count").textContent = `${data.rooms.length} of ${data.total} rooms`;
    $("rooms-body").replaceChildren(...data.rooms.map((r) => {
      const link = el("a", { href: `/admin/rooms/${encodeURIComponent(r.id)}`, dataset: { testid: "room-link" } }, r.id);
      const game = r.game_id
        ? el("a", { href: `/admin/games/${r.game_id}`, dataset: { testid: "game-link" } }, `${r.game} #${r.game_id}`)
        : r.game;
      const last = r.last_move_at ? `${when(r.last_move_at)} (seq ${r.last_seq})` : "—";
      const row = cells(link, game, el("span", { class: `status status-${r.status}` }, r.status === "playing" ? "live" : r.status),
        r.players.join(", ") || "—", when(r.created_at), last);
      row.dataset.roomId = r.id;
      return row;
    }));
  }
  const soon = () => { clearTimeout(pending); pending = setTimeout(refresh, 250); };
  $("f-status").addEventListener("change", refresh);
  $("f-game").addEventListener("change", refresh);
  $("f-q").addEventListener("input", soon);
  onSubmit($("room-filters"), refresh);
  setInterval(() => { if ($("f-auto").checked && !document.hidden) refresh(); }, 5000);
  refresh();
}

// --- one room --------------------------------------------------------------------------

function roomPage() {
  const roomId = page.dataset.roomId;
  $("room-id").textContent = roomId;
  async function refresh() {
    let r;
    try {
      r = await api("GET", `/api/admin/rooms/${encodeURIComponent(roomId)}`);
    } catch (err) {
      if (!authFailed(err)) $("room-error").textContent = err.message;
      return;
    }
    $("room-meta").textContent = `${r.game} · ${r.status}${r.locked ? " · locked" : ""} · created ${when(r.created_at)} · options ${stringifyExact(r.options)}`;
    $("close-room").disabled = r.status === "closed";
    $("seats-body").replaceChildren(...r.seats.map((s) => cells(String(s.seat), s.name, s.bot || "")));
    // a member's seat in the current game once one started, else in the lobby (labelled)
    const seat = (m) => (m.gone ? "—" : m.seat === null ? "spectator" : `${m.seat} (${m.seat_in})`);
    $("members-body").replaceChildren(...r.members.map((m) =>
      cells(String(m.id), m.name, seat(m), m.bot || "", m.host ? "yes" : "", m.muted ? "yes" : "",
        m.gone || "", when(m.joined_at))));
    $("events-body").replaceChildren(...r.events.map((e) =>
      cells(when(e.at), e.kind, e.actor || "", e.target ? `${e.target} (#${e.target_id})` : "")));
    $("conns-body").replaceChildren(...r.connections.map((c) =>
      cells(c.member_id === null ? "—" : String(c.member_id), c.name, c.seat === null ? "spectator" : String(c.seat),
        JSON.stringify(c.last_seq))));
    $("games-body").replaceChildren(...r.games.map((g) =>
      cells(el("a", { href: `/admin/games/${g.id}`, dataset: { testid: "game-link" } }, `#${g.id}`),
        g.seats.map((s) => s.name).join(", "), when(g.started_at), when(g.finished_at), String(g.last_seq),
        g.result ? json(g.result) : "running")));
  }
  $("close-room").addEventListener("click", async () => {
    if (!confirm("Close this room? Its players are told and disconnected; the log stays.")) return;
    try {
      await api("POST", `/api/admin/rooms/${encodeURIComponent(roomId)}/close`, {});
      toast("Room closed.");
      refresh();
    } catch (err) {
      $("room-error").textContent = err.message;
    }
  });
  refresh();
  setInterval(() => { if (!document.hidden) refresh(); }, 5000);
}

// --- one game --------------------------------------------------------------------------

async function gamePage() {
  const gameId = page.dataset.gameId;
  const base = `/api/admin/games/${encodeURIComponent(gameId)}`;
  let player = null;
  let filled = false;
  async function refreshLog() {
    const query = new URLSearchParams();
    if ($("f-seat").value) query.set("seat", $("f-seat").value);
    if ($("f-type").value) query.set("type", $("f-type").value);
    let data;
    try {
      data = await api("GET", `${base}/log?${query}`);
    } catch (err) {
      if (!authFailed(err)) $("game-meta").textContent = err.message;
      return null;
    }
    const g = data.game;
    $("game-meta").textContent = `${g.engine} · ${g.seats.map((s) => `${s.seat}: ${s.name}`).join(", ")} · `
      + `${g.last_seq} moves · ${g.result ? `result ${stringifyExact(g.result)}` : "running"} · started ${when(g.started_at)}`;
    $("room-link").href = `/admin/rooms/${encodeURIComponent(g.room_id)}`;
    if (!filled) {
      filled = true;
      for (const s of g.seats) $("f-seat").append(el("option", { value: String(s.seat) }, `seat ${s.seat}: ${s.name}`));
      const types = [...new Set(data.moves.map((m) => m.type).filter(Boolean))].sort();
      for (const t of types) $("f-type").append(el("option", { value: t }, t));
    }
    $("log-body").replaceChildren(...data.moves.map((m) => {
      const seqLink = el("a", { href: "#replay", onclick: (e) => { e.preventDefault(); if (player) player.go(m.seq); } }, String(m.seq));
      const row = cells(seqLink, m.seat === null ? "system" : String(m.seat), m.player, when(m.at), json(m.action));
      row.dataset.seq = String(m.seq);
      return row;
    }));
    // every refusal is counted per sender; only the first few of each are kept whole
    const counted = (data.refused_counts || []).map((c) => `${c.member_id === null ? "server" : `member ${c.member_id}`}: ${c.count}`);
    $("refused-note").textContent = `Kept for ${data.refused_keep_days} days: the first few of each sender.`
      + (counted.length ? ` Refused in all: ${counted.join(", ")}.` : "");
    $("refused-body").replaceChildren(...data.refused.map((r) =>
      cells(String(r.at_seq), r.seat === null ? "system" : String(r.seat), r.player, when(r.at), r.code, r.message, json(r.action))));
    return data;
  }
  $("f-seat").addEventListener("change", refreshLog);
  $("f-type").addEventListener("change", refreshLog);
  const data = await refreshLog();
  if (!data) return;
  const current = (seq) => {
    for (const row of $("log-body").children) row.classList.toggle("current", row.dataset.seq === String(seq));
  };
  try {
    player = await createReplayPlayer($("replay"), { apiBase: base, full: true, onSeq: current });
  } catch (err) {
    $("replay").replaceChildren(el("p", { class: "error" }, `The replay could not load: ${err.message}`));
  }
}

const pages = { login: loginPage, rooms: roomsPage, room: roomPage, game: gamePage };
if (page && pages[page.dataset.page]) pages[page.dataset.page]();
