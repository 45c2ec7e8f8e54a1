// static/js/socket.js: the room socket's reading of state, patch, ack and reconnect frames
// (docs/protocol.md), against a fake WebSocket played from the test.
import { FakeWebSocket } from "./dom.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { RoomSocket } from "../../static/js/socket.js";

function open(handlers = {}) {
  const shown = [];
  const socket = new RoomSocket("r1", { state: (frame) => shown.push(frame), ...handlers });
  const ws = FakeWebSocket.last;
  ws.open();
  ws.receive({ type: "welcome" });
  return { socket, ws, shown };
}

const full = (seq, view) => ({ type: "state", game_id: 7, seq, seat: 0, deadline: null, view });
const patch = (base, seq, ops) => ({ type: "patch", game_id: 7, base, seq, ops }); // no seat, no clock

test("the hello asks for patch frames and names no view before one is held", () => {
  const { socket, ws } = open();
  assert.equal(ws.url, "ws://127.0.0.1:8000/ws/r1");
  assert.deepEqual(ws.sent[0], { type: "hello", token: null, patches: "compact", ack_in_patch: true, seq: null });
  socket.stop();
});

test("a patch starting from the view held is applied and shown as a whole view", () => {
  const { socket, ws, shown } = open();
  ws.receive(full(3, { counter: 1, log: [] }));
  ws.receive(patch(3, 4, [{ op: "replace", path: "/counter", value: 2 }, { op: "add", path: "/log/-", value: "x" }]));
  assert.equal(shown.length, 2);
  assert.deepEqual(shown[1], { type: "state", game_id: 7, seq: 4, deadline: null, seat: 0, view: { counter: 2, log: ["x"] } });
  assert.equal(ws.sent.length, 1); // no resync
  socket.stop();
});

test("a patch from another view asks once for a full state, whose answer is taken at the same seq", () => {
  const { socket, ws, shown } = open();
  ws.receive(full(3, { counter: 1 }));
  ws.receive(patch(4, 5, [{ op: "replace", path: "/counter", value: 3 }]));
  ws.receive(patch(5, 6, [{ op: "replace", path: "/counter", value: 4 }]));
  assert.deepEqual(ws.sent.slice(1), [{ type: "hello" }]);
  assert.equal(shown.length, 1);
  ws.receive(full(3, { counter: 9 }));
  assert.equal(shown.length, 2);
  assert.equal(shown[1].view.counter, 9);
  socket.stop();
});

test("a patch that does not apply to the view held asks for a full state", () => {
  const { socket, ws, shown } = open();
  ws.receive(full(3, { log: [] }));
  ws.receive(patch(3, 4, [{ op: "replace", path: "/log/7", value: 1 }]));
  assert.deepEqual(ws.sent.slice(1), [{ type: "hello" }]);
  assert.equal(shown.length, 1);
  socket.stop();
});

test("frames already shown are passed over: an older state, a patch at or below the seq held", () => {
  const { socket, ws, shown } = open();
  ws.receive(full(5, { counter: 5 }));
  ws.receive(full(4, { counter: 4 }));
  ws.receive(full(5, { counter: 50 }));
  ws.receive(patch(4, 5, [{ op: "replace", path: "/counter", value: 0 }]));
  assert.equal(shown.length, 1);
  assert.equal(ws.sent.length, 1);
  socket.stop();
});

test("a move's answer comes back by its ref: an ack, or an error with its code", async () => {
  const errors = [];
  const { socket, ws } = open({ error: (frame) => errors.push(frame.code) });
  const first = socket.act({ type: "add", n: 1 });
  const second = socket.act({ type: "add", n: 9 });
  const [a, b] = ws.sent.slice(1);
  assert.equal(a.type, "act");
  assert.deepEqual(a.action, { type: "add", n: 1 });
  assert.notEqual(a.ref, b.ref);
  ws.receive({ type: "ack", ref: a.ref, seq: 8 });
  ws.receive({ type: "error", ref: b.ref, code: "illegal", message: "No." });
  assert.deepEqual(await first, { ok: true, seq: 8 });
  assert.deepEqual(await second, { ok: false, code: "illegal", message: "No." });
  assert.deepEqual(errors, ["illegal"]);
  socket.stop();
});

test("after a reconnect frame the hello names the view held and waiting moves go again with their ref", async () => {
  const later = [];
  const setTimeoutBefore = globalThis.setTimeout;
  globalThis.setTimeout = (fn) => later.push(fn); // the socket's reconnect delay, run at once below
  try {
    const { socket, ws } = open();
    ws.receive(full(3, { counter: 1 }));
    const pending = socket.act({ type: "add", n: 2 });
    const ref = ws.sent.at(-1).ref;
    ws.receive({ type: "reconnect" });
    ws.onclose();
    assert.equal(later.length, 1);
    later[0]();
    const next = FakeWebSocket.last;
    assert.notEqual(next, ws);
    next.open();
    assert.deepEqual(next.sent[0], { type: "hello", token: null, patches: "compact", ack_in_patch: true, seq: 3, game_id: 7, seat: 0 });
    next.receive({ type: "welcome" });
    assert.deepEqual(next.sent[1], { type: "act", ref, action: { type: "add", n: 2 } });
    next.receive({ type: "ack", ref, seq: 4 });
    socket.stop();
    assert.deepEqual(await pending, { ok: true, seq: 4 });
  } finally {
    globalThis.setTimeout = setTimeoutBefore;
  }
});

