// Ingenious (Einfach Genial) in the browser: SVG hex board, rack, score tracks, prompts, log.
// Contract: docs/engine-contract.md. Plain ES module, no build step, text via textContent only.
//
// Placing a tile: pick a rack tile, click the cell for its first colour, then one of that
// cell's neighbours for the second colour (or click the neighbour first: the order of clicks
// decides which colour goes where; "Flip" swaps them). The preview shows the points; "Place"
// confirms. Legal targets are highlighted (the first-round start-symbol rule included).
//
// Keyboard: the rack and the board are one tab stop each (roving tabindex). In the rack the
// arrows pick a tile and Enter takes it to the board. On the board a cursor moves with the
// arrows (Left/Right along a row, Up/Down to the row above/below, keeping the column) or
// exactly one hex with Q E A D Z C (up-left, up-right, left, right, down-left, down-right);
// Enter puts the first colour under the cursor, then the arrows (or Q E A D Z C) choose where
// the second colour goes, Enter places the tile, Escape steps back, F flips the colours.

// the page's one DOM builder: player text always as text, never HTML
import { el as h } from "/static/js/api.js";
import { t as T } from "/static/js/i18n.js";
import { boardMap, key, legalTargets, onBoard, previewGain } from "./ingenious-score.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const COLOURS = ["red", "green", "blue", "orange", "yellow", "purple"];
const FILL = { red: "#d62839", green: "#2b9348", blue: "#1c6dd0", orange: "#f3722c", yellow: "#f9c74f", purple: "#7b2cbf" };
const INK = { red: "#fff", green: "#fff", blue: "#fff", orange: "#2b1600", yellow: "#3b2f00", purple: "#fff" };
const SHAPE = { red: "star", green: "disc", blue: "hexagon", orange: "triangle", yellow: "sun", purple: "diamond" };
// keys that step exactly one hex, laid out like the hexes around S on a QWERTY keyboard
const HEX_KEYS = { q: [0, -1], e: [1, -1], a: [-1, 0], d: [1, 0], z: [-1, 1], c: [0, 1] };
// the second colour's direction in words, and the order a fresh first cell offers them
const DIR_NAME = { "1,0": "right", "0,1": "down-right", "-1,1": "down-left", "-1,0": "left", "0,-1": "up-left", "1,-1": "up-right" };
const DIR_ORDER = [[1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1], [1, -1]];
const SQRT3 = Math.sqrt(3);
// a colour's name and its symbol's, in the page's language (the wire names stay English)
const colourName = (c) => T(`ingenious.colour.${c}`);
const shapeName = (c) => T(`ingenious.shape.${SHAPE[c]}`);
const dirName = (dq, dr) => T(`ingenious.dir.${DIR_NAME[key(dq, dr)]}`);

function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  for (const c of children) if (c) node.append(c);
  return node;
}

const pixel = (q, r) => [SQRT3 * (q + r / 2), 1.5 * r];

function hexPoints(cx, cy, size, flat = false) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i + (flat ? 0 : -30));
    pts.push(`${(cx + size * Math.cos(a)).toFixed(3)},${(cy + size * Math.sin(a)).toFixed(3)}`);
  }
  return pts.join(" ");
}

// A colour's symbol (colour-blind safe: every colour has its own shape).
export function symbol(colour, cx, cy, size) {
  const ink = INK[colour];
  const shape = SHAPE[colour];
  const attrs = { fill: ink, stroke: "none", class: `ingenious-symbol ingenious-symbol-${shape}` };
  if (shape === "disc") return s("circle", { ...attrs, cx, cy, r: size * 0.5 });
  if (shape === "hexagon") return s("polygon", { ...attrs, points: hexPoints(cx, cy, size * 0.55, true) });
  if (shape === "triangle") {
    const r = size * 0.62;
    const pts = [0, 1, 2].map((i) => {
      const a = (Math.PI / 180) * (-90 + 120 * i);
      return `${(cx + r * Math.cos(a)).toFixed(3)},${(cy + r * 0.95 * Math.sin(a) + r * 0.12).toFixed(3)}`;
    });
    return s("polygon", { ...attrs, points: pts.join(" ") });
  }
  if (shape === "diamond") {
    const r = size * 0.6;
    return s("polygon", { ...attrs, points: `${cx},${cy - r} ${cx + r * 0.7},${cy} ${cx},${cy + r} ${cx - r * 0.7},${cy}` });
  }
  if (shape === "star") {
    const pts = [];
    for (let i = 0; i < 10; i++) {
      const r = i % 2 ? size * 0.27 : size * 0.62;
      const a = (Math.PI / 180) * (-90 + 36 * i);
      pts.push(`${(cx + r * Math.cos(a)).toFixed(3)},${(cy + r * Math.sin(a)).toFixed(3)}`);
    }
    return s("polygon", { ...attrs, points: pts.join(" ") });
  }
  // sun: a disc with eight rays
  const g = s("g", { class: attrs.class });
  g.append(s("circle", { cx, cy, r: size * 0.27, fill: ink }));
  let d = "";
  for (let i = 0; i < 8; i++) {
    const a = (Math.PI / 4) * i;
    d += `M${(cx + size * 0.38 * Math.cos(a)).toFixed(3)},${(cy + size * 0.38 * Math.sin(a)).toFixed(3)}`;
    d += `L${(cx + size * 0.62 * Math.cos(a)).toFixed(3)},${(cy + size * 0.62 * Math.sin(a)).toFixed(3)}`;
  }
  g.append(s("path", { d, stroke: ink, "stroke-width": size * 0.12, "stroke-linecap": "round", fill: "none" }));
  return g;
}

