// The action bar: it follows the structure. No limit and pot limit: a slider and
// presets (½ pot, pot, all-in) inside the legal bounds; fixed limit: the fixed
// amounts; spread limit: the spread's bounds. Stud's bring-in, draw's discards.
// Keyboard: F fold, C check/call, R bet/raise, 1 ½ pot, 2 pot, 3 all-in, D draw.

import { sentence } from "./api.js";
import { h, chips } from "./dom.js";

/** The raise total a pot fraction asks for, inside [min, max]. */
export function potRaise(hand, me, fraction, legal) {
  const pot = hand.pots.reduce((a, p) => a + p.amount, 0) + hand.seats.reduce((a, s) => a + (s ? s.bet : 0), 0);
  const mine = hand.seats[me] ? hand.seats[me].bet : 0;
  const toCall = Math.max(0, hand.current_bet - mine);
  const total = hand.current_bet + Math.floor((pot + toCall) * fraction);
  return Math.min(legal.max_raise_to, Math.max(legal.min_raise_to, total));
}

/** The whole number of chips `text` says, or null (empty, a fraction, an exponent). */
function wholeChips(text) {
  const s = String(text).trim();
  return /^[0-9]{1,15}$/.test(s) ? Number(s) : null;
}

/** What a raise button says: the all-in when the amount is every chip we have (our
 *  stack behind and what we put in this street), else the log's word. */
function raiseLabel(t, hand, word, amount) {
  const mine = hand.seats[t.view.you];
  const allIn = mine && mine.stack + (mine.bet || 0) === amount;
  return `${allIn ? "All-in" : word} ${chips(amount)}`;
}

function raiseControls(t, legal, hand) {
  const betting = !legal.call && hand.current_bet === 0;
  // The log's words (tablelog.js BetWords): a stud bring-in made a full bet completes.
  const word = t.betWords && t.betWords.completing() ? "Complete to" : betting ? "Bet" : "Raise to";
  const structure = (t.view.game && t.view.game.structure) || hand.structure;
  const sizes = legal.raise_sizes || [];
  const [low, high] = [legal.min_raise_to, legal.max_raise_to];
  if (sizes.length || low === high) {
    const amounts = sizes.length ? sizes : [low];
    return amounts.map((a, i) => h("button.act.raise", {
      type: "button", text: raiseLabel(t, hand, word, a), "aria-keyshortcuts": i === 0 ? "R" : undefined,
      "data-key": i === 0 ? "r" : undefined, onclick: () => t.act("raise", a),
    }));
  }
  const amount = h("input#raise-amount", {
    type: "number", min: low, max: high, step: 1, value: low, inputMode: "numeric",
    "aria-describedby": "raise-problem",
  });
  const slider = h("input#raise-slider", {
    type: "range", min: low, max: high, step: 1, value: low, "aria-label": `${word} amount`,
  });
  const button = h("button.act.raise", { type: "button", "aria-keyshortcuts": "R", "data-key": "r" });
  const problem = h("small#raise-problem.error.raise-problem", { "aria-live": "polite" });
  // The amount typed, when it is one the rules allow: else null, and the button is off.
  // Never brought within the bounds for the player: a clamped amount sent at once (by
  // Enter, or by the click whose press left the box) is a bet nobody saw, all-in for
  // a typo.
  const typed = () => {
    const n = wholeChips(amount.value);
    return n !== null && n >= low && n <= high ? n : null;
  };
  const show = () => {
    const n = typed();
    button.disabled = n === null;
    amount.toggleAttribute("aria-invalid", n === null);
    problem.textContent = n === null ? `Type a whole number of chips from ${chips(low)} to ${chips(high)}.` : "";
    button.textContent = n === null ? word : raiseLabel(t, hand, word, n);
    if (n !== null) slider.value = n;
  };
  const setAmount = (v) => { amount.value = v; show(); };
  const send = () => { const n = typed(); if (n !== null) t.act("raise", n); else show(); };
  slider.addEventListener("input", () => setAmount(slider.value));
  amount.addEventListener("input", show);
  amount.addEventListener("change", show);
  amount.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); send(); } });
  button.addEventListener("click", send);
  setAmount(low);
  const presets = [];
  if (structure === "no_limit" || structure === "pot_limit") {
    const me = t.view.you;
    presets.push(
      h("button.preset", { type: "button", text: "½ pot", "aria-keyshortcuts": "1", "data-key": "1", onclick: () => setAmount(potRaise(hand, me, 0.5, legal)) }),
      h("button.preset", { type: "button", text: "Pot", "aria-keyshortcuts": "2", "data-key": "2", onclick: () => setAmount(potRaise(hand, me, 1, legal)) }),
      h("button.preset", { type: "button", text: structure === "no_limit" ? "All-in" : "Max", "aria-keyshortcuts": "3", "data-key": "3", onclick: () => setAmount(high) }),
    );
  }
  return [h("div.raise",
    h("label", { for: "raise-amount", text: `${word} (${chips(low)}–${chips(high)})` }),
    slider, amount, h("div.presets", presets)), button, problem];
}

const cardsWord = (n) => `${n} card${n === 1 ? "" : "s"}`;

/** A draw (0 to `draw` cards, replaced) or a discard street (Irish: exactly
 *  `draw_min` thrown, nothing dealt in their place, no standing pat). */
