// Brainiac or IDIOT! in the browser: trivia card, question, answers, the Genius's verdicts,
// accusation pawns, the reveal with every score change explained, and the score track.
// Contract: docs/engine-contract.md. Plain ES module, no build step, text via textContent only.
// Test hooks (data-testid): docs/rules/brainiac.md.

// the page's one DOM builder: player text always as text, never HTML
import { focusKeeper } from "/static/js/a11y.js";
import { focusContinue, revealScreen, revealStatus } from "/static/js/reveal.js";
import { el as h } from "/static/js/api.js";
import { t as T } from "/static/js/i18n.js";

const LEVELS = ["easy", "medium", "hard", "very_hard"];
const level = (i) => (LEVELS[i] ? T(`bq.level.${LEVELS[i]}`) : "");

// Element.append would print null as "null": skip empty children.
function add(node, ...kids) {
  for (const k of kids) if (k !== null && k !== undefined && k !== false) node.append(k);
}

export function createGameView(root, ctx) {
  const ui = {
    view: null,
    meta: {},
    busy: false,
    peek: false,
    overrides: {}, // seat -> bool, the Genius's toggles for this round
    overridesFor: null, // "round" the toggles belong to
    draft: "",
    focused: null, // the round whose answer box has been focused
  };

  root.classList.add("bq");
  const status = h("div", { class: "bq-status", "data-testid": "bq-status", tabindex: "-1" });
  // updates rebuild the buttons: the keyboard goes back to the same one (by data-testid) or,
  // when it is gone, to the next useful one, else the status line
  const focus = focusKeeper(root, { fallback: () => status });
  const roundInfo = h("span", { class: "bq-round", "data-testid": "bq-round" });
  const deadline = h("span", { class: "bq-deadline", "data-testid": "bq-deadline" });
  const top = h("div", { class: "bq-top" }, status, h("div", { class: "bq-meta" }, roundInfo, deadline));
  const identity = h("div", { class: "bq-identity-box" });
  const track = h("ol", { class: "bq-track", "data-testid": "bq-track", "aria-label": T("bq.scores") });
  const main = h("div", { class: "bq-main" });
  const reveal = h("div", { class: "bq-reveal-box" });
  const log = h("details", { class: "bq-log", "data-testid": "bq-history" });
  // the answer box lives across updates so typing is never interrupted
  const input = h("input", {
    type: "text",
    class: "bq-input",
    maxlength: "200",
    autocomplete: "off",
    "aria-label": T("bq.your_answer"),
    "data-testid": "bq-answer-input",
    placeholder: T("bq.your_answer"),
  });
  input.addEventListener("input", () => { ui.draft = input.value; });
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); submitAnswer(); } });
  const submit = h("button", { type: "button", class: "primary", "data-testid": "bq-answer-submit", onclick: () => submitAnswer() }, T("bq.answer"));
  // on a phone the answer box and its button sit in the bar fixed at the bottom of the screen
  // (.action-bar, static/app.css), above the on-screen keyboard
  const answerForm = h("div", { class: "bq-answer-form action-bar" }, input, submit);

  add(root, top, identity, h("div", { class: "bq-layout" }, main, h("div", { class: "bq-side" }, track)), reveal, log);

  const timer = setInterval(tickDeadline, 1000);

  function players() {
    try { return ctx.players || []; } catch { return []; }
  }
  function name(seat) {
    if (seat === null || seat === undefined) return T("bq.no_one");
    const p = players().find((x) => x.seat === seat);
    return p && p.name ? p.name : `Seat ${seat + 1}`;
  }
  function me() { return ctx.seat === null || ctx.seat === undefined ? null : ctx.seat; }
  function canAct() {
    const v = ui.view;
    return v && !ui.busy && me() !== null && ctx.mode !== "replay" && ctx.send && !v.over && v.to_act.includes(me());
  }
  async function send(action) {
    if (!ctx.send || ui.busy) return null;
    ui.busy = true;
    render();
    try { return await ctx.send(action); } finally { ui.busy = false; render(); }
  }
  async function submitAnswer() {
    if (!canAct() || !ui.view || ui.view.phase !== "answer") return;
    const res = await send({ type: "answer", text: input.value });
    if (res && res.ok) { ui.draft = ""; input.value = ""; }
  }

  function tickDeadline() {
    const v = ui.view;
    const dl = ui.meta && ui.meta.deadline;
    if (!dl || !v || v.over) { deadline.textContent = ""; deadline.classList.remove("bq-hurry"); return; }
    const secs = Math.max(0, Math.round((dl - Date.now()) / 1000));
    deadline.textContent = T("ingenious.time_left", { time: `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}` });
    deadline.classList.toggle("bq-hurry", secs <= 10);
  }

  function itemText(item) {
    const sign = item.points > 0 ? "+" : "";
    const o = name(item.other);
    const kinds = ["correct_answer", "unaccused_idiot", "correct_accusation", "wrong_accusation", "wrongly_accused", "idiot_answered_right", "floor"];
    const words = kinds.includes(item.kind) ? T(`bq.item.${item.kind}`, { other: o }) : item.text;
    return `${sign}${item.points} ${words}`;
  }

  function statusText(v) {
    const waiting = v.to_act.map(name).join(", ");
    const mine = me() !== null && v.to_act.includes(me());
    switch (v.phase) {
      case "trade": return mine ? T("bq.status.trade") : T("bq.status.trade_wait", { names: waiting });
      case "ask": return mine ? T("bq.status.ask") : T("bq.status.ask_wait", { name: name(v.genius) });
      case "answer": return mine ? T("bq.status.answer") : T("bq.status.answer_wait", { names: waiting });
      case "judge": return mine ? T("bq.status.judge") : T("bq.status.judge_wait", { name: name(v.genius) });
      case "dispute": return mine ? T("bq.status.dispute") : T("bq.status.dispute_wait", { names: waiting });
      case "accuse": return mine ? T("bq.status.accuse") : T("bq.status.accuse_wait", { name: name(v.accuser) });
      case "results": return revealStatus({ toAct: v.to_act, seat: me(), canReady: !!ctx.send && ctx.mode !== "replay", nameOf: name });
      case "over": {
        const w = (v.result && v.result.winners) || [];
        return w.length === 1 ? T("bq.wins", { name: name(w[0]) }) : T("bq.shared_win", { names: w.map(name).join(", ") });
      }
      default: return v.phase;
    }
  }

  function renderIdentity(v) {
    identity.replaceChildren();
    if (me() === null) return;
    const inRound = ["ask", "answer", "judge", "dispute", "accuse"].includes(v.phase);
    if (!inRound) return;
    if (v.genius === me()) {
      add(identity, h("div", { class: "bq-identity bq-genius-badge", "data-testid": "bq-identity", "data-identity": "genius" }, T("bq.you_genius_set_aside")));
      return;
    }
    const who = v.identity;
    const shown = ui.peek;
    const card = h("div", {
      class: `bq-identity${shown ? ` bq-id-${who}` : " bq-id-hidden"}`,
      "data-testid": "bq-identity",
      // your own card only (never another's): lets tests read it without peeking
      "data-identity": who,
      "data-shown": shown ? "true" : "false",
    });
    add(card, 
      h("span", { class: "bq-id-label" }, T("bq.secret_card")),
      h("strong", {}, shown ? (who === "idiot" ? "IDIOT!" : "Brainiac") : T("bq.face_down")),
      shown ? h("span", { class: "bq-id-hint" }, ` — ${T(who === "idiot" ? "bq.idiot_hint" : "bq.brainiac_hint")}`) : null,
      h("button", {
        type: "button",
        class: "bq-peek",
        "data-testid": "bq-identity-toggle",
        "aria-pressed": shown ? "true" : "false",
        onclick: () => { ui.peek = !ui.peek; render(); },
      }, shown ? T("bq.hide") : T("bq.peek")),
    );
    add(identity, card);
  }

  function renderTrack(v) {
    track.replaceChildren();
    const n = v.players;
    const accusedBy = {};
    for (const a of v.accusations || []) if (a.target !== null) (accusedBy[a.target] = accusedBy[a.target] || []).push(a.by);
    const top = Math.max(...v.scores);
    for (let seat = 0; seat < n; seat++) {
      const li = h("li", {
        class: ["bq-player", seat === v.genius ? "bq-is-genius" : "", v.to_act.includes(seat) ? "bq-acting" : "", seat === me() ? "bq-me" : ""].filter(Boolean).join(" "),
        "data-testid": `bq-player-${seat}`,
      });
      add(li, 
        h("span", { class: "bq-pname" }, name(seat)),
        h("span", { class: "bq-score", "data-testid": `bq-score-${seat}` }, String(v.scores[seat])),
        h("span", { class: "bq-bar", style: `--w:${top > 0 ? Math.round((v.scores[seat] / top) * 100) : 0}%` }),
      );
      const tags = h("span", { class: "bq-tags" });
      if (seat === v.genius && !v.over) add(tags, h("span", { class: "bq-tag bq-tag-genius", title: T("bq.genius") }, T("bq.genius")));
      const rev = v.revealed && v.revealed[seat];
      if (rev) add(tags, h("span", { class: `bq-tag bq-tag-${rev}` }, rev === "idiot" ? "IDIOT!" : "Brainiac"));
      if (v.phase === "answer" && v.answered && v.answered[seat]) add(tags, h("span", { class: "bq-tag" }, T("bq.answered")));
      if (v.phase === "results" && !v.to_act.includes(seat)) add(tags, h("span", { class: "bq-tag" }, T("bq.ready")));
      for (const by of accusedBy[seat] || []) add(tags, h("span", { class: "bq-pawn", title: T("bq.accused_by", { name: name(by) }) }, `◆ ${name(by)}`));
      add(li, tags);
      add(track, li);
    }
  }

  function cardList(v) {
    const ol = h("ol", { class: "bq-card", "data-testid": "bq-card" });
    (v.card || []).forEach((q, i) => {
      const li = h("li", { class: `bq-q${q.asked ? " bq-asked" : ""}` });
      add(li, h("span", { class: "bq-level" }, level(i)), h("span", { class: "bq-qtext" }, q.q));
      if (q.a) add(li, h("span", { class: "bq-accepted" }, T("bq.answer_is", { answer: q.a.join(" / ") })));
      if (q.asked) add(li, h("span", { class: "bq-tag" }, T("bq.asked")));
      add(ol, li);
    });
    return ol;
  }

  // The Genius's four choices as one bar of buttons, one per level: on a phone the bar is
  // fixed at the bottom (.action-bar), so even the very hard question is one tap away
  function askBar(v) {
    return h("div", { class: "bq-buttons bq-ask-bar action-bar" }, ...(v.card || []).map((q, i) => h("button", {
      type: "button",
      class: "primary",
      "data-testid": `bq-ask-${i}`,
      disabled: q.asked || !canAct(),
      onclick: () => send({ type: "ask", index: i }),
    }, T("bq.ask_this", { level: level(i) }))));
  }

  function questionBox(v) {
    if (!v.question) return null;
    return h("div", { class: "bq-question", "data-testid": "bq-question" },
      h("div", { class: "bq-qhead" }, T("bq.asks", { name: name(v.genius), level: level(v.question.index) })),
      h("div", { class: "bq-qbig" }, v.question.q),
      v.question.a ? h("div", { class: "bq-accepted", "data-testid": "bq-accepted" }, T("bq.accepted", { answer: v.question.a.join(" / ") })) : null);
  }

  function renderMain(v) {
    main.replaceChildren();
    const mine = me() !== null && v.to_act.includes(me());
    if (v.phase === "trade") {
      add(main, h("h3", {}, T("bq.your_card")));
      if (v.card) add(main, cardList(v));
      if (me() !== null) {
        if (v.trade.mine) add(main, h("p", { "data-testid": "bq-trade-done" }, v.trade.mine === "trade" ? T("bq.traded") : T("bq.kept")));
        else add(main, h("div", { class: "bq-buttons action-bar" },
          h("button", { type: "button", "data-testid": "bq-trade", disabled: !canAct(), onclick: () => send({ type: "trade" }) }, T("bq.trade")),
          h("button", { type: "button", class: "primary", "data-testid": "bq-keep", disabled: !canAct(), onclick: () => send({ type: "keep" }) }, T("bq.keep"))));
      }
      add(main, h("p", { class: "bq-muted" }, T("bq.decided", { names: v.trade.decided.map((d, s) => (d ? name(s) : null)).filter(Boolean).join(", ") || T("bq.nobody_yet") })));
      return;
    }
    if (v.phase === "ask") {
      if (mine) {
        add(main, h("h3", {}, T("bq.pick_question")), cardList(v), askBar(v));
      } else {
        add(main, h("p", { class: "bq-wait" }, T("bq.choosing_question", { name: name(v.genius) })));
      }
      return;
    }
    if (v.phase === "answer") {
      add(main, questionBox(v));
      if (me() !== null && me() !== v.genius) {
        if (v.my_answer === null || v.my_answer === undefined) {
          if (input.value !== ui.draft) input.value = ui.draft;
          input.disabled = !canAct();
          submit.disabled = !canAct();
          add(main, answerForm);
          // focus the box once per question, not on every update (phones would pop the keyboard)
          if (ui.focused !== v.round && canAct()) {
            ui.focused = v.round;
            setTimeout(() => { try { input.focus({ preventScroll: true }); } catch { /* ignore */ } }, 0);
          }
        } else {
          add(main, h("p", { class: "bq-mine", "data-testid": "bq-my-answer" }, `${T("bq.your_answer")}: `, h("strong", {}, v.my_answer || T("bq.blank"))));
        }
      }
      const waiting = [];
      for (const s of v.readout_order) waiting.push(h("li", { class: v.answered[s] ? "bq-done" : "" }, `${name(s)}: ${v.answered[s] ? T("bq.answered") : T("bq.thinking")}`));
      add(main, h("ul", { class: "bq-answered", "data-testid": "bq-answered" }, ...waiting));
      return;
    }
    if (v.phase === "judge" || v.phase === "dispute" || v.phase === "accuse") {
      add(main, questionBox(v));
      add(main, readout(v));
      if (v.phase === "accuse") add(main, accusePanel(v));
      return;
    }
    if (v.phase === "results" && v.results) {
      // the round just played, until everyone has pressed Continue or time is up
      const r = v.results;
      add(main, revealScreen({
        title: T(r.tiebreak ? "bq.reveal_tiebreak" : "bq.reveal_title", { n: r.round }),
        body: revealBox(v, r, "bq-reveal-screen"),
        toAct: v.to_act,
        seat: me(),
        deadline: ui.meta.deadline || null,
        onReady: me() !== null && ctx.send && ctx.mode !== "replay" ? () => send({ type: "ready" }) : null,
        sending: ui.busy,
        nameOf: name,
      }));
      return;
    }
    if (v.phase === "over") {
      const w = (v.result && v.result.winners) || [];
      add(main, h("div", { class: "bq-result", "data-testid": "bq-result" },
        h("h3", {}, w.length === 1 ? T("bq.wins_with", { name: name(w[0]), n: v.scores[w[0]] }) : T("bq.shared_win", { names: w.map(name).join(", ") }))));
    }
  }

  function readout(v) {
    const key = `${v.round}`;
    if (ui.overridesFor !== key) { ui.overrides = {}; ui.overridesFor = key; }
    const judging = v.phase === "judge" && me() !== null && me() === v.genius && v.verdicts && ctx.send && ctx.mode !== "replay";
    const ol = h("ol", { class: "bq-readout", "data-testid": "bq-readout" });
    const disputes = []; // one button per verdict this person may still dispute, in the bar
    for (const s of v.readout_order) {
      let verdict = null;
      let note = "";
      if (v.phase === "judge" && v.verdicts) {
        const engine = v.verdicts.engine[s];
        verdict = s in ui.overrides ? ui.overrides[s] : engine;
        if (s in ui.overrides && ui.overrides[s] !== engine) note = ` (${T("bq.overruled")})`;
      } else if ((v.phase === "dispute" || v.phase === "accuse") && v.verdicts) {
        // in dispute: the Genius's verdict, which stands unless the table overturns it
        verdict = v.verdicts.final[s];
        if (v.verdicts.overrides[s] !== null && v.verdicts.overrides[s] !== v.verdicts.engine[s]) note = ` (${T("bq.overruled_genius")})`;
        if (v.dispute && v.dispute.overturned && v.dispute.overturned.includes(s)) note = ` (${T("bq.overturned")})`;
      }
      const li = h("li", { class: `bq-ans${verdict === true ? " bq-right" : verdict === false ? " bq-wrong" : ""}`, "data-testid": `bq-answer-${s}` });
      add(li, h("span", { class: "bq-pname" }, name(s)), h("span", { class: "bq-atext" }, v.answers && v.answers[s] ? v.answers[s] : "(blank)"));
      if (verdict !== null) add(li, h("span", { class: "bq-verdict" }, (verdict ? `✓ ${T("bq.right")}` : `✗ ${T("bq.wrong")}`) + note));
      if (v.revealed && v.revealed[s]) add(li, h("span", { class: `bq-tag bq-tag-${v.revealed[s]}` }, v.revealed[s] === "idiot" ? "IDIOT!" : "Brainiac"));
      add(li, disputedBy(v.dispute && v.dispute.disputes, s, `bq-disputed-${s}`));
      if (v.phase === "dispute" && (v.dispute_targets || []).includes(s) && ctx.send && ctx.mode !== "replay") {
        disputes.push(h("button", {
          type: "button",
          class: "bq-dispute",
          "data-testid": `bq-dispute-${s}`,
          disabled: !canAct(),
          onclick: () => send({ type: "dispute", target: s }),
        }, T("bq.dispute_name", { name: name(s) })));
      }
      if (judging) {
        add(li, h("button", {
          type: "button",
          class: "bq-toggle",
          "data-testid": `bq-override-${s}`,
          "aria-pressed": s in ui.overrides ? "true" : "false",
          disabled: ui.busy,
          onclick: () => {
            const engine = v.verdicts.engine[s];
            const now = s in ui.overrides ? ui.overrides[s] : engine;
            if (!now === engine) delete ui.overrides[s];
            else ui.overrides[s] = !now;
            render();
          },
        }, verdict ? T("bq.mark_wrong") : T("bq.mark_right")));
      }
      add(ol, li);
    }
    const box = h("div", { class: "bq-readout-box" }, h("h3", {}, T("bq.answers")), ol);
    if (judging) {
      add(box, h("div", { class: "bq-buttons action-bar" }, h("button", {
        type: "button",
        class: "primary",
        "data-testid": "bq-judge-confirm",
        disabled: !canAct(),
        onclick: () => {
          const overrides = {};
          for (const [s, val] of Object.entries(ui.overrides)) overrides[String(s)] = val;
          send({ type: "judge", overrides });
        },
      }, T("bq.confirm"))));
    } else if (v.phase === "judge") {
      add(box, h("p", { class: "bq-muted" }, T("bq.checking", { name: name(v.genius) })));
    } else if (v.phase === "dispute") {
      add(box, h("p", { class: "bq-muted" }, T("bq.dispute_hint")));
      if (me() !== null && v.to_act.includes(me()) && ctx.send && ctx.mode !== "replay") {
        add(box, h("div", { class: "bq-buttons action-bar" }, ...disputes,
          h("button", { type: "button", class: "primary", "data-testid": "bq-dispute-done", disabled: !canAct(), onclick: () => send({ type: "agree" }) }, T("bq.dispute_done"))));
      } else if (disputes.length) {
        add(box, h("div", { class: "bq-buttons action-bar" }, ...disputes));
      }
    }
    return box;
  }

  // "disputed by Ann, Bob" under an answer whose verdict people disputed
  function disputedBy(disputes, seat, testid) {
    const by = (disputes || []).filter((d) => d.target === seat).map((d) => name(d.by));
    return by.length ? h("span", { class: "bq-disputed", "data-testid": testid }, T("bq.disputed_by", { names: by.join(", ") })) : null;
  }

  function accusePanel(v) {
    const box = h("div", { class: "bq-accuse", "data-testid": "bq-accusations" }, h("h3", {}, T("bq.accusations")));
    const made = h("ul", { class: "bq-made" });
    for (const a of v.accusations) add(made, h("li", {}, a.target === null ? T("bq.accuses_none", { name: name(a.by) }) : T("bq.accuses", { name: name(a.by), target: name(a.target) })));
    if (!v.accusations.length) add(made, h("li", { class: "bq-muted" }, T("bq.none_yet")));
    add(box, made);
    if (me() !== null && v.accuser === me() && ctx.send && ctx.mode !== "replay") {
      const buttons = h("div", { class: "bq-buttons action-bar" });
      for (const t of v.accuse_targets) {
        add(buttons, h("button", { type: "button", class: "bq-pawn-btn", "data-testid": `bq-accuse-${t}`, disabled: !canAct(), onclick: () => send({ type: "accuse", target: t }) }, `◆ ${T("bq.is_idiot", { name: name(t) })}`));
      }
      add(buttons, h("button", { type: "button", "data-testid": "bq-accuse-none", disabled: !canAct(), onclick: () => send({ type: "accuse", target: null }) }, T("bq.no_one_button")));
      add(box, h("p", {}, T("bq.pawn")), buttons);
    } else if (v.accuser !== null) {
      add(box, h("p", { class: "bq-muted" }, T("bq.next", { name: name(v.accuser) })));
    }
    return box;
  }

  function renderReveal(v) {
    reveal.replaceChildren();
    const last = v.history && v.history.length ? v.history[v.history.length - 1] : null;
    if (!last || v.phase !== "over") return; // the last round's reveal (earlier ones had ``results``)
    if (ctx.mode === "screen") {
      // the room watches it together with the result, as it watched every round's reveal
      const title = T(last.tiebreak ? "bq.reveal_tiebreak" : "bq.reveal_title", { n: last.round });
      add(reveal, revealScreen({ title, body: revealBox(v, last, "bq-reveal-screen"), toAct: [], seat: null, nameOf: name, last: true }));
      return;
    }
    add(reveal, revealBox(v, last, "bq-reveal"));
  }

  function revealBox(v, last, testid) {
    const box = h("section", { class: "bq-reveal", "data-testid": testid },
      testid === "bq-reveal" ? h("h3", {}, T(last.tiebreak ? "bq.reveal_tiebreak" : "bq.reveal_title", { n: last.round })) : null,
      h("p", { class: "bq-qtext" }, last.question),
      h("p", { class: "bq-accepted" }, T("bq.answer_is", { answer: last.accepted.join(" / ") })));
    const table = h("ul", { class: "bq-reveal-list" });
    for (let s = 0; s < v.players; s++) {
      const id = last.identities[s];
      const li = h("li", { class: "bq-reveal-row", "data-testid": `bq-reveal-${s}` });
      const change = last.changes[s];
      add(li, 
        h("span", { class: "bq-pname" }, name(s)),
        s === last.genius ? h("span", { class: "bq-tag bq-tag-genius" }, T("bq.genius")) : h("span", { class: `bq-tag bq-tag-${id}` }, id === "idiot" ? "IDIOT!" : "Brainiac"),
        s === last.genius ? null : h("span", { class: `bq-atext ${last.verdicts[s] ? "bq-right" : "bq-wrong"}` }, `${last.answers[s] || T("bq.blank")} ${last.verdicts[s] ? "✓" : "✗"}`),
        (last.overturned || []).includes(s) ? h("span", { class: "bq-tag bq-overturned", "data-testid": `bq-overturned-${s}` }, T("bq.overturned")) : null,
        disputedBy(last.disputes, s, null),
        h("span", { class: `bq-change ${change > 0 ? "bq-up" : change < 0 ? "bq-down" : ""}` }, change > 0 ? `+${change}` : String(change)),
      );
      const why = h("ul", { class: "bq-why" });
      for (const item of last.items[s]) add(why, h("li", {}, itemText(item)));
      add(li, why);
      add(table, li);
    }
    add(box, table);
    return box;
  }

  function roundText(r) {
    const gains = r.changes.map((c, s) => (s === r.genius && c === 0 ? null : `${name(s)} ${c > 0 ? "+" : ""}${c}`)).filter(Boolean).join(", ");
    const idiots = r.identities.map((id, s) => (id === "idiot" ? name(s) : null)).filter(Boolean);
    return `${T("bq.round_line", { name: name(r.genius), question: r.question, answer: r.accepted[0], idiots: idiots.length ? idiots.join(", ") : T("gi.none") })} ${gains}`;
  }

  // What a screen reader hears (the room's live region): the question asked, the verdicts,
  // each accusation, the round's result, and what to do or whom we wait for.
  let heardStatus = null;
  function news(prev, v) {
    const said = [];
    if (prev) {
      if ((v.history || []).length > (prev.history || []).length) {
        const r = v.history[v.history.length - 1];
        said.push(`${T(r.tiebreak ? "bq.result_tiebreak" : "bq.result", { n: r.round })} ${roundText(r)}`);
      }
      if (v.question && (!prev.question || prev.round !== v.round)) said.push(`${T("bq.asks", { name: name(v.genius), level: level(v.question.index) })} ${v.question.q}`);
      if (v.phase === "accuse" && prev.phase !== "accuse" && v.verdicts) {
        said.push(T("bq.verdicts", { list: v.readout_order.map((s) => `${name(s)} ${v.verdicts.final[s] ? T("bq.right") : T("bq.wrong")}`).join(", ") }));
      }
      const disputed = prev.round === v.round && prev.phase === v.phase && prev.dispute ? prev.dispute.disputes.length : 0;
      for (const d of (v.phase === "dispute" && v.dispute ? v.dispute.disputes : []).slice(disputed)) said.push(`${T("bq.disputes", { name: name(d.by), target: name(d.target) })}.`);
      const made = prev.round === v.round && prev.phase === v.phase ? (prev.accusations || []).length : 0;
      for (const a of (v.accusations || []).slice(made)) said.push(`${a.target === null ? T("bq.accuses_none", { name: name(a.by) }) : T("bq.accuses", { name: name(a.by), target: name(a.target) })}.`);
    }
    const text = statusText(v);
    if (text !== heardStatus) said.push(text);
    heardStatus = text;
    for (const t of said) ctx.announce?.(t);
  }

  function renderLog(v) {
    log.replaceChildren();
    const rounds = v.history || [];
    if (!rounds.length) return;
    const list = h("ol", { class: "bq-log-list" });
    for (const r of rounds) {
      add(list, h("li", { "data-testid": `bq-log-${r.round}` }, h("strong", {}, T("bq.round", { n: r.round })), ` — ${roundText(r)}`));
    }
    add(log, h("summary", {}, T("bq.earlier", { n: rounds.length })), list);
  }

  function render() {
    focus.keep(rebuild);
  }

  function rebuild() {
    const v = ui.view;
    if (!v) return;
    status.textContent = statusText(v);
    roundInfo.textContent = v.round ? `Round ${v.round} of ${v.rounds_total}${v.tiebreak ? " — tie-break" : ""}` : "";
    tickDeadline();
    renderIdentity(v);
    renderTrack(v);
    renderMain(v);
    renderReveal(v);
    renderLog(v);
  }

  return {
    update(view, meta) {
      const prev = ui.view;
      if (prev && view && (prev.round !== view.round || view.phase === "trade")) ui.peek = false;
      ui.view = view;
      ui.meta = meta || {};
      render();
      // the reveal comes up: the keyboard goes to Continue (not on opening a page mid-reveal;
      // not in a replay, nor on the shared screen, where nobody holds a keyboard)
      if (prev && prev.phase !== "results" && view.phase === "results" && ctx.mode === "play") focusContinue(root);
      news(prev, view);
    },
    destroy() {
      clearInterval(timer);
      root.replaceChildren();
    },
  };
}
