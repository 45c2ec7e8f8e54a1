// Draws a form for a game's options (OptionSpec list) and time limits, and reads it back.
import { el } from "./api.js";

// ``upload(name, file)``, when given, adds a "Load from file" picker to free-form options
// (the server reads the file with the game's own reader: word lists, question packs ...).
// ``custom`` lists free-form options already set (their values are never sent to the table).
// ``limits`` defaults to the game's own (``default_time_limits``), as a new room gets them.
export function optionsForm(info, values = {}, limits = info.default_time_limits || {}, { upload = null, custom = [] } = {}) {
  const grid = el("div", { class: "options" });
  const inputs = {};
  const advanced = el("details", { class: "advanced" }, el("summary", {}, "Advanced options"));
  for (const opt of info.options) {
    const current = opt.name in values ? values[opt.name] : opt.default;
    let input;
    if (opt.kind === "choice") {
      input = el("select", { name: opt.name, "data-testid": `opt-${opt.name}` },
        opt.choices.map((c) => el("option", { value: c, selected: c === current }, c)));
    } else if (opt.kind === "bool") {
      input = el("input", { type: "checkbox", name: opt.name, checked: !!current, "data-testid": `opt-${opt.name}` });
    } else if (opt.kind === "seat") {
      // seats are 0-based on the wire, "Player 1" … for people
      const top = opt.max ?? (info.max_players - 1);
      const seats = [];
      for (let seat = opt.min ?? 0; seat <= top; seat++) seats.push(seat);
      input = el("select", { name: opt.name, "data-testid": `opt-${opt.name}` },
        seats.map((seat) => el("option", { value: seat, selected: seat === current }, `Player ${seat + 1}`)));
    } else if (opt.kind === "int") {
      input = el("input", { type: "number", name: opt.name, min: opt.min ?? 0, max: opt.max ?? undefined,
        value: current ?? "", "data-testid": `opt-${opt.name}` });
    } else {
      // free-form options (word lists, question packs, fixed deals) come from a file, never
      // a JSON text box; before the room exists there is nothing to upload to
      if (!upload) continue;
      const file = el("input", { type: "file", accept: ".json,.csv,.txt", "data-testid": `file-${opt.name}`,
        "aria-label": `Load ${opt.label || opt.name} from a file` });
      file.addEventListener("change", () => { if (file.files[0]) upload(opt.name, file.files[0]); });
      input = el("span", { class: "row" }, file,
        el("small", { class: "muted" }, custom.includes(opt.name) ? "A file is loaded." : "Built-in set."));
    }
    if (opt.kind !== "json") inputs[opt.name] = { opt, input };
    const label = el("label", { class: "field", title: opt.help || "" }, opt.label || opt.name, input,
      opt.help ? el("small", { class: "muted" }, opt.help) : null);
    (opt.advanced ? advanced : grid).append(label);
  }
  const timed = Object.entries(info.timed_phases || {});
  const limitInputs = {};
  if (timed.length) {
    const box = el("details", { class: "advanced" }, el("summary", {}, "Time limits"));
    for (const [phase, what] of timed) {
      const input = el("input", { type: "number", min: 0, max: 3600, value: limits[phase] || 0,
        name: `limit-${phase}`, "data-testid": `limit-${phase}` });
      limitInputs[phase] = input;
      const phaseName = phase.replaceAll("_", " ");
      box.append(el("label", { class: "field" }, `Seconds for ${phaseName} (0 = no limit)`, input,
        el("small", { class: "muted" }, `When time runs out: ${what}`)));
    }
    grid.append(box);
  }
  if (advanced.children.length > 1) grid.append(advanced);

  function read() {
    const options = {};
    for (const [name, { opt, input }] of Object.entries(inputs)) {
      if (opt.kind === "bool") options[name] = input.checked;
      else if (opt.kind === "int") { if (input.value !== "") options[name] = Number(input.value); }
      else if (opt.kind === "seat") options[name] = Number(input.value);
      else if (opt.kind === "choice") options[name] = input.value;
    }
    const time_limits = {};
    for (const [phase, input] of Object.entries(limitInputs)) time_limits[phase] = Number(input.value) || 0;
    return { options, time_limits };
  }
  return { node: grid, read };
}
