// The Ingenious rules the page needs to preview a placement: which cell pairs are legal, and
// the points a placement scores (docs/rules/ingenious.md). They mirror the engine, which stays
// the judge. Pure functions of the view, with no DOM, so that tests/js runs them outside the
// browser against the conformance cases (tests/conformance/ingenious.json) the engine passes.

// the six directions, in the engine's order
export const DIRS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];

export const key = (q, r) => `${q},${r}`;

export function onBoard(q, r, R) {
  return Math.max(Math.abs(q), Math.abs(r), Math.abs(q + r)) <= R;
}

// the occupied cells, colour by cell: the start symbols and the placed tiles' cells
export function boardMap(view) {
  const m = new Map();
  for (const [q, r, c] of view.starts) m.set(key(q, r), c);
  for (const tile of view.tiles) for (const [q, r, c] of tile) m.set(key(q, r), c);
  return m;
}

// Points a hex of `colour` on (q, r) scores on the current board (partner cell is still empty).
export function hexGain(board, R, q, r, colour) {
  let total = 0;
  for (const [dq, dr] of DIRS) {
    let x = q + dq;
    let y = r + dr;
    while (onBoard(x, y, R) && board.get(key(x, y)) === colour) {
      total += 1;
      x += dq;
      y += dr;
    }
  }
  return total;
}

// Per empty cell ("q,r"), the neighbours a tile may cover with it (the first-round rule included).
export function legalTargets(view, firstRound) {
  const board = boardMap(view);
  const R = view.radius;
  const empty = (q, r) => onBoard(q, r, R) && !board.has(key(q, r));
  let allowed = null;
  if (firstRound) {
    allowed = new Set();
    for (const [q, r] of view.free_starts || []) for (const [dq, dr] of DIRS) allowed.add(key(q + dq, r + dr));
  }
  const build = (restrict) => {
    const partners = new Map();
    for (let r = -R; r <= R; r++) {
      for (let q = -R; q <= R; q++) {
        if (!empty(q, r)) continue;
        for (const [dq, dr] of DIRS) {
          const q2 = q + dq;
          const r2 = r + dr;
          if (!empty(q2, r2)) continue;
          if (restrict && !restrict.has(key(q, r)) && !restrict.has(key(q2, r2))) continue;
          const k = key(q, r);
          if (!partners.has(k)) partners.set(k, new Set());
          partners.get(k).add(key(q2, r2));
        }
      }
    }
    return partners;
  };
  let partners = build(allowed);
  if (allowed && partners.size === 0) partners = build(null); // the engine's fallback
  return partners;
}

// One symbol's scoring: the colour's value after `points`, stopping at the next threshold
// above it (18, then 36 on the double track), and whether that earned a bonus.
export function oneScoring(view, value, points) {
  const stop = view.bonus_at.find((t) => value < t) ?? view.cap;
  const after = Math.min(stop, value + points);
  return [after, value < stop && stop <= after ? 1 : 0];
}

// A placement's gains as the engine scores them: symbol by symbol; a tile showing one colour
// twice scores it twice in a row, in the order that leaves the colour highest.
export function previewGain(view, seat, colours, cells) {
  const board = boardMap(view);
  const R = view.radius;
  const track = view.scores[seat];
  const gains = cells.map(([q, r], i) => hexGain(board, R, q, r, colours[i]));
  const raw = {};
  colours.forEach((c, i) => { raw[c] = (raw[c] || 0) + gains[i]; });
  const gained = {};
  let bonus = 0;
  const settle = (c, after, earned) => {
    if (after > track[c]) gained[c] = after - track[c];
    bonus += earned;
  };
  if (colours[0] === colours[1]) {
    const c = colours[0];
    let best = [track[c], 0];
    for (const [a, b] of [[gains[0], gains[1]], [gains[1], gains[0]]]) {
      const [mid, b1] = oneScoring(view, track[c], a);
      const [end, b2] = oneScoring(view, mid, b);
      if (end > best[0] || (end === best[0] && b1 + b2 > best[1])) best = [end, b1 + b2];
    }
    settle(c, best[0], best[1]);
  } else {
    colours.forEach((c, i) => settle(c, ...oneScoring(view, track[c], gains[i])));
  }
  return { raw, gained, bonus };
}
