// Genius Idea in the browser: preparation, the public area, reveal, ordering, the race.
// Contract: docs/engine-contract.md. Plain ES module, no libraries, player text via textContent.
//
// Each server view is rendered at once (the race must feel instant); local UI state (the
// riddle being picked, the hint order being dragged, the card picked to guess) survives
// updates. Hooks for tests (data-testid / data-* attributes) are listed in
// docs/rules/genius-idea.md.

// the page's one DOM builder: player text always as text, never HTML
import { el as h } from "/static/js/api.js";
import { focusKeeper } from "/static/js/a11y.js";
import { t as T } from "/static/js/i18n.js";
import { focusContinue, revealScreen, revealStatus } from "/static/js/reveal.js";

const roleLabel = (role) => (["riddler", "disruptor", "solver"].includes(role) ? T(`gi.role.${role}`) : role);
// co-op: the pair wins with a team total above this (docs/rules/genius-idea.md)
const COOP_TARGET = 15;

export function createGameView(root, ctx) {
  const ui = {
    view: null,
    meta: {},
    // preparation
    pickMode: "answer",
    answer: null,
    hints: [],
    // ordering
    orderDraft: null,
    orderKey: "",
    // guessing
    picked: null,
    pending: null, // {kind, card} while our own move is on its way
    error: "",
    timer: null,
  };
  root.classList.add("gi-root");
  // every update rebuilds the view: the keyboard goes back to the same card or button (or,
  // when that one is gone, the next useful one, else the prompt)
  const focus = focusKeeper(root, {
    key: (n) => [n.getAttribute("data-testid"), n.getAttribute("data-word") ?? n.getAttribute("data-public-word") ?? n.getAttribute("data-hint")].join("|"),
    fallback: () => ["gi-prompt", "gi-result", "reveal-title", "gi-phase"].map((id) => root.querySelector(`[data-testid="${id}"]`)).find(Boolean),
  });

  const mySeat = () => (ctx.seat === null || ctx.seat === undefined ? null : ctx.seat);
  const canSend = () => ctx.mode !== "replay" && typeof ctx.send === "function" && mySeat() !== null;
  const nameOf = (seat, you = true) => {
    const p = (ctx.players || []).find((x) => x.seat === seat);
    const base = p && p.name ? p.name : `Seat ${seat + 1}`;
    return you && seat === mySeat() ? `${base} (${T("seat.you")})` : base;
  };
  const myTurn = () => ui.view && mySeat() !== null && ui.view.to_act.includes(mySeat());

  async function send(action, pending) {
    if (!canSend()) return;
    ui.pending = pending || { kind: action.type };
    ui.error = "";
    render();
    let res;
    try {
      res = await ctx.send(action);
    } catch (err) {
      res = { ok: false, message: String(err) };
    }
    ui.pending = null;
    // a late Continue (the round started meanwhile) is no error worth showing
    if ((!res || !res.ok) && action.type !== "ready") ui.error = (res && res.message) || T("gi.refused");
    render();
  }

  // --- sections ---------------------------------------------------------------------------

  function header(v) {
    const phaseText = ["prepare", "reveal", "order", "guess", "results", "over"].includes(v.phase) ? T(`gi.phase.${v.phase}`) : v.phase;
    return h(
      "div",
      { class: "gi-header" },
      h("span", { class: "gi-round", "data-testid": "gi-round" }, T("gi.round_of", { n: v.round, total: v.rounds_total })),
      h("span", { class: "gi-mode", "data-testid": "gi-mode" }, v.mode === "coop"
        ? T("gi.mode_coop", { total: v.scores.reduce((a, b) => a + b, 0), target: COOP_TARGET })
        : T("gi.mode_competitive")),
      h("span", { class: "gi-phase", "data-testid": "gi-phase", "data-phase": v.phase, tabindex: "-1" }, phaseText),
      h("span", { class: "gi-timer", "data-testid": "gi-timer", hidden: !ui.meta.deadline }),
    );
  }

  function players(v) {
    const list = h("ul", { class: "gi-players", "data-testid": "gi-players" });
    for (let seat = 0; seat < v.players; seat++) {
      const role = v.roles[seat];
      const flags = [];
      if (seat === mySeat()) flags.push(T("seat.you"));
      const p = (ctx.players || []).find((x) => x.seat === seat);
      if (p && p.bot) flags.push(T("seat.bot"));
      if (v.phase === "prepare" && v.prepared) flags.push(v.prepared[seat] ? T("gi.flag.ready") : T("gi.flag.preparing"));
      if (v.chances && v.chances[seat] !== null && v.chances[seat] !== undefined) {
        flags.push(T(v.chances[seat] === 1 ? "gi.flag.chance" : "gi.flag.chances", { n: v.chances[seat] }));
      }
      if (v.passed && v.passed.includes(seat)) flags.push(T("gi.flag.passed"));
      if (v.phase === "results") flags.push(v.to_act.includes(seat) ? T("gi.flag.looking") : T("gi.flag.ready"));
      list.append(
        h(
          "li",
          {
            class: `gi-player gi-role-${role}${v.to_act.includes(seat) ? " gi-acting" : ""}${seat === mySeat() ? " gi-me" : ""}`,
            "data-testid": "gi-player",
            "data-seat": seat,
            "data-role": role,
          },
          h("span", { class: "gi-player-name", title: nameOf(seat, false) }, nameOf(seat, false)),
          h("span", { class: "gi-badge", "data-testid": `gi-role-${seat}` }, roleLabel(role)),
          h("span", { class: "gi-score", "data-testid": `gi-score-${seat}` }, String(v.scores[seat])),
          h("span", { class: "gi-flags" }, flags.join(" · ")),
        ),
      );
    }
    return list;
  }

  function resultText(v) {
    const r = v.result;
    if (v.mode === "coop") {
      return T(r.winners.length ? "gi.coop_won" : "gi.coop_lost", { total: r.team_total, target: r.target });
    }
    const names = r.winners.map(nameOf).join(T("gi.and"));
    return T(r.winners.length > 1 ? "gi.shared_victory" : "gi.wins", { names });
  }

  function banner(v) {
    if (!v.over || !v.result) return null; // a finished round has its own screen (results)
    return h("div", { class: "gi-banner gi-banner-over", "data-testid": "gi-result", tabindex: "-1" }, resultText(v));
  }

  function roundText(last) {
    let text;
    if (last.solved_by !== null && last.solved_by !== undefined) {
      const pts = last.points[last.solved_by];
      text = T("gi.round_solved", { n: last.round, solver: nameOf(last.solved_by), answer: last.answer, riddler: nameOf(last.riddler), points: pts });
    } else {
      text = T("gi.round_unsolved", { n: last.round, answer: last.answer });
    }
    if (last.disruptor !== null && last.disruptor !== undefined && last.points[last.disruptor]) {
      text += ` ${T("gi.round_disruptor", { name: nameOf(last.disruptor), points: last.points[last.disruptor] })}`;
    }
    return text;
  }

  function promptText(v) {
    const me = mySeat();
    let text = "";
    if (v.phase === "prepare") {
      if (v.hand) {
        text = T("gi.prompt.prepare");
        if (v.mode === "coop" && v.round > 2) text = `${T("gi.prompt.riddler_again", { n: v.round })} ${text}`;
      }
      else text = T("gi.prompt.waiting_prepare", { names: v.preparing.map(nameOf).join(", ") });
    } else if (v.phase === "reveal") {
      text = me === v.disruptor ? T("gi.prompt.reveal") : T("gi.prompt.choosing", { name: nameOf(v.disruptor) });
    } else if (v.phase === "order") {
      text = me === v.riddler ? T("gi.prompt.order") : T("gi.prompt.ordering", { name: nameOf(v.riddler) });
    } else if (v.phase === "guess") {
      if (myTurn()) text = v.may_pass ? T("gi.prompt.guess") : T("gi.prompt.must_guess");
      else if (v.roles[me] === "solver") text = v.chances[me] > 0 ? T("gi.prompt.passed") : T("gi.prompt.out");
      else {
        const solvers = v.roles.map((r, seat) => (r === "solver" ? seat : null)).filter((x) => x !== null);
        text = solvers.length === 1 ? T("gi.prompt.guessing", { name: nameOf(solvers[0]) }) : T("gi.prompt.racing");
      }
      text += ` ${T("gi.prompt.worth", { n: v.points_if_solved })}`;
    } else if (v.phase === "results") {
      text = revealStatus({ toAct: v.to_act, seat: me, canReady: canSend(), nameOf });
    }
    return text;
  }

  function prompt(v) {
    const text = promptText(v);
    return text ? h("p", { class: "gi-prompt", "data-testid": "gi-prompt", tabindex: "-1" }, text) : null;
  }

  // What a screen reader hears (the room's live region): hints as they come out, guesses and
  // passes, the round's result, the game's result, and what to do or whom we wait for.
  let heardPrompt = null;
  function news(prev, v) {
    const said = [];
    if (prev) {
      if ((v.history || []).length > (prev.history || []).length) said.push(roundText(v.history[v.history.length - 1]));
      const before = prev.round === v.round ? prev.revealed || [] : [];
      for (const w of (v.revealed || []).filter((x) => !before.includes(x))) said.push(T("gi.news.hint", { word: w }));
      if (prev.phase === "order" && v.phase === "guess") said.push(T("gi.news.order", { hints: v.revealed.join(", ") }));
      const guessed = prev.round === v.round ? (prev.guesses || []).length : 0;
      for (const g of (v.guesses || []).slice(guessed)) said.push(T(g.correct ? "gi.news.right" : "gi.news.wrong", { name: nameOf(g.seat), word: g.card }));
      const passed = prev.round === v.round ? prev.passed || [] : [];
      for (const seat of (v.passed || []).filter((x) => !passed.includes(x))) said.push(T("gi.news.passed", { name: nameOf(seat) }));
      if (v.over && !prev.over && v.result) said.push(`${T("gi.news.over")} ${resultText(v)}`);
    }
    const text = v.over ? "" : promptText(v);
    if (text && text !== heardPrompt) said.push(text);
    heardPrompt = text;
    for (const t of said) ctx.announce?.(t);
  }

  function prepareSection(v) {
    const box = h("section", { class: "gi-prepare", "data-testid": "gi-prepare" });
    const hand = v.hand || [];
    // forget picks that are no longer in the hand (a fresh co-op hand)
    if (ui.answer && !hand.includes(ui.answer)) ui.answer = null;
    ui.hints = ui.hints.filter((w) => hand.includes(w));
    const modes = h(
      "div",
      { class: "gi-pick-modes", role: "group", "aria-label": T("gi.pick_modes") },
      h("button", { type: "button", class: ui.pickMode === "answer" ? "gi-on" : "", "aria-pressed": String(ui.pickMode === "answer"), "data-testid": "gi-pick-answer", onclick: () => { ui.pickMode = "answer"; render(); } }, `${T("gi.answer_mode")} ${ui.answer ? "✓" : "(1)"}`),
      h("button", { type: "button", class: ui.pickMode === "hints" ? "gi-on" : "", "aria-pressed": String(ui.pickMode === "hints"), "data-testid": "gi-pick-hints", onclick: () => { ui.pickMode = "hints"; render(); } }, `${T("gi.hints_mode")} ${ui.hints.length}/5`),
    );
    box.append(modes);
    const cards = h("div", { class: "gi-cards gi-hand" });
    for (const w of hand) {
      const state = w === ui.answer ? "answer" : ui.hints.includes(w) ? "hint" : "";
      cards.append(
        h(
          "button",
          {
            type: "button",
            class: `gi-card${state ? ` gi-card-${state}` : ""}`,
            "data-word": w,
            "data-state": state,
            "aria-pressed": String(Boolean(state)),
            onclick: () => pickHandCard(w),
          },
          h("span", { class: "gi-card-word" }, w),
          state ? h("span", { class: "gi-card-tag" }, state === "answer" ? T("gi.tag.answer") : T("gi.tag.hint", { n: ui.hints.indexOf(w) + 1 })) : null,
        ),
      );
    }
    box.append(cards);
    const ready = ui.answer && ui.hints.length === 5;
    box.append(
      h(
        "div",
        { class: "gi-actions action-bar" },
        h("button", { type: "button", class: "gi-secondary", "data-testid": "gi-prepare-clear", onclick: () => { ui.answer = null; ui.hints = []; ui.pickMode = "answer"; render(); } }, T("gi.clear")),
        h(
          "button",
          {
            type: "button",
            class: "gi-primary",
            "data-testid": "gi-prepare-submit",
            disabled: !ready || Boolean(ui.pending) || !canSend(),
            onclick: () => send({ type: "prepare", answer: ui.answer, hints: ui.hints.slice() }),
          },
          ui.pending && ui.pending.kind === "prepare" ? T("gi.sending") : T("gi.submit_riddle"),
        ),
      ),
    );
    return box;
  }

  function pickHandCard(w) {
    if (w === ui.answer) ui.answer = null;
    else if (ui.hints.includes(w)) ui.hints = ui.hints.filter((x) => x !== w);
    else if (ui.pickMode === "answer") {
      ui.answer = w;
      if (ui.hints.length < 5) ui.pickMode = "hints";
    } else if (ui.hints.length < 5) ui.hints = [...ui.hints, w];
    render();
  }

  function myRiddle(v) {
    if (!v.my_riddle || v.phase !== "prepare") return null;
    return h(
      "p",
      { class: "gi-my-riddle", "data-testid": "gi-my-riddle" },
      T("gi.your_riddle"),
      h("strong", {}, v.my_riddle.answer),
      ` — ${T("gi.hints_list", { hints: v.my_riddle.hints.join(", ") })}`,
    );
  }

  function secretSection(v) {
    // the Riddler's answer and hints, the Disruptor's hints (reveal buttons in the reveal phase)
    if (!v.hints) return null;
    const me = mySeat();
    const box = h("section", { class: "gi-secret", "data-testid": "gi-secret" });
    box.append(h("h3", {}, me === v.riddler ? T("gi.riddle_private") : T("gi.hints_secret")));
    if (v.answer) box.append(h("p", { class: "gi-answer" }, T("gi.answer_label"), h("strong", { "data-testid": "gi-answer" }, v.answer)));
    const list = h("div", { class: "gi-cards gi-hints" });
    const revealing = v.phase === "reveal" && me === v.disruptor && canSend();
    for (const w of v.hints) {
      const out = v.revealed.includes(w);
      if (revealing && !out) {
        list.append(
          h(
            "button",
            { type: "button", class: "gi-card gi-card-hint", "data-testid": "gi-reveal", "data-hint": w, disabled: Boolean(ui.pending), onclick: () => send({ type: "reveal", hint: w }) },
            h("span", { class: "gi-card-word" }, w),
            h("span", { class: "gi-card-tag" }, T("gi.reveal")),
          ),
        );
      } else {
        list.append(h("span", { class: `gi-card gi-card-static${out ? " gi-card-out" : ""}`, "data-hint": w }, h("span", { class: "gi-card-word" }, w), h("span", { class: "gi-card-tag" }, out ? T("gi.tag.revealed") : T("gi.tag.hidden"))));
      }
    }
    box.append(list);
    return box;
  }

  function revealedSection(v) {
    const me = mySeat();
    const box = h("section", { class: "gi-revealed", "data-testid": "gi-revealed" });
    box.append(h("h3", {}, T("gi.hints_heading", { n: v.revealed.length })));
    const ordering = v.phase === "order" && me === v.riddler && canSend();
    const key = v.revealed.join("|");
    if (!ordering) ui.orderDraft = null;
    else if (!ui.orderDraft || ui.orderKey !== key) {
      ui.orderDraft = v.revealed.slice();
      ui.orderKey = key;
    }
    const words = ordering ? ui.orderDraft : v.revealed;
    const list = h("ol", { class: `gi-hint-list${ordering ? " gi-ordering" : ""}`, "data-testid": "gi-hint-list" });
    words.forEach((w, i) => {
      const item = h("li", { class: "gi-hint", "data-revealed-word": w, "data-index": i }, h("span", { class: "gi-hint-rank" }, `${i + 1}`), h("span", { class: "gi-hint-word" }, w));
      if (ordering) {
        const handle = h("span", { class: "gi-drag", "aria-hidden": "true", title: T("gi.drag") }, "⠿");
        handle.addEventListener("pointerdown", (e) => startDrag(e, item, list));
        item.prepend(handle);
        item.append(
          h("button", { type: "button", class: "gi-move", "data-testid": "gi-move-up", "data-word": w, "aria-label": T("gi.move_up", { word: w }), disabled: i === 0, onclick: () => move(i, -1) }, "↑"),
          h("button", { type: "button", class: "gi-move", "data-testid": "gi-move-down", "data-word": w, "aria-label": T("gi.move_down", { word: w }), disabled: i === words.length - 1, onclick: () => move(i, 1) }, "↓"),
        );
      }
      list.append(item);
    });
    if (!words.length) list.append(h("li", { class: "gi-hint gi-empty" }, T("gi.no_hint")));
    box.append(list);
    if (ordering) {
      box.append(
        h(
          "div",
          { class: "gi-actions action-bar" },
          h("button", { type: "button", class: "gi-primary", "data-testid": "gi-order-submit", disabled: Boolean(ui.pending), onclick: () => send({ type: "order", hints: ui.orderDraft.slice() }) }, ui.pending ? T("gi.sending") : T("gi.send_order")),
        ),
      );
    }
    return box;
  }

  function move(i, d) {
    const j = i + d;
    if (!ui.orderDraft || j < 0 || j >= ui.orderDraft.length) return;
    const next = ui.orderDraft.slice();
    [next[i], next[j]] = [next[j], next[i]];
    ui.orderDraft = next;
    render();
    const btn = root.querySelector(`[data-testid="gi-move-${d < 0 ? "up" : "down"}"][data-word="${CSS.escape(next[j])}"]`);
    if (btn && !btn.disabled) btn.focus();
  }

  function startDrag(e, item, list) {
    // Listen on window, not the handle: moving the item in the DOM drops pointer capture.
    e.preventDefault();
    const id = e.pointerId;
    item.classList.add("gi-dragging");
    const onMove = (ev) => {
      if (ev.pointerId !== id) return;
      ev.preventDefault();
      // insert before the first other hint whose middle is below the pointer, else last
      const others = [...list.querySelectorAll(".gi-hint")].filter((n) => n !== item);
      const after = others.find((n) => {
        const r = n.getBoundingClientRect();
        return ev.clientY < r.top + r.height / 2;
      });
      if (after) {
        if (item.nextSibling !== after) list.insertBefore(item, after);
      } else if (list.lastChild !== item) list.append(item);
    };
    const onUp = (ev) => {
      if (ev.pointerId !== id) return;
      window.removeEventListener("pointermove", onMove);
      window.removeEventListener("pointerup", onUp);
      window.removeEventListener("pointercancel", onUp);
      item.classList.remove("gi-dragging");
      ui.orderDraft = [...list.querySelectorAll(".gi-hint")].map((n) => n.getAttribute("data-revealed-word"));
      render();
    };
    window.addEventListener("pointermove", onMove, { passive: false });
    window.addEventListener("pointerup", onUp);
    window.addEventListener("pointercancel", onUp);
  }

  function publicSection(v) {
    const me = mySeat();
    const box = h("section", { class: "gi-public", "data-testid": "gi-public" });
    const guessing = v.phase === "guess" && myTurn() && canSend();
    if (!guessing || v.wrong.includes(ui.picked) || !v.public.includes(ui.picked)) ui.picked = null;
    const grid = h("div", { class: "gi-cards gi-public-grid" });
    for (const w of v.public) {
      const wrong = v.wrong.includes(w);
      const isAnswer = v.answer === w;
      const sending = ui.pending && ui.pending.kind === "guess" && ui.pending.card === w;
      const cls = ["gi-card", "gi-public-card"];
      if (wrong) cls.push("gi-card-wrong");
      if (isAnswer) cls.push("gi-card-answer");
      if (ui.picked === w) cls.push("gi-card-picked");
      if (sending) cls.push("gi-card-sending");
      grid.append(
        h(
          "button",
          {
            type: "button",
            class: cls.join(" "),
            "data-public-word": w,
            "data-wrong": wrong ? "true" : null,
            "aria-pressed": String(ui.picked === w),
            disabled: !guessing || wrong || Boolean(ui.pending),
            onclick: () => { ui.picked = ui.picked === w ? null : w; render(); },
            ondblclick: () => { if (guessing && !wrong) send({ type: "guess", card: w }, { kind: "guess", card: w }); },
          },
          h("span", { class: "gi-card-word" }, w),
          wrong ? h("span", { class: "gi-card-tag" }, T("gi.tag.wrong")) : isAnswer ? h("span", { class: "gi-card-tag" }, T("gi.tag.answer")) : sending ? h("span", { class: "gi-card-tag" }, T("gi.sending")) : null,
        ),
      );
    }
    box.append(grid);
    if (v.phase === "guess" && v.roles[me] === "solver") {
      const left = v.chances[me];
      // on a phone the bar with Guess and Pass is fixed at the bottom of the screen (.action-bar)
      const bar = h("div", { class: `gi-actions gi-guess-bar${guessing ? " action-bar" : ""}` }, h("span", { class: "gi-chances", "data-testid": "gi-chances" }, T(left === 1 ? "gi.chance_left" : "gi.chances_left", { n: left })));
      if (guessing) {
        bar.append(
          h("button", { type: "button", class: "gi-primary", "data-testid": "gi-guess-confirm", disabled: !ui.picked || Boolean(ui.pending), onclick: () => send({ type: "guess", card: ui.picked }, { kind: "guess", card: ui.picked }) }, ui.pending && ui.pending.kind === "guess" ? T("gi.sending") : ui.picked ? T("gi.guess_word", { word: ui.picked }) : T("gi.tap_to_guess")),
          h("button", { type: "button", class: "gi-secondary", "data-testid": "gi-pass", disabled: !v.may_pass || Boolean(ui.pending), title: v.may_pass ? T("gi.pass_title") : T("gi.no_pass_title"), onclick: () => send({ type: "pass" }) }, ui.pending && ui.pending.kind === "pass" ? T("gi.sending") : T("gi.pass")),
        );
      }
      box.append(bar);
    }
    return box;
  }

  // the round just played (``results``), until everyone has pressed Continue or time is up;
  // with ``last``, the game's last round (its end skips the results phase) on the shared screen
  function resultsSection(v, r = v.results, last = false) {
    const solved = r.solved_by !== null && r.solved_by !== undefined;
    const title = solved ? T("gi.reveal_solved", { n: r.round, name: nameOf(r.solved_by) }) : T("gi.reveal_unsolved", { n: r.round });
    const points = r.points.map((p, seat) => (p ? `${nameOf(seat)} +${p}` : null)).filter(Boolean);
    const unused = r.hints.filter((x) => !r.revealed.includes(x));
    const race = h("ol", { class: "gi-log" });
    for (const g of r.guesses || []) {
      race.append(h("li", { class: g.correct ? "gi-right" : "gi-wrong" }, `${nameOf(g.seat)}: ${g.card} ${g.correct ? "✓" : "✗"}`));
    }
    const body = h(
      "div",
      { class: "gi-reveal-screen", "data-testid": "gi-reveal-screen" },
      h("p", {}, T("gi.answer_was", { name: nameOf(r.riddler, false) }), " ", h("strong", { class: "gi-reveal-answer", "data-testid": "gi-reveal-answer" }, r.answer)),
      h("p", {}, T("gi.hints_shown", { hints: r.revealed.join(", ") || T("gi.none") })),
      unused.length ? h("p", {}, T("gi.hints_unused", { hints: unused.join(", ") })) : null,
      (r.guesses || []).length ? h("div", {}, h("h3", {}, T("gi.guesses")), race) : h("p", {}, T("gi.nobody_guessed")),
      h("p", { "data-testid": "gi-reveal-points" }, T("gi.points", { points: points.join(", ") || T("gi.none") })),
    );
    const sending = Boolean(ui.pending && ui.pending.kind === "ready");
    return revealScreen({
      title,
      body,
      toAct: v.to_act,
      seat: mySeat(),
      deadline: ui.meta.deadline || null,
      onReady: canSend() ? () => send({ type: "ready" }) : null,
      sending,
      nameOf: (s) => nameOf(s, false),
      last,
    });
  }

  function guessLog(v) {
    if (!v.guesses || !v.guesses.length) return null;
    const list = h("ol", { class: "gi-log", "data-testid": "gi-guess-log" });
    for (const g of v.guesses) {
      list.append(h("li", { class: g.correct ? "gi-right" : "gi-wrong", "data-seat": g.seat, "data-card": g.card, "data-correct": String(g.correct) }, `${nameOf(g.seat)}: ${g.card} ${g.correct ? "✓" : "✗"}`));
    }
    return h("section", { class: "gi-log-box" }, h("h3", {}, T("gi.guesses")), list);
  }

  function historySection(v) {
    if (!v.history || !v.history.length) return null;
    const list = h("ol", { class: "gi-history", "data-testid": "gi-history" });
    for (const r of v.history) {
      const who = r.solved_by === null || r.solved_by === undefined ? T("gi.hist.unsolved") : T("gi.hist.solved_by", { name: nameOf(r.solved_by) });
      list.append(
        h(
          "li",
          { "data-round": r.round },
          h("strong", {}, r.answer),
          ` — ${T(r.revealed.length === 1 ? "gi.hist.line_1" : "gi.hist.line", { riddler: nameOf(r.riddler, false), who, n: r.revealed.length, hints: r.revealed.join(", ") })}`,
          r.hints.length > r.revealed.length ? ` (${T("gi.hist.unused", { hints: r.hints.filter((x) => !r.revealed.includes(x)).join(", ") })})` : "",
          `. ${T("gi.hist.points")} `,
          r.points.map((p, s) => (p ? `${nameOf(s)} +${p}` : null)).filter(Boolean).join(", ") || T("gi.none"),
        ),
      );
    }
    return h("details", { class: "gi-history-box", open: v.over ? true : null }, h("summary", {}, T("gi.finished_rounds", { n: v.history.length })), list);
  }

  // --- render -----------------------------------------------------------------------------

  function render() {
    focus.keep(rebuild);
  }

  function rebuild() {
    const v = ui.view;
    root.replaceChildren();
    if (!v) return;
    const parts = [header(v), players(v), banner(v), prompt(v)];
    if (ui.error) parts.push(h("p", { class: "gi-error", role: "alert", "data-testid": "gi-error" }, ui.error));
    if (v.phase === "prepare") {
      if (v.hand && mySeat() !== null) parts.push(prepareSection(v));
      else parts.push(myRiddle(v));
    } else if (v.phase === "results" && v.results) {
      parts.push(resultsSection(v));
    } else if (v.over && ctx.mode === "screen" && (v.history || []).length) {
      // the room watches the last round's reveal together with the result
      parts.push(resultsSection(v, v.history[v.history.length - 1], true));
    } else if (!v.over && v.public) {
      // the Riddler ordering the hints sees them first, their riddle after
      const ordering = v.phase === "order" && mySeat() === v.riddler;
      const hints = [secretSection(v), revealedSection(v)];
      parts.push(...(ordering ? hints.reverse() : hints), publicSection(v), guessLog(v));
    }
    parts.push(historySection(v));
    for (const p of parts) if (p) root.append(p);
    tick();
  }

  function tick() {
    const el = root.querySelector(".gi-timer");
    if (!el) return;
    const deadline = ui.meta && ui.meta.deadline;
    if (!deadline || ui.view.over) {
      el.hidden = true;
      return;
    }
    const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    el.hidden = false;
    el.textContent = `${left}s`;
    el.classList.toggle("gi-timer-low", left <= 10);
  }

  ui.timer = setInterval(tick, 250);

  return {
    update(view, meta) {
      const prev = ui.view;
      ui.view = view;
      ui.meta = meta || {};
      // a new phase or round clears a stale pick and error
      if (!prev || prev.phase !== view.phase || prev.round !== view.round) {
        ui.picked = null;
        ui.error = "";
      }
      if (view.phase !== "prepare" || !view.hand) {
        ui.answer = null;
        ui.hints = [];
        ui.pickMode = "answer";
      }
      render();
      // the reveal comes up: the keyboard goes to Continue (not on opening a page mid-reveal;
      // not in a replay, nor on the shared screen, where nobody holds a keyboard)
      if (prev && prev.phase !== "results" && view.phase === "results" && ctx.mode === "play") focusContinue(root);
      news(prev, view);
    },
    destroy() {
      clearInterval(ui.timer);
      root.replaceChildren();
      root.classList.remove("gi-root");
    },
  };
}
