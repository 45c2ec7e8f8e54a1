// The room's websocket: hello/welcome, acks by ref, reconnection with backoff, and a resync
// (a fresh hello) whenever a state frame skips a seq. A "reconnect" frame (the server is
// restarting) closes the socket and connects again soon; moves still waiting for their answer
// are then sent again with the same ref (the server answers a committed one with its ack).

export class RoomSocket {
  constructor(roomId, handlers) {
    this.roomId = roomId;
    this.handlers = handlers; // {welcome, state, room, chat, error, status, kicked, closed}
    this.pending = new Map(); // ref -> {resolve, action}
    this.moving = false; // the server asked us to reconnect: keep pending moves for the next socket
    this.lastSeq = {}; // game id -> seq
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
      const gameIds = Object.keys(this.lastSeq);
      const seq = gameIds.length ? this.lastSeq[gameIds[gameIds.length - 1]] : null;
      // the seat token travels in the HttpOnly cookie of the handshake
      ws.send(JSON.stringify({ type: "hello", token: null, seq }));
    };
    ws.onmessage = (event) => this.onFrame(JSON.parse(event.data));
    ws.onclose = () => {
      if (ws !== this.ws) return; // an old socket closing after a reconnect frame
      this.handlers.status?.("closed");
      if (!this.moving) {
        for (const [, p] of this.pending) p.resolve({ ok: false, code: "disconnected", message: "Connection lost; try again." });
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
        const last = this.lastSeq[frame.game_id];
        if (last !== undefined && frame.seq <= last) return; // already shown
        if (last !== undefined && frame.seq > last + 1 && frame.resync !== true) {
          // a gap: show this frame (it is a full view) but ask for a resync to be safe
          this.resync();
        }
        this.lastSeq[frame.game_id] = frame.seq;
        this.handlers.state?.(frame);
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
        if (frame.code === "not_member") this.stop();
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

  resync() {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: "hello" }));
  }

  act(action) {
    const ref = `${Date.now().toString(36)}-${(this.counter++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    return new Promise((resolve) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        resolve({ ok: false, code: "disconnected", message: "Not connected; reconnecting…" });
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