// The link between a tile's two hexes: a short bar across their shared edge.
function bridge(x1, y1, x2, y2, cls) {
  const a = 0.36;
  const b = 0.64;
  return s("line", { x1: x1 + (x2 - x1) * a, y1: y1 + (y2 - y1) * a, x2: x1 + (x2 - x1) * b, y2: y1 + (y2 - y1) * b, class: cls });
}

function symbolIcon(colour, px = 18) {
  const svg = s("svg", { viewBox: "-1 -1 2 2", width: px, height: px, class: "ingenious-icon", "aria-hidden": "true" });
  svg.append(s("polygon", { points: hexPoints(0, 0, 1), fill: FILL[colour] }));
  svg.append(symbol(colour, 0, 0, 0.9));
  return svg;
}

function tileIcon(colours, px = 56) {
  const svg = s("svg", { viewBox: "-1.05 -1 4.1 2", width: px, height: px * 0.5, "aria-hidden": "true" });
  colours.forEach((c, i) => {
    const cx = i * SQRT3;
    svg.append(s("polygon", { points: hexPoints(cx, 0, 0.98), fill: FILL[c], stroke: "#222", "stroke-width": 0.06 }));
    svg.append(symbol(c, cx, 0, 0.85));
  });
  return svg;
}

// --- rules the UI needs (static/games/ingenious-score.js; the engine has the last word) ---

// A cell's name for people: rows top to bottom, columns left to right within the row, from 1.
export function cellName(q, r, R) {
  return T("ingenious.cell", { row: r + R + 1, column: q - Math.max(-R, -R - r) + 1 });
}

// --- the view ------------------------------------------------------------------------------

