// static/js/patch.js: the RFC 6902 operations the server's patch frames use (docs/protocol.md,
// "Patch frames"), applied without changing the view they start from.
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyPatch } from "../../static/js/patch.js";

const view = { phase: "place", to_act: [0], scores: [{ red: 1 }, { red: 2 }], log: [{ n: 1 }, { n: 2 }], "a/b": 1, "m~n": 2 };

test("add inserts into a list at its index and appends at '-'", () => {
  const out = applyPatch(view, [
    { op: "add", path: "/log/0", value: { n: 0 } },
    { op: "add", path: "/log/-", value: { n: 3 } },
  ]);
  assert.deepEqual(out.log, [{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }]);
});

test("add on an object sets a member, new or not", () => {
  const out = applyPatch(view, [
    { op: "add", path: "/over", value: false },
    { op: "add", path: "/phase", value: "swap" },
  ]);
  assert.equal(out.over, false);
  assert.equal(out.phase, "swap");
});

test("remove takes a list item or a member out", () => {
  const out = applyPatch(view, [
    { op: "remove", path: "/log/0" },
    { op: "remove", path: "/phase" },
  ]);
  assert.deepEqual(out.log, [{ n: 2 }]);
  assert.equal("phase" in out, false);
});

test("replace sets a value deep in the view", () => {
  const out = applyPatch(view, [{ op: "replace", path: "/scores/1/red", value: 5 }]);
  assert.deepEqual(out.scores, [{ red: 1 }, { red: 5 }]);
});

test("an empty path replaces the whole view", () => {
  assert.deepEqual(applyPatch(view, [{ op: "replace", path: "", value: [1] }]), [1]);
});

test("~1 and ~0 in a path stand for / and ~", () => {
  const out = applyPatch(view, [
    { op: "replace", path: "/a~1b", value: 10 },
    { op: "replace", path: "/m~0n", value: 20 },
  ]);
  assert.equal(out["a/b"], 10);
  assert.equal(out["m~n"], 20);
});

test("operations apply in order, each to the result of the one before", () => {
  const out = applyPatch(view, [
    { op: "add", path: "/to_act/-", value: 1 },
    { op: "remove", path: "/to_act/0" },
  ]);
  assert.deepEqual(out.to_act, [1]);
});

test("the view patched is not changed, and what the patch did not touch is shared", () => {
  const before = structuredClone(view);
  const out = applyPatch(view, [{ op: "replace", path: "/scores/0/red", value: 9 }]);
  assert.deepEqual(view, before);
  assert.notEqual(out.scores, view.scores);
  assert.equal(out.scores[1], view.scores[1]);
  assert.equal(out.log, view.log);
});

test("a patch that does not fit the view throws, so the socket asks for a full state", () => {
  assert.throws(() => applyPatch(view, [{ op: "replace", path: "/log/5", value: 1 }]), /bad index/);
  assert.throws(() => applyPatch(view, [{ op: "replace", path: "/log/x", value: 1 }]), /bad index/);
  assert.throws(() => applyPatch(view, [{ op: "replace", path: "/nope/a", value: 1 }]), /no member/);
  assert.throws(() => applyPatch(view, [{ op: "replace", path: "/phase/a", value: 1 }]), /no container/);
  assert.throws(() => applyPatch(view, [{ op: "remove", path: "" }]), /whole document/);
});

test("the compact form [sign, path, value] gives what the objects give", () => {
  const objects = [
    { op: "add", path: "/log/0", value: { n: 0 } },
    { op: "remove", path: "/phase" },
    { op: "replace", path: "/scores/1/red", value: 5 },
    { op: "replace", path: "/a~1b", value: null },
  ];
  const compact = [["+", "/log/0", { n: 0 }], ["-", "/phase"], ["=", "/scores/1/red", 5], ["=", "/a~1b", null]];
  assert.deepEqual(applyPatch(view, compact), applyPatch(view, objects));
  assert.deepEqual(view.log, [{ n: 1 }, { n: 2 }]); // the view it started from is unchanged
});

test("a compact operation with an unknown sign or no path does not apply", () => {
  assert.throws(() => applyPatch(view, [["*", "/phase", 1]]));
  assert.throws(() => applyPatch(view, [["="]]));
});
