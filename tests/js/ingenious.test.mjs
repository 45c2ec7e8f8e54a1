// The browser's Ingenious preview (static/games/ingenious-score.js) held to the conformance
// cases the engine passes (tests/conformance/ingenious.json, docs/conformance.md): before each
// placement the tiles are laid again from the case's moves and given to the page's functions, which
// must name the placement legal (or not, when the engine refused it for where it goes), score
// what the engine's track moved, and count the bonus placements the engine gave.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DIRS, key, legalTargets, previewGain } from "../../static/games/ingenious-score.js";

const data = JSON.parse(readFileSync(new URL("../conformance/ingenious.json", import.meta.url), "utf8"));

// docs/rules/ingenious.md, "Variants and players" and the start symbols
const STARTS = [[0, -5, "red"], [5, -5, "green"], [5, 0, "blue"], [0, 5, "orange"], [-5, 5, "yellow"], [-5, 0, "purple"]];
function table(players, variant) {
  if (variant === "solo") return { radius: 5, cap: 36, bonus_at: [18, 36] };
  if (variant === "teams") return { radius: 7, cap: 36, bonus_at: [18, 36] };
  return { radius: { 2: 5, 3: 6, 4: 7 }[players], cap: 18, bonus_at: [18] };
}
// refusals about where a tile goes, which the page's legal targets must agree with
const PLACEMENT_REFUSALS = new Set(["off_board", "not_adjacent", "occupied", "first_round"]);

const touches = ([q, r], cells) => DIRS.some(([dq, dr]) => cells.has(key(q + dq, r + dr)));
const sameCells = (action) =>
  Array.isArray(action.cells) && action.cells.length === 2 && action.cells.every((c) => Array.isArray(c) && c.length === 2 && c.every(Number.isInteger));

for (const c of data.cases) {
  test(`${c.id}: ${c.rule}`, () => {
    const { players, options } = c.setup;
    const rules = table(players, options.variant ?? (players === 1 ? "solo" : "standard"));
    const tiles = []; // placed so far, as the view lists them: [[q1, r1, c1], [q2, r2, c2]]
    const tileCells = new Set(); // every placed hex, for the start symbols a tile touches
    const placed = new Set(); // seats that placed their first tile
    let before = { ...c.start, view: { placements_left: 1, rack_sizes: Array(players).fill(6) } };
    let checked = 0;
    for (const [i, step] of c.steps.entries()) {
      const where = `step ${i} (${JSON.stringify(step.action)})`;
      const action = step.action;
      if (action.type === "timeout" && before.phase === "place" && step.refused === null) {
        break; // the system placed a tile the case does not name: the board is unknown from here
      }
      if (action.type !== "place" || !sameCells(action)) {
        before = step.refused === null ? step : before;
        continue;
      }
      const seat = step.seat;
      const view = {
        ...rules,
        starts: STARTS,
        tiles,
        scores: before.scores,
        free_starts: STARTS.filter(([q, r]) => !touches([q, r], tileCells)),
      };
      const [first, second] = action.cells;
      const legal = legalTargets(view, !placed.has(seat)).get(key(...first))?.has(key(...second)) ?? false;
      if (step.refused === null) {
        assert.ok(legal, `${where}: the engine took a placement the page calls illegal`);
        const { gained, bonus } = previewGain(view, seat, action.colors, action.cells);
        const moved = {};
        for (const [colour, value] of Object.entries(step.scores[seat])) {
          if (value !== before.scores[seat][colour]) moved[colour] = value - before.scores[seat][colour];
        }
        assert.deepEqual(gained, moved, `${where}: the page's preview against the engine's track`);
        const remaining = before.view.placements_left - 1 + bonus;
        if (step.phase === "place" && remaining > 0 && before.view.rack_sizes[seat] > 1) {
          assert.deepEqual(step.to_act, [seat], `${where}: a bonus placement keeps the turn`);
          assert.equal(step.view.placements_left, remaining, `${where}: the page's bonus count`);
        } else if (step.phase === "place") {
          assert.equal(step.view.placements_left, 1, `${where}: the turn ended, the next one has one placement`);
        }
        tiles.push(action.cells.map(([q, r], k) => [q, r, action.colors[k]]));
        for (const [q, r] of action.cells) tileCells.add(key(q, r));
        placed.add(seat);
        before = step;
        checked += 1;
      } else if (PLACEMENT_REFUSALS.has(step.refused)) {
        assert.ok(!legal, `${where}: the engine refused it (${step.refused}), the page calls it legal`);
      }
    }
    const placements = c.steps.filter((s) => s.action.type === "place" && s.refused === null).length;
    assert.ok(checked > 0 || placements === 0, "the case's placements were checked");
  });
}
