// Draws a form for a game's options (OptionSpec list) and time limits, and reads it back.
import { el } from "./api.js";
import { t, tOr } from "./i18n.js";

// the room option naming the language of a game's cards (engines/base.py LANGUAGE_OPTION)
const LANGUAGE_OPTION = "language";

// ``upload(name, file)``, when given, adds a "Load from file" picker to free-form options
// (the server reads the file with the game's own reader: word lists, question packs ...).
// ``custom`` lists free-form options already set (their values are never sent to the table).
// ``limits`` defaults to the game's own (``default_time_limits``), as a new room gets them.
// ``language``, for a new room, preselects the language of the cards (the option ``language``,
// docs/i18n.md) when the game has it: the host's page language.
export function optionsForm(info, values = {}, limits = info.default_time_limits || {},
  { upload = null, custom = [], language = null } = {}) {
  const grid = el("div", { class: "options" });
  const inputs = {};
  const advanced = el("details", { class: "advanced" }, el("summary", {}, t("options.advanced")));
  for (const opt of info.options) {
    // the game's own English label and help, unless the catalog words them (for this game, or
    // for every game that has the option: option.<name>)
    const key = `option.${info.id}.${opt.name}`;
    const label = tOr(key, tOr(`option.${opt.name}`, opt.label || opt.name));
    const help = tOr(`${key}.help`, tOr(`option.${opt.name}.help`, opt.help || ""));
    const isLanguage = opt.name === LANGUAGE_OPTION;
    let current = opt.name in values ? values[opt.name] : opt.default;
    if (isLanguage && !(opt.name in values) && opt.choices.includes(language)) current = language;
    // a language is named in itself (English, Deutsch), as on the page's language switch
    const choiceLabel = (c) => (isLanguage ? tOr(`lang.name.${c}`, c) : tOr(`${key}.${c}`, c));
    let input;
    if (opt.kind === "choice") {
      input = el("select", { name: opt.name, "data-testid": `opt-${opt.name}` },
        opt.choices.map((c) => el("option", { value: c, selected: c === current }, choiceLabel(c))));
    } else if (opt.kind === "bool") {
      input = el("input", { type: "checkbox", name: opt.name, checked: !!current, "data-testid": `opt-${opt.name}` });
    } else if (opt.kind === "seat") {
      // seats are 0-based on the wire, "Player 1" … for people
      const top = opt.max ?? (info.max_players - 1);
      const seats = [];
      for (let seat = opt.min ?? 0; seat <= top; seat++) seats.push(seat);
      input = el("select", { name: opt.name, "data-testid": `opt-${opt.name}` },
        seats.map((seat) => el("option", { value: seat, selected: seat === current }, t("options.player", { n: seat + 1 }))));
    } else if (opt.kind === "int") {
      input = el("input", { type: "number", name: opt.name, min: opt.min ?? 0, max: opt.max ?? undefined,
        value: current ?? "", "data-testid": `opt-${opt.name}` });
    } else {
      // free-form options (word lists, question packs, fixed deals) come from a file, never
      // a JSON text box; before the room exists there is nothing to upload to
      if (!upload) continue;
      const file = el("input", { type: "file", accept: ".json,.csv,.txt", "data-testid": `file-${opt.name}`,
        "aria-label": t("options.load_file", { option: label }) });
      file.addEventListener("change", () => { if (file.files[0]) upload(opt.name, file.files[0]); });
      input = el("span", { class: "row" }, file,
        el("small", { class: "muted" }, custom.includes(opt.name) ? t("options.file_loaded") : t("options.built_in")));
    }
    if (opt.kind !== "json") inputs[opt.name] = { opt, input };
    const field = el("label", { class: "field", title: help }, label, input,
      help ? el("small", { class: "muted" }, help) : null);
    (opt.advanced ? advanced : grid).append(field);
  }
  const timed = Object.entries(info.timed_phases || {});
  const limitInputs = {};
  if (timed.length) {
    const box = el("details", { class: "advanced" }, el("summary", {}, t("options.time_limits")));
    for (const [phase, what] of timed) {
      const input = el("input", { type: "number", min: 0, max: 3600, value: limits[phase] || 0,
        name: `limit-${phase}`, "data-testid": `limit-${phase}` });
      limitInputs[phase] = input;
      const phaseName = tOr(`phase.${info.id}.${phase}`, phase.replaceAll("_", " "));
      const onTimeout = tOr(`timeout.${info.id}.${phase}`, what);
      box.append(el("label", { class: "field" }, t("options.seconds_for", { phase: phaseName }), input,
        el("small", { class: "muted" }, t("options.time_out", { what: onTimeout }))));
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