function drawControls(t, legal) {
  const n = t.discards.size;
  const least = legal.draw_min || 0;
  if (least > 0) {
    const exact = least === legal.draw;
    return [
      h("p.hint", { text: exact ? `Choose exactly ${cardsWord(least)} to throw away by clicking them.`
        : `Choose ${least} to ${cardsWord(legal.draw)} to throw away by clicking them.` }),
      h("button.act.draw", {
        type: "button", "aria-keyshortcuts": "D", "data-key": "d", disabled: n < least,
        text: `Discard ${cardsWord(n < least ? least : n)}`, onclick: () => t.draw(),
      }),
    ];
  }
  return [
    h("p.hint", { text: `Choose up to ${cardsWord(legal.draw)} to discard by clicking them.` }),
    h("button.act.draw", {
      type: "button", "aria-keyshortcuts": "D", "data-key": "d",
      text: n === 0 ? "Stand pat" : `Discard ${n} and draw`, onclick: () => t.draw(),
    }),
  ];
}

/** The action bar for the seat to act, or null. */
export function actionBar(t) {
  const hand = t.view.hand;
  const legal = t.legal();
  if (!hand || !legal) return null;
  const acts = legal.actions || [];
  const parts = [];
  if (acts.includes("draw")) {
    parts.push(...drawControls(t, legal));
  } else {
    if (acts.includes("fold")) parts.push(h("button.act.fold", { type: "button", text: "Fold", "aria-keyshortcuts": "F", "data-key": "f", onclick: () => t.act("fold") }));
    if (acts.includes("check")) parts.push(h("button.act.check", { type: "button", text: "Check", "aria-keyshortcuts": "C", "data-key": "c", onclick: () => t.act("check") }));
    if (acts.includes("call")) parts.push(h("button.act.call", { type: "button", text: `Call ${chips(legal.call)}`, "aria-keyshortcuts": "C", "data-key": "c", onclick: () => t.act("call") }));
    if (acts.includes("bring_in")) parts.push(h("button.act.bringin", { type: "button", text: `Bring in ${chips(legal.bring_in)}`, "aria-keyshortcuts": "B", "data-key": "b", onclick: () => t.act("bring_in") }));
    if (acts.includes("raise")) parts.push(...raiseControls(t, legal, hand));
    else if (legal.no_raise) parts.push(h("small.hint", { text: sentence(legal.no_raise) })); // the room's words
  }
  const bar = h("section.actionbar", { "aria-label": "Your action", role: "group" },
    h("p.yourturn", { text: "Your turn" }), parts);
  bar.append(h("p.keys", { text: keysHint(bar) }));
  return bar;
}

/** The keys of this bar's buttons, each with what its button says ("Keys: F fold · C call
 *  · R raise to · B bring in"): never a key this decision has no button for. */
function keysHint(bar) {
  const order = (b) => "fcbr123d".indexOf(b.dataset.key);
  const keys = [...bar.querySelectorAll("[data-key]")].sort((a, b) => order(a) - order(b)).map((b) =>
    `${b.dataset.key.toUpperCase()} ${b.textContent.replace(/\s*[\d,]+$/, "").toLowerCase()}`);
  return keys.length ? `Keys: ${keys.join(" · ")}` : "";
}

/** Whether the advance-action checkboxes are offered now: in the hand, not our turn,
 *  and only from a fresh view (between an event and the next snapshot the turn may
 *  already be ours, and the server refuses an advance action then). */
export function advanceOffered(t) {
  const hand = t.view.hand;
  const me = t.view.you;
  if (!hand || me === null || me === undefined || !hand.seats[me] || !hand.seats[me].in_hand || t.legal()) return false;
  if (hand.seats[me].all_in || hand.over || t.waiting || t.stale || hand.actor === me) return false;
  // Leaving after the hand: the room plays our turns as a timeout's, whatever was ticked.
  if (t.view.seats[me] && t.view.seats[me].leaving) return false;
  return !(t.view.turn && t.view.turn.seat === me);
}

/** Pre-selected actions while waiting for one's turn (advance-action checkboxes): "Check"
 *  while nothing is to call, "Call N" when a bet is to call; "Check/fold", "Call any" and
 *  "Fold" always (a pre-selected fold checks when a check is free). */
export function advanceBox(t) {
  if (!advanceOffered(t)) return null;
  const hand = t.view.hand;
  const me = t.view.you;
  const toCall = Math.max(0, hand.current_bet - (hand.seats[me].bet || 0));
  const current = t.view.advance ? t.view.advance.kind : null;
  const options = [["check_fold", "Check/fold"],
    toCall ? ["call", `Call ${chips(toCall)}`, toCall] : ["check", "Check"],
    ["call_any", "Call any"], ["fold", "Fold"]];
  // Not announced: offered from a fresh view only, the boxes go and come back with
  // every move of the others, and the action area's live region read them out each time.
  return h("fieldset.advance", { "aria-live": "off" }, h("legend", { text: "Act in advance" }),
    options.map(([kind, label, amount]) => {
      const id = `adv-${kind}`;
      const box = h("input", { type: "checkbox", id, checked: current === kind,
        onchange: (e) => t.advance(e.target.checked ? kind : null, amount) });
      return h("span.opt", box, h("label", { for: id, text: label }));
    }));
}

/** Route a key press to the button that carries it (never while typing). */
export function keyHandler(root) {
  return (e) => {
    const tag = (e.target && e.target.tagName) || "";
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if ((tag === "INPUT" && e.target.type !== "checkbox" && e.target.type !== "range") || tag === "TEXTAREA" || tag === "SELECT") return;
    const key = e.key.toLowerCase();
    const button = root.querySelector(`.actionbar [data-key="${CSS.escape(key)}"]`);
    if (button && !button.disabled) {
      e.preventDefault();
      button.click();
    }
  };
}
