// The page's own patch code (static/js/patch.js) applying the same games' patch frames in
// each form: JSON.parse of the frame and applyPatch, per frame, as socket.js does them.
// bench/patches.py --browser writes the frames and runs this on them:
//
//     node bench/apply_patches.mjs FRAMES.json
import { readFileSync } from "node:fs";
import { applyPatch } from "../static/js/patch.js";

const games = JSON.parse(readFileSync(process.argv[2], "utf8")); // [{game, view, "json-patch": [...], compact: [...]}]
const FORMS = ["json-patch", "compact"];

function pass(form) {
  const start = process.hrtime.bigint();
  let frames = 0;
  for (const g of games) {
    let view = g.view;
    for (const text of g[form]) {
      const frame = JSON.parse(text);
      view = applyPatch(view, Array.isArray(frame) ? frame[4] : frame.ops); // ["p", game, seq, base, ops]
      frames++;
    }
  }
  return Number(process.hrtime.bigint() - start) / 1e3 / frames; // µs per frame
}

for (let i = 0; i < 5; i++) for (const form of FORMS) pass(form); // warm the JIT up
const times = { "json-patch": [], compact: [] };
for (let i = 0; i < 30; i++) for (const form of i % 2 ? [...FORMS].reverse() : FORMS) times[form].push(pass(form));
const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];
const frames = games.reduce((n, g) => n + g.compact.length, 0);
console.log(
  `the page applying ${frames} frames (JSON.parse + applyPatch), µs per frame, median of 30 passes alternating: ` +
    FORMS.map((form) => `${form} ${median(times[form]).toFixed(2)}`).join(", "),
);