export function createGameView(root, ctx) {
  // busy: a move is being sent; sentSeq: the seq of the view it was made on, while it was
  // accepted but the next state frame has not come yet (the ack can beat the frame or not)
  // cursor: the board's keyboard cursor [q, r] (its one tab stop), cursorX the column it keeps
  // on Up/Down; rackFocus: the rack's tab stop; refocus: after a move, put the keyboard on the
  // next useful control once the board is unlocked
  const ui = { tile: null, first: null, second: null, flipped: false, busy: false, sentSeq: null,
    cursor: null, cursorX: null, rackFocus: 0, refocus: false };
  let view = null;
  let meta = {};
  let cellNodes = new Map();
  let boardRadius = null;

  root.classList.add("ingenious");
  const status = h("div", { class: "ingenious-status", "data-testid": "ingenious-status" });
  // what a screen reader hears (the room's live region): each move, the turn, the result
  const say = (text) => ctx.announce?.(text);
  let heard = null; // {n: the last log event read out, status: the last status line read out}
  const deadline = h("span", { class: "ingenious-deadline", "data-testid": "ingenious-deadline" });
  const bag = h("span", { class: "ingenious-bag", "data-testid": "ingenious-bag" });
  // zoom: the board drawn wider than its frame, which then scrolls (and pans by touch); the
  // point in the frame's middle stays in the middle
  const ZOOMS = [1, 1.5, 2, 2.5];
  let zoom = 0;
  const setZoom = (next) => {
    zoom = Math.max(0, Math.min(ZOOMS.length - 1, next));
    const fx = (boardWrap.scrollLeft + boardWrap.clientWidth / 2) / (boardWrap.scrollWidth || 1);
    const fy = (boardWrap.scrollTop + boardWrap.clientHeight / 2) / (boardWrap.scrollHeight || 1);
    boardWrap.classList.toggle("zoomed", zoom > 0);
    boardSvg.style.width = `${ZOOMS[zoom] * 100}%`;
    boardWrap.scrollLeft = fx * boardWrap.scrollWidth - boardWrap.clientWidth / 2;
    boardWrap.scrollTop = fy * boardWrap.scrollHeight - boardWrap.clientHeight / 2;
    zoomOut.disabled = zoom === 0;
    zoomIn.disabled = zoom === ZOOMS.length - 1;
    zoomLevel.textContent = `${Math.round(ZOOMS[zoom] * 100)}%`;
  };
  const zoomOut = h("button", { type: "button", class: "ingenious-zoom", "data-testid": "ingenious-zoom-out", "aria-label": T("ingenious.zoom_out"), disabled: true, onclick: () => setZoom(zoom - 1) }, "−");
  const zoomLevel = h("span", { class: "ingenious-zoom-level", "data-testid": "ingenious-zoom-level" }, "100%");
  const zoomIn = h("button", { type: "button", class: "ingenious-zoom", "data-testid": "ingenious-zoom-in", "aria-label": T("ingenious.zoom_in"), onclick: () => setZoom(zoom + 1) }, "+");
  const zoomBox = h("span", { class: "ingenious-zoom-box", role: "group", "aria-label": T("ingenious.zoom") }, zoomOut, zoomLevel, zoomIn);
  const top = h("div", { class: "ingenious-top" }, status, h("div", { class: "ingenious-meta" }, deadline, bag, zoomBox));
  // role application: screen readers pass the arrow and letter keys to the board's own keys
  const boardSvg = s("svg", { class: "ingenious-board", "data-testid": "ingenious-board", role: "application", "aria-roledescription": "board",
    "aria-label": T("ingenious.board_label") });
  boardSvg.addEventListener("keydown", boardKey);
  const boardWrap = h("div", { class: "ingenious-board-wrap" });
  boardWrap.append(boardSvg);
  const prompt = h("div", { class: "ingenious-prompt", "data-testid": "ingenious-prompt" });
  const rack = h("div", { class: "ingenious-rack", "data-testid": "ingenious-rack", role: "listbox", "aria-label": T("ingenious.rack") });
  const preview = h("div", { class: "ingenious-preview", "data-testid": "ingenious-preview" });
  const flipBtn = h("button", { type: "button", "data-testid": "ingenious-flip", onclick: () => { ui.flipped = !ui.flipped; render(); } }, T("ingenious.flip"));
  const cancelBtn = h("button", { type: "button", "data-testid": "ingenious-cancel", onclick: () => { clearSelection(); render(); } }, T("ingenious.cancel"));
  const confirmBtn = h("button", { type: "button", class: "primary", "data-testid": "ingenious-confirm", onclick: confirm }, T("ingenious.place"));
  const controls = h("div", { class: "ingenious-controls" }, flipBtn, cancelBtn, confirmBtn);
  const scores = h("div", { class: "ingenious-scores", "data-testid": "ingenious-scores" });
  const ranking = h("div", { class: "ingenious-ranking", "data-testid": "ingenious-ranking", tabindex: "-1" });
  const log = h("ul", { class: "ingenious-log", "data-testid": "ingenious-log", "aria-label": T("ingenious.moves") });
  const side = h(
    "div",
    { class: "ingenious-side" },
    ranking,
    prompt,
    h("div", { class: "ingenious-hand" }, rack, preview, controls),
    scores,
    h("details", { class: "ingenious-log-box", open: true }, h("summary", {}, T("ingenious.moves")), log),
  );
  root.append(top, h("div", { class: "ingenious-main" }, boardWrap, side));

  let timer = null;
  const tick = () => {
    if (!meta.deadline || !view || view.over) { deadline.textContent = ""; return; }
    const secs = Math.max(0, Math.round((meta.deadline - Date.now()) / 1000));
    deadline.textContent = T("ingenious.time_left", { time: `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}` });
  };
  timer = setInterval(tick, 1000);

  function players() {
    try { return ctx.players || []; } catch { return []; }
  }
  function nameOf(seat) {
    const p = players().find((x) => x.seat === seat);
    return p && p.name ? p.name : `Seat ${seat + 1}`;
  }
  function myTurn() {
    return view && ui.sentSeq === null && ctx.seat !== null && ctx.seat !== undefined && ctx.mode !== "replay" && !view.over && view.to_act.includes(ctx.seat);
  }
  function canPlace() { return myTurn() && view.phase === "place" && Array.isArray(view.rack) && view.rack.length > 0; }
  function clearSelection() { ui.first = null; ui.second = null; ui.flipped = false; }
  function colours() {
    if (ui.tile === null || !view.rack || !view.rack[ui.tile]) return null;
    const t = view.rack[ui.tile];
    return ui.flipped ? [t[1], t[0]] : [t[0], t[1]];
  }

  function buildBoard() {
    const R = view.radius;
    boardRadius = R;
    const w = SQRT3 * (2 * R + 1) + 0.4;
    const hgt = 3 * R + 2 + 0.4;
    boardSvg.setAttribute("viewBox", `${-w / 2} ${-hgt / 2} ${w} ${hgt}`);
    boardSvg.replaceChildren();
    cellNodes = new Map();
    const cellLayer = s("g", { class: "ingenious-cells" });
    for (let r = -R; r <= R; r++) {
      for (let q = -R; q <= R; q++) {
        if (!onBoard(q, r, R)) continue;
        const [cx, cy] = pixel(q, r);
        const g = s("g", { class: "ingenious-cell", "data-cell": key(q, r), tabindex: "-1", role: "button", "aria-roledescription": "cell" });
        const poly = s("polygon", { points: hexPoints(cx, cy, 0.97), class: "ingenious-hex" });
        const content = s("g", { class: "ingenious-content" });
        g.append(poly, content);
        g.addEventListener("click", () => { setCursor(q, r); clickCell(q, r); });
        cellLayer.append(g);
        cellNodes.set(key(q, r), { g, poly, content, cx, cy, q, r, shown: null });
      }
    }
    const bridges = s("g", { class: "ingenious-bridges" });
    boardSvg.append(cellLayer, bridges);
  }

  function drawCell(node, colour, extraClass) {
    const tag = `${colour || ""}|${extraClass || ""}`;
    if (node.shown === tag) return;
    node.shown = tag;
    node.content.replaceChildren();
    node.poly.style.fill = colour ? FILL[colour] : ""; // inline, so highlight rules don't repaint tiles
    if (colour) node.content.append(symbol(colour, node.cx, node.cy, 0.85));
    if (colour) node.g.setAttribute("data-colour", colour);
    else node.g.removeAttribute("data-colour");
  }

  function renderBoard() {
    if (boardRadius !== view.radius) buildBoard();
    if (!ui.cursor || !cellNodes.has(key(...ui.cursor))) ui.cursor = [0, 0];
    const board = boardMap(view);
    const starts = new Set(view.starts.map(([q, r]) => key(q, r)));
    const free = new Set((view.free_starts || []).map(([q, r]) => key(q, r)));
    const last = new Set();
    const lastPlace = [...view.log].reverse().find((e) => e.type === "place");
    if (lastPlace) for (const [q, r] of lastPlace.cells) last.add(key(q, r));
    const col = colours();
    const ghost = new Map();
    if (col && ui.first) ghost.set(key(...ui.first), col[0]);
    if (col && ui.second) ghost.set(key(...ui.second), col[1]);
    const partners = canPlace() && ui.tile !== null ? legalTargets(view, view.first_round) : new Map();
    let targets = new Set();
    if (partners.size) {
      if (ui.first) targets = partners.get(key(...ui.first)) || new Set();
      else targets = new Set(partners.keys());
    }
    for (const [k, node] of cellNodes) {
      const colour = board.get(k) || ghost.get(k) || null;
      drawCell(node, colour, ghost.has(k) ? "ghost" : "");
      const cls = ["ingenious-cell"];
      if (starts.has(k)) cls.push("ingenious-start");
      if (starts.has(k) && free.has(k) && view.first_round && !view.over) cls.push("ingenious-start-free");
      if (ghost.has(k)) cls.push("ingenious-ghost");
      if (last.has(k)) cls.push("ingenious-last");
      if (targets.has(k)) cls.push("ingenious-target");
      if (ui.first && key(...ui.first) === k) cls.push("ingenious-first");
      node.g.setAttribute("tabindex", k === key(...ui.cursor) ? "0" : "-1");
      if (k === key(...ui.cursor)) cls.push("ingenious-cursor");
      node.g.setAttribute("class", cls.join(" "));
      if (targets.has(k)) node.g.setAttribute("data-target", "1");
      else node.g.removeAttribute("data-target");
      node.g.setAttribute("aria-label", cellLabel(node, board.get(k), ghost.get(k), starts.has(k), targets.has(k)));
    }
    // placed tiles: a bridge between the two hexes of each tile
    const bridges = boardSvg.querySelector(".ingenious-bridges");
    bridges.replaceChildren();
    for (const [[q1, r1], [q2, r2]] of view.tiles || []) {
      const [x1, y1] = pixel(q1, r1);
      const [x2, y2] = pixel(q2, r2);
      bridges.append(bridge(x1, y1, x2, y2, "ingenious-bridge"));
    }
    if (ui.first && ui.second) {
      const [x1, y1] = pixel(...ui.first);
      const [x2, y2] = pixel(...ui.second);
      bridges.append(bridge(x1, y1, x2, y2, "ingenious-bridge ingenious-bridge-ghost"));
    }
  }

  function cellLabel(node, placed, ghostColour, start, target) {
    let what;
    if (placed) what = `${colourName(placed)} ${shapeName(placed)}${start ? `, ${T("ingenious.cell_start")}` : ""}`;
    else if (ghostColour) {
      const first = ui.first && key(...ui.first) === key(node.q, node.r);
      what = T(first ? "ingenious.cell_first_half" : "ingenious.cell_second_half", { colour: colourName(ghostColour) });
    } else what = T(target ? "ingenious.cell_target" : "ingenious.cell_empty");
    return `${cellName(node.q, node.r, view.radius)}, ${what}`;
  }

  // --- the keyboard on the board: a cursor, then a direction for the second colour ----------

  function setCursor(q, r) {
    ui.cursor = [q, r];
    ui.cursorX = pixel(q, r)[0];
  }

  function focusCursor() {
    const node = cellNodes.get(key(...ui.cursor));
    if (!node) return;
    for (const other of cellNodes.values()) other.g.setAttribute("tabindex", other === node ? "0" : "-1");
    node.g.focus({ preventScroll: false });
  }

  // From the rack to the board: the cursor stays where it was if a tile may go there, else it
  // goes to the first cell (in reading order) where one may.
  function focusBoard() {
    if (!view) return;
    const partners = canPlace() ? legalTargets(view, view.first_round) : new Map();
    if (partners.size && !partners.has(key(...(ui.cursor || [0, 0])))) {
      const [q, r] = partners.keys().next().value.split(",").map(Number);
      setCursor(q, r);
    }
    render();
    focusCursor();
  }

  // Up/Down: of the two cells in the next row, the one nearest the column the cursor keeps.
  function verticalStep(q, r, dr) {
    const options = (dr < 0 ? [[q, r - 1], [q + 1, r - 1]] : [[q - 1, r + 1], [q, r + 1]]).filter(([x, y]) => onBoard(x, y, view.radius));
    if (!options.length) return null;
    const x = ui.cursorX ?? pixel(q, r)[0];
    options.sort((a, b) => Math.abs(pixel(...a)[0] - x) - Math.abs(pixel(...b)[0] - x));
    return options[0];
  }

  function moveCursor(e) {
    const [q, r] = ui.cursor;
    const R = view.radius;
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    let next = null;
    if (HEX_KEYS[k]) next = [q + HEX_KEYS[k][0], r + HEX_KEYS[k][1]];
    else if (k === "ArrowLeft") next = [q - 1, r];
    else if (k === "ArrowRight") next = [q + 1, r];
    else if (k === "ArrowUp" || k === "ArrowDown") next = verticalStep(q, r, k === "ArrowUp" ? -1 : 1);
    else if (k === "Home") next = [Math.max(-R, -R - r), r];
    else if (k === "End") next = [Math.min(R, R - r), r];
    else return false;
    if (next && onBoard(next[0], next[1], R)) {
      const keepX = k === "ArrowUp" || k === "ArrowDown";
      const x = ui.cursorX;
      setCursor(...next);
      if (keepX && x !== null) ui.cursorX = x;
      render();
      focusCursor();
    }
    return true;
  }

  // With the first colour down: the arrows choose among the free neighbours. Up and Down each
  // have two (up-left/up-right, down-left/down-right): pressing again takes the other one.
  function chooseSecond(e) {
    const partners = legalTargets(view, view.first_round).get(key(...ui.first)) || new Set();
    const [q, r] = ui.first;
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    let dirs;
    if (HEX_KEYS[k]) dirs = [HEX_KEYS[k]];
    else if (k === "ArrowLeft") dirs = [[-1, 0]];
    else if (k === "ArrowRight") dirs = [[1, 0]];
    else if (k === "ArrowUp") dirs = [[0, -1], [1, -1]];
    else if (k === "ArrowDown") dirs = [[-1, 1], [0, 1]];
    else return false;
    const free = dirs.map(([dq, dr]) => [q + dq, r + dr]).filter((c) => partners.has(key(...c)));
    if (free.length) {
      const now = ui.second ? free.findIndex((c) => key(...c) === key(...ui.second)) : -1;
      ui.second = free[(now + 1) % free.length];
    } else {
      preview.textContent = T("ingenious.no_free_cell", { dirs: dirs.map(([dq, dr]) => dirName(dq, dr)).join(T("ingenious.or")) });
      say(preview.textContent);
      return true;
    }
    render();
    say(preview.textContent);
    return true;
  }

  function boardKey(e) {
    if (!view || e.altKey || e.ctrlKey || e.metaKey) return;
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const placing = canPlace() && !ui.busy;
    if (k === "Enter" || k === " ") {
      e.preventDefault();
      if (!placing) return;
      if (ui.first && ui.second) { confirm(); return; }
      const partners = legalTargets(view, view.first_round);
      const here = key(...ui.cursor);
      if (!partners.has(here)) { preview.textContent = T("ingenious.no_start"); say(preview.textContent); return; }
      if (ui.tile === null) ui.tile = 0;
      ui.first = [...ui.cursor];
      const [q, r] = ui.first;
      ui.second = DIR_ORDER.map(([dq, dr]) => [q + dq, r + dr]).find((c) => partners.get(here).has(key(...c)));
      render();
      focusCursor();
      say(`${preview.textContent} ${T("ingenious.keys_second")}`);
      return;
    }
    if (k === "Escape") {
      e.preventDefault();
      if (ui.first) { clearSelection(); render(); focusCursor(); }
      else { ui.tile = null; clearSelection(); render(); focusRack(); }
      return;
    }
    if (k === "f") {
      if (placing && colours()) { e.preventDefault(); ui.flipped = !ui.flipped; render(); if (ui.first) say(preview.textContent); }
      return;
    }
    const handled = placing && ui.first ? chooseSecond(e) : moveCursor(e);
    if (handled) e.preventDefault();
  }

  function clickCell(q, r) {
    if (!canPlace() || ui.busy) return;
    if (ui.tile === null) { ui.tile = 0; }
    const partners = legalTargets(view, view.first_round);
    const k = key(q, r);
    if (ui.first && key(...ui.first) === k) {
      clearSelection(); // clicking the first cell again starts over
    } else if (ui.first && (partners.get(key(...ui.first)) || new Set()).has(k)) {
      ui.second = [q, r];
    } else if (partners.has(k)) {
      ui.first = [q, r];
      ui.second = null;
    }
    render();
  }

  async function confirm() {
    const col = colours();
    if (!col || !ui.first || !ui.second || !canPlace() || ui.busy) return;
    ui.busy = true;
    render();
    try {
      const before = meta.seq;
      const res = await ctx.send({ type: "place", colors: col, cells: [ui.first, ui.second] });
      if (res && res.ok) {
        ui.tile = null;
        clearSelection();
        ui.refocus = true;
        if (meta.seq === before && before !== undefined) ui.sentSeq = before;
      }
    } finally {
      ui.busy = false;
      render();
    }
  }

  async function answerSwap(accept) {
    if (ui.busy) return;
    ui.busy = true;
    render();
    try {
      const before = meta.seq;
      const res = await ctx.send({ type: "swap", accept });
      if (res && res.ok) ui.refocus = true;
      if (res && res.ok && meta.seq === before && before !== undefined) ui.sentSeq = before;
    } finally { ui.busy = false; render(); }
  }

  // The rack's buttons live across updates (a re-render never takes the keyboard away); only
  // the tile each shows changes. One tab stop, the arrows move along it.
  const rackButtons = [];
  function rackButton(i) {
    if (!rackButtons[i]) {
      rackButtons[i] = h("button", {
        type: "button", class: "ingenious-tile", "data-rack-index": i, role: "option",
        onclick: (e) => pickTile(i, e.detail === 0),
        onkeydown: (e) => rackKey(e, i),
        onfocus: () => { ui.rackFocus = i; },
      });
    }
    return rackButtons[i];
  }

  function renderRack() {
    if (!Array.isArray(view.rack) || view.over) {
      rack.hidden = true;
      rack.replaceChildren();
      return;
    }
    rack.hidden = false;
    const n = view.rack.length;
    if (ui.tile !== null && ui.tile >= n) { ui.tile = null; clearSelection(); }
    ui.rackFocus = Math.max(0, Math.min(ui.rackFocus, n - 1));
    while (rack.children.length > n) rack.lastChild.remove();
    const low = Math.min(...Object.values(view.scores[ctx.seat]));
    const usable = canPlace() && !ui.busy;
    view.rack.forEach((t, i) => {
      const b = rackButton(i);
      if (b.parentNode !== rack) rack.append(b);
      const shows = t.some((c) => view.scores[ctx.seat][c] === low);
      b.className = `ingenious-tile${ui.tile === i ? " selected" : ""}${shows ? " lowest" : ""}`;
      if (b.getAttribute("data-colors") !== t.join(",")) {
        b.setAttribute("data-colors", t.join(","));
        b.replaceChildren(tileIcon(t));
      }
      b.setAttribute("aria-selected", ui.tile === i ? "true" : "false");
      b.setAttribute("aria-label", T("ingenious.tile", { a: colourName(t[0]), sa: shapeName(t[0]), b: colourName(t[1]), sb: shapeName(t[1]) }));
      // aria-disabled, not disabled: the rack keeps the keyboard between turns
      b.setAttribute("aria-disabled", usable ? "false" : "true");
      b.setAttribute("tabindex", i === ui.rackFocus ? "0" : "-1");
    });
  }

  function pickTile(i, keyboard) {
    if (!canPlace() || ui.busy) return;
    if (keyboard) {
      if (ui.tile !== i) { ui.tile = i; clearSelection(); }
      focusBoard();
      return;
    }
    if (ui.tile === i) ui.flipped = !ui.flipped;
    else { ui.tile = i; ui.flipped = false; }
    render();
  }

  function focusRack() {
    const b = rackButtons[ui.rackFocus];
    if (b && b.isConnected && !rack.hidden) b.focus();
  }

  function rackKey(e, i) {
    const n = view && Array.isArray(view.rack) ? view.rack.length : 0;
    let j = null;
    if (e.key === "ArrowLeft" || e.key === "ArrowUp") j = (i + n - 1) % n;
    else if (e.key === "ArrowRight" || e.key === "ArrowDown") j = (i + 1) % n;
    else if (e.key === "Home") j = 0;
    else if (e.key === "End") j = n - 1;
    else if (e.key === "Escape") { e.preventDefault(); ui.tile = null; clearSelection(); render(); return; }
    else if (e.key.toLowerCase() === "f" && ui.tile === i && canPlace()) { e.preventDefault(); ui.flipped = !ui.flipped; render(); return; }
    if (j === null || !n) return;
    e.preventDefault();
    ui.rackFocus = j;
    render();
    focusRack();
  }

  // After a move: the keyboard goes to what comes next (the swap question, the rack, or the
  // ranking when the game is over), never to the page's start.
  function placeFocus() {
    ui.refocus = false;
    const swapYes = prompt.querySelector('[data-testid="ingenious-swap-yes"]');
    if (swapYes && !swapYes.disabled) swapYes.focus();
    else if (!rack.hidden && rack.children.length) focusRack();
    else if (!ranking.hidden) ranking.focus();
    else focusCursor();
  }

  function gainText(gained) {
    const parts = Object.entries(gained).map(([c, g]) => `+${g} ${colourName(c)}`);
    return parts.length ? parts.join(", ") : T("ingenious.no_points");
  }

  function renderPreview() {
    const col = colours();
    const active = canPlace();
    controls.hidden = !active;
    preview.replaceChildren();
    flipBtn.disabled = !col || ui.busy;
    cancelBtn.disabled = (!ui.first && ui.tile === null) || ui.busy;
    confirmBtn.disabled = !(col && ui.first && ui.second) || ui.busy;
    if (!active) return;
    if (!col) { preview.textContent = T("ingenious.pick_tile"); return; }
    if (!ui.first) { preview.textContent = T("ingenious.pick_first", { colour: colourName(col[0]) }); return; }
    if (!ui.second) { preview.textContent = T("ingenious.pick_second", { colour: colourName(col[1]) }); return; }
    const p = previewGain(view, ctx.seat, col, [ui.first, ui.second]);
    const where = `${T("ingenious.where", { first: colourName(col[0]), cell: cellName(...ui.first, view.radius), second: colourName(col[1]), dir: dirName(ui.second[0] - ui.first[0], ui.second[1] - ui.first[1]) })}: `;
    const lost = Object.entries(p.raw).filter(([c, g]) => (p.gained[c] || 0) < g).map(([c, g]) => T("ingenious.over_cap", { n: g - (p.gained[c] || 0), colour: colourName(c) }));
    preview.append(
      ...[
        h("span", { class: "ingenious-where" }, where),
        h("strong", {}, gainText(p.gained)),
      lost.length ? h("span", { class: "muted" }, ` (${T("ingenious.lost", { list: lost.join(", ") })})`) : null,
        p.bonus ? h("span", { class: "ingenious-ingenious" }, ` ${T(p.bonus > 1 ? "ingenious.bonus_preview_n" : "ingenious.bonus_preview", { n: p.bonus })}`) : null,
      ].filter(Boolean),
    );
    preview.setAttribute("data-gain", JSON.stringify(p.gained));
  }

  function renderPrompt() {
    prompt.replaceChildren();
    prompt.hidden = true;
    if (view.over) return;
    if (myTurn() && view.phase === "swap") {
      prompt.hidden = false;
      prompt.className = "ingenious-prompt ingenious-swap";
      prompt.append(
        h("p", {}, T("ingenious.swap_question")),
        h("div", { class: "row" },
          h("button", { type: "button", class: "primary", "data-testid": "ingenious-swap-yes", disabled: ui.busy, onclick: () => answerSwap(true) }, T("ingenious.swap_yes")),
          h("button", { type: "button", "data-testid": "ingenious-swap-no", disabled: ui.busy, onclick: () => answerSwap(false) }, T("ingenious.swap_no"))),
      );
      return;
    }
    if (view.phase === "place" && (view.bonus_pending > 0 || lastBonusFor(toAct()))) {
      prompt.hidden = false;
      prompt.className = "ingenious-prompt ingenious-bonus";
      const who = myTurn() ? T("ingenious.bonus_you") : T("ingenious.bonus_other", { name: nameOf(toAct()) });
      prompt.append(h("p", { "data-testid": "ingenious-bonus" }, h("strong", {}, `${T("ingenious.ingenious")} `), who,
        view.placements_left > 1 ? ` ${T("ingenious.placements_left", { n: view.placements_left })}` : "."));
    }
  }

  // the seat whose turn it is (none once the game is over)
  const toAct = () => view.to_act[0] ?? null;

  function lastBonusFor(seat) {
    for (let i = view.log.length - 1; i >= 0; i--) {
      const e = view.log[i];
      if (e.type === "bonus") return e.seat === seat;
      if (e.type === "place" && e.seat !== seat) return false;
      if (e.type !== "place") return false;
    }
    return false;
  }

  function trackGroups() {
    if (view.teams) return view.teams.map((seats) => ({ seats, track: view.scores[seats[0]] }));
    return view.scores.map((track, seat) => ({ seats: [seat], track }));
  }

  function renderScores() {
    scores.replaceChildren();
    const cap = view.cap;
    for (const { seats, track } of trackGroups()) {
      const low = Math.min(...COLOURS.map((c) => track[c]));
      const box = h("div", {
        class: `ingenious-track${seats.includes(toAct()) && !view.over ? " current" : ""}${seats.includes(ctx.seat) ? " mine" : ""}`,
        "data-testid": `ingenious-track-${seats.join("-")}`,
      });
      box.append(h("div", { class: "ingenious-track-name" }, seats.map(nameOf).join(" + "), h("span", { class: "muted" }, ` lowest ${low}`)));
      for (const c of COLOURS) {
        const v = track[c];
        const bar = h("div", { class: "ingenious-bar", role: "meter", "aria-valuemin": "0", "aria-valuemax": String(cap), "aria-valuenow": String(v), "aria-label": T("ingenious.meter", { colour: colourName(c), n: v, cap }) });
        const fill = h("div", { class: "ingenious-bar-fill" });
        fill.style.width = `${(100 * v) / cap}%`;
        fill.style.background = FILL[c];
        bar.append(fill);
        for (const t of view.bonus_at) if (t < cap) {
          const mark = h("div", { class: "ingenious-bar-mark" });
          mark.style.left = `${(100 * t) / cap}%`;
          bar.append(mark);
        }
        box.append(h("div", { class: `ingenious-track-row${v === low ? " low" : ""}`, "data-colour": c }, symbolIcon(c, 16), bar, h("span", { class: "ingenious-num" }, String(v))));
      }
      scores.append(box);
    }
  }

  function eventText(e) {
    const who = e.seat !== undefined ? nameOf(e.seat) : "";
    const names = (colors) => colors.map(colourName);
    if (e.type === "place") return T("ingenious.ev.place", { who, tile: names(e.colors).join("–"), gain: gainText(e.gained) });
    if (e.type === "bonus") {
      return T(e.count > 1 ? "ingenious.ev.bonus_n" : "ingenious.ev.bonus", { who, colours: names(e.colors).join(T("ingenious.and")), n: e.count });
    }
    if (e.type === "swap") return T("ingenious.ev.swap", { who, tiles: e.tiles.map((t) => names(t).join("/")).join(", ") });
    if (e.type === "keep") return T("ingenious.ev.keep", { who });
    if (e.type === "pass") return T("ingenious.ev.pass", { who });
    if (e.type === "end") {
      const why = ["all_colours_capped", "board_full", "no_tiles"].includes(e.reason) ? T(`ingenious.end.${e.reason}`) : e.reason;
      return T("ingenious.ev.end", { why });
    }
    return e.type;
  }

  function renderLog() {
    log.replaceChildren();
    const events = [...view.log].reverse().slice(0, 30);
    for (const e of events) log.append(h("li", { class: `ingenious-ev-${e.type}`, "data-event": e.type }, eventText(e)));
  }

  function renderRanking() {
    ranking.replaceChildren();
    ranking.hidden = !view.over;
    if (!view.over || !view.result) return;
    const winners = new Set(view.result.winners);
    // each colour with its score, weakest first (the ranking compares them in that order)
    const rows = trackGroups().map((g) => ({
      ...g,
      sorted: COLOURS.map((c) => g.track[c]).sort((a, b) => a - b),
      colours: [...COLOURS].sort((a, b) => g.track[a] - g.track[b]),
    }));
    // highest lowest colour first; ties go to the next lowest, and so on
    const compare = (a, b) => {
      for (let i = 0; i < 6; i++) if (a.sorted[i] !== b.sorted[i]) return b.sorted[i] - a.sorted[i];
      return 0;
    };
    rows.sort(compare);
    ranking.append(h("h3", {}, view.variant === "solo" ? T("ingenious.solo_result", { n: view.result.solo_score }) : T("ingenious.final_ranking")));
    const ol = h("ol", {});
    let place = 0;
    rows.forEach((row, i) => {
      if (i === 0 || compare(rows[i - 1], row) !== 0) place = i + 1;  // an exact tie shares a place
      const won = row.seats.some((x) => winners.has(x));
      const scoresList = h("span", { class: "ingenious-rank-scores" },
        row.colours.map((c) => h("span", { class: "ingenious-rank-colour", "data-colour": c, title: `${colourName(c)} ${row.track[c]}`, "aria-label": `${colourName(c)} ${row.track[c]}` },
          symbolIcon(c, 16), String(row.track[c]))));
      ol.append(h("li", { class: won ? "winner" : "", "data-testid": `ingenious-rank-${row.seats.join("-")}` },
        h("span", { class: "ingenious-rank-head" },
          rows.length > 1 ? h("span", { class: "ingenious-rank-place" }, `${place}.`) : null,
          h("span", { class: "ingenious-rank-name" }, row.seats.map(nameOf).join(" + ")),
          won && view.variant !== "solo" ? h("span", { class: "ingenious-rank-badge" }, T("ingenious.wins_badge")) : null),
        scoresList));
    });
    ranking.append(ol);
  }

  function renderStatus() {
    bag.textContent = T("ingenious.bag", { n: view.bag_count });
    if (view.over) {
      const names = view.result ? view.result.winners.map(nameOf) : [];
      if (view.variant === "solo") status.textContent = T("ingenious.over_solo", { n: view.result.solo_score });
      else if (view.teams && view.result.winners.length === 2) status.textContent = T("ingenious.over_team", { names: names.join(" + ") });
      else if (names.length > 1) status.textContent = T("ingenious.over_shared", { names: names.join(T("ingenious.and")) });
      else status.textContent = T("ingenious.over_one", { name: names.join("") });
      return;
    }
    if (myTurn()) {
      if (view.phase === "swap") status.textContent = T("ingenious.your_swap");
      else status.textContent = T(view.first_round ? "ingenious.your_first" : "ingenious.your_turn");
    } else if (ui.sentSeq !== null || ui.busy) {
      status.textContent = T("ingenious.sending");
    } else {
      status.textContent = T(view.phase === "swap" ? "ingenious.other_swap" : "ingenious.other_place", { name: nameOf(toAct()) });
    }
  }

  function render() {
    if (!view) return;
    if (!canPlace()) { ui.tile = null; clearSelection(); }
    renderStatus();
    renderBoard();
    renderRack();
    renderPreview();
    renderPrompt();
    renderScores();
    renderRanking();
    renderLog();
    tick();
    if (heard && status.textContent !== heard.status && !ui.busy && ui.sentSeq === null) {
      heard.status = status.textContent;
      say(status.textContent);
    }
    if (ui.refocus && !ui.busy && ui.sentSeq === null) placeFocus();
  }

  return {
    update(nextView, nextMeta) {
      const rackKey = (v) => JSON.stringify(v && v.rack);
      if (view && (rackKey(view) !== rackKey(nextView) || view.phase !== nextView.phase)) {
        ui.tile = null;
        clearSelection();
      }
      if (!nextMeta || nextMeta.seq !== ui.sentSeq) ui.sentSeq = null;
      // the news: new moves in the log, then (render) whose turn it is now; the page's first
      // view only says whose turn it is: the log before it is history
      const lastN = nextView.log.length ? nextView.log[nextView.log.length - 1].n : -1;
      if (heard) for (const e of nextView.log) if (e.n > heard.n) say(eventText(e));
      heard = { n: Math.max(lastN, heard ? heard.n : -1), status: heard ? heard.status : null };
      view = nextView;
      meta = nextMeta || {};
      render();
    },
    destroy() {
      clearInterval(timer);
      root.replaceChildren();
    },
  };
}