test("a closed socket answers the moves waiting on it as disconnected", async () => {
  const { socket, ws } = open();
  const pending = socket.act({ type: "add", n: 1 });
  socket.stop();
  ws.onclose();
  const answer = await pending;
  assert.equal(answer.ok, false);
  assert.equal(answer.code, "disconnected");
});

test("a room patch is applied to the room held and handed on as a whole room", () => {
  const rooms = [];
  const { socket, ws } = open({ room: (frame) => rooms.push(frame.room) });
  ws.receive({ type: "room", room: { status: "lobby", seats: [{ name: "Ada" }], game_id: null } });
  ws.receive({
    type: "room_patch",
    ops: [{ op: "replace", path: "/status", value: "playing" }, { op: "replace", path: "/game_id", value: 4 }],
  });
  ws.receive({ type: "room_patch", ops: [{ op: "add", path: "/seats/-", value: { name: "Bo" } }] });
  assert.deepEqual(rooms[2], { status: "playing", seats: [{ name: "Ada" }, { name: "Bo" }], game_id: 4 });
  assert.deepEqual(rooms[0], { status: "lobby", seats: [{ name: "Ada" }], game_id: null }); // not changed in place
  assert.equal(ws.sent.length, 1); // no resync
  socket.stop();
});

test("a room patch that does not apply asks for the whole room again", () => {
  const rooms = [];
  const { socket, ws } = open({ room: (frame) => rooms.push(frame.room) });
  ws.receive({ type: "room", room: { seats: [] } });
  ws.receive({ type: "room_patch", ops: [{ op: "replace", path: "/seats/3/name", value: "Cy" }] });
  assert.deepEqual(ws.sent.slice(1), [{ type: "hello" }]);
  assert.equal(rooms.length, 1);
  socket.stop();
});

test("the compact form's frames are read as the objects they stand for", async () => {
  const rooms = [];
  const { socket, ws, shown } = open({ room: (frame) => rooms.push(frame.room) });
  ws.receive(["s", 7, 3, null, 0, { counter: 1 }]); // a state: game, seq, deadline, seat, view
  assert.deepEqual(shown[0], full(3, { counter: 1 }));
  ws.receive(["p", 7, 4, 3, [["=", "/counter", 2]]]); // a patch: game, seq, base, operations
  ws.receive(["p", 7, 5, 4, [["=", "/counter", 3]], 1.5e12]); // and a deadline after them
  assert.deepEqual(shown.slice(1).map((f) => [f.seq, f.view.counter, f.deadline]), [[4, 2, null], [5, 3, 1.5e12]]);
  const move = socket.act({ type: "add", n: 1 });
  const again = socket.act({ type: "add", n: 1 });
  const [a, b] = ws.sent.slice(1);
  ws.receive(["a", a.ref, 6]); // an ack: ref, seq
  ws.receive(["a", b.ref, 6, true]); // a duplicate's
  assert.deepEqual([await move, await again], [{ ok: true, seq: 6 }, { ok: true, seq: 6 }]);
  ws.receive({ type: "room", room: { status: "lobby" } });
  ws.receive(["r", [["=", "/status", "playing"]]]); // a room patch
  assert.deepEqual(rooms, [{ status: "lobby" }, { status: "playing" }]);
  ws.receive(["z", 1]); // a name this page does not know is passed over
  assert.equal(ws.sent.length, 3); // no resync
  socket.stop();
});

test("the mover's patch carries its move's ack: the view is shown, then the move answered", async () => {
  const { socket, ws, shown } = open();
  ws.receive(["s", 7, 3, null, 0, { counter: 1 }]);
  const move = socket.act({ type: "add", n: 1 });
  const [a] = ws.sent.slice(1);
  let shownWhenAnswered = null;
  move.then(() => { shownWhenAnswered = shown.length; });
  ws.receive(["p", 7, 4, 3, [["=", "/counter", 2]], null, a.ref]); // no deadline: null before the ref
  assert.deepEqual(await move, { ok: true, seq: 4 });
  assert.equal(shownWhenAnswered, 2);
  assert.deepEqual(shown[1], full(4, { counter: 2 }));
  // a patch already shown still answers the move it carries
  const again = socket.act({ type: "add", n: 1 });
  const [, b] = ws.sent.slice(1);
  ws.receive(["p", 7, 4, 3, [["=", "/counter", 2]], 1.5e12, b.ref]);
  assert.deepEqual(await again, { ok: true, seq: 4 });
  assert.equal(shown.length, 2);
  assert.equal(ws.sent.length, 3); // no resync
  socket.stop();
});
