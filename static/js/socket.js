// The room's websocket: hello/welcome, acks by ref, reconnection with backoff. After the
// first full state, each move comes as a patch frame applied to the view held here
// (docs/protocol.md, "Patch frames"), and the game modules always get whole views; a patch
// that does not start from the view held here asks for a full one (a fresh hello). Room
// changes after the first whole room come as room_patch frames, applied to the room held
// here, so the page gets whole rooms too. A "reconnect" frame (the server is restarting)
// closes the socket and connects again soon; moves still waiting for their answer are then
// sent again with the same ref (the server answers a committed one with its ack), and the
// hello names the view held so that only the missed moves come back.

import { t } from "./i18n.js";
import { applyPatch } from "./patch.js";

// A frame as the handlers read it: the compact form's arrays, the frames of the game
// (docs/protocol.md, "The compact form"), as the objects they stand for.
export function expand(frame) {
  if (!Array.isArray(frame)) return frame;
  const [name, ...rest] = frame;
  if (name === "s") {
    const [game_id, seq, deadline, seat, view] = rest;
    return { type: "state", game_id, seq, deadline, seat, view };
  }
  if (name === "p") {
    // the mover's own patch ends with its move's ref: its ack (the hello's ack_in_patch)
    const [game_id, seq, base, ops, deadline, ack] = rest;
    return { type: "patch", game_id, seq, base, ops, ...(deadline == null ? {} : { deadline }), ...(ack === undefined ? {} : { ack }) };
  }
  if (name === "a") return { type: "ack", ref: rest[0], seq: rest[1], duplicate: rest[2] === true };
  if (name === "r") return { type: "room_patch", ops: rest[0] };
  return { type: `unknown ${name}` };
}

export class RoomSocket {
  constructor(roomId, handlers, hello = {}) {
    this.roomId = roomId;
    this.handlers = handlers; // {welcome, state, room, chat, error, status, kicked, closed}
    this.helloExtra = hello; // more for every hello: a shared screen's {screen: key}
    this.pending = new Map(); // ref -> {resolve, action}
    this.moving = false; // the server asked us to reconnect: keep pending moves for the next socket
    this.lastSeq = {}; // game id -> seq
    this.held = {}; // game id -> {view, seat}: what patches apply to
    this.gameId = null; // the newest game a view came for
    this.room = null; // the room of the last welcome or room frame: what room patches apply to
    this.resyncing = false; // a hello asking for a full state is on its way
    this.attempt = 0;
    this.stopped = false;
    this.counter = 0;
    this.connect();
  }

  url() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    return `${proto}://${location.host}/ws/${encodeURIComponent(this.roomId)}`;
  }

  connect() {
    this.handlers.status?.("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.resyncing = false;
      // the seat token travels in the HttpOnly cookie of the handshake; the view held here
      // lets the server send only the moves missed while away
      const hello = { type: "hello", token: null, patches: "compact", ack_in_patch: true, seq: null, ...this.helloExtra };
      const held = this.gameId !== null ? this.held[this.gameId] : undefined;
      if (held) Object.assign(hello, { game_id: this.gameId, seq: this.lastSeq[this.gameId], seat: held.seat });
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (event) => {
      const frame = expand(JSON.parse(event.data));
      this.onFrame(frame);
      if (frame.ack !== undefined) this.onFrame({ type: "ack", ref: frame.ack, seq: frame.seq, duplicate: false });
    };
    ws.onclose = () => {
      if (ws !== this.ws) return; // an old socket closing after a reconnect frame
      this.handlers.status?.("closed");
      if (!this.moving) {
        for (const [, p] of this.pending) p.resolve({ ok: false, code: "disconnected", message: t("error.disconnected") });
        this.pending.clear();
      }
      if (this.stopped) return;
      const delay = this.moving ? 200 + Math.random() * 600 : Math.min(10000, 500 * 2 ** this.attempt++) * (0.75 + Math.random() / 2);
      setTimeout(() => this.connect(), delay);
    };
  }

  onFrame(frame) {
    switch (frame.type) {
      case "welcome":
        this.room = frame.room ?? null;
        this.attempt = 0;
        this.handlers.status?.("open");
        this.handlers.welcome?.(frame);
        if (this.moving) {
          this.moving = false;
          for (const [ref, p] of this.pending) this.ws.send(JSON.stringify({ type: "act", ref, action: p.action }));
        }
        break;
      case "reconnect":
        this.moving = true;
        this.handlers.status?.("connecting");
        this.ws.close();
        break;
      case "state": {
        // a full view: whatever came before it, nothing is missing once it is shown; the
        // answer to a resync is taken even at the same seq (the view held may be wrong)
        const last = this.lastSeq[frame.game_id];
        if (last !== undefined && (frame.seq < last || (frame.seq === last && !this.resyncing))) return;
        this.resyncing = false;
        this.show(frame);
        break;
      }
      case "patch": {
        const last = this.lastSeq[frame.game_id];
        const held = this.held[frame.game_id];
        if (last !== undefined && frame.seq <= last) return; // already shown
        if (!held || last !== frame.base) {
          this.resync(); // not the view this patch starts from: ask for the whole view
          return;
        }
        let view;
        try {
          view = applyPatch(held.view, frame.ops);
        } catch {
          this.resync();
          return;
        }
        // a patch names a deadline only when there is one, and applies to the seat held
        this.show({ type: "state", game_id: frame.game_id, seq: frame.seq, deadline: frame.deadline ?? null, seat: held.seat, view });
        break;
      }
      case "room":
        this.room = frame.room;
        this.handlers.room?.(frame);
        break;
      case "room_patch": {
        // what changed in the room since the last room frame
        let room;
        try {
          room = this.room ? applyPatch(this.room, frame.ops) : null;
        } catch {
          room = null;
        }
        if (room === null) {
          this.resync(); // answered by a whole room frame and the state
          return;
        }
        this.room = room;
        this.handlers.room?.({ type: "room", room });
        break;
      }
      case "ack": {
        const p = this.pending.get(frame.ref);
        if (p) { this.pending.delete(frame.ref); p.resolve({ ok: true, seq: frame.seq }); }
        break;
      }
      case "error": {
        const p = frame.ref != null && this.pending.get(frame.ref);
        if (p) { this.pending.delete(frame.ref); p.resolve({ ok: false, code: frame.code, message: frame.message }); }
        this.handlers.error?.(frame);
        if (frame.code === "not_member" || frame.code === "bad_screen_key") this.stop();
        break;
      }
      case "kicked":
      case "closed":
        this.stop();
        this.handlers[frame.type]?.(frame);
        break;
      default:
        this.handlers[frame.type]?.(frame);
    }
  }

  show(frame) {
    this.lastSeq[frame.game_id] = frame.seq;
    this.held[frame.game_id] = { view: frame.view, seat: frame.seat ?? null };
    this.gameId = frame.game_id;
    this.handlers.state?.(frame);
  }

  resync() {
    if (this.resyncing) return; // one hello answers every patch that did not fit
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.resyncing = true;
      this.ws.send(JSON.stringify({ type: "hello" }));
    }
  }

  act(action) {
    const ref = `${Date.now().toString(36)}-${(this.counter++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    return new Promise((resolve) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        resolve({ ok: false, code: "disconnected", message: t("error.not_connected") });
        return;
      }
      this.pending.set(ref, { resolve, action });
      this.ws.send(JSON.stringify({ type: "act", ref, action }));
    });
  }

  chat(text) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: "chat", text }));
  }

  stop() {
    this.stopped = true;
    this.ws?.close();
  }
}
