// The toy game's board, for the platform's browser tests.
export function createGameView(root, ctx) {
  const counter = document.createElement("p");
  counter.dataset.testid = "counter";
  const secret = document.createElement("p");
  secret.dataset.testid = "secret";
  const turn = document.createElement("p");
  turn.dataset.testid = "turn";
  const buttons = document.createElement("div");
  for (const n of [1, 2, 3]) {
    const b = document.createElement("button");
    b.textContent = `+${n}`;
    b.dataset.testid = `add-${n}`;
    b.addEventListener("click", () => ctx.send({ type: "add", n }));
    buttons.append(b);
  }
  root.append(counter, turn, secret, buttons);
  return {
    update(view) {
      counter.textContent = String(view.counter);
      secret.textContent = view.secret == null ? "" : `secret ${view.secret}`;
      const mine = view.to_act.includes(ctx.seat);
      turn.textContent = view.over ? `over: seat ${view.result.winners.join(",")} wins` : mine ? "your turn" : "waiting";
      for (const b of buttons.children) b.disabled = !mine || ctx.mode !== "play";
    },
    destroy() { root.replaceChildren(); },
  };
}
