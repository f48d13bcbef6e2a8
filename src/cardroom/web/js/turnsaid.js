// Our turn said once, in words, in the table's `#said` region: the action area is no
// live region. It is drawn again at every snapshot (Chinese poker's placement bar),
// every card picked to discard or to place and every raise typed, and a screen reader
// read the whole bar out each time (four or five times a street at Chinese poker).

import { chips } from "./dom.js";
import { cardName } from "./cards.js";
import { say, sayNewLines } from "./tablelog.js";

/** What is to be decided, once per turn: the pot and the choices of the bar ("Your
 *  turn. Pot 12. Fold, Call 4, Raise to (8–40)."), or the cards to place ("Your turn:
 *  place 5 cards: Two of clubs, ..."). `asked`: a Chinese poker placement, else null. */
export function turnWords(t, bar, asked) {
  if (asked) {
    const what = asked.discard ? `place ${asked.place} and discard ${asked.discard}` : `place ${asked.place} card${asked.place === 1 ? "" : "s"}`;
    return `Your turn: ${what}: ${asked.cards.map(cardName).join(", ")}.`;
  }
  const hand = t.view.hand;
  const pot = hand.pots.reduce((a, p) => a + p.amount, 0) + hand.seats.reduce((a, s) => a + (s ? s.bet : 0), 0);
  const ranged = bar.querySelector("label[for=raise-amount]"); // it names the range
  const parts = [...bar.querySelectorAll(".hint, .act, label[for=raise-amount]")]
    .filter((el) => !(ranged && el.matches(".act.raise")))
    .map((el) => el.textContent.trim().replace(/\.$/, ""));
  return `Your turn. Pot ${chips(pot)}. ${parts.join(", ")}.`;
}

/** Say our turn when a new one comes (the bar `bar` shown for the decision `key`, a
 *  turn's legal actions or cards to place); nothing while it is only drawn again. The
 *  decision's figures only: the turn message's and the next snapshot's legal actions
 *  are one decision, and the bar goes between two turns anyway. */
export function sayTurn(t, region, bar, key, asked = null) {
  const k = key && !Array.isArray(key) ? [key.actions, key.call, key.min_raise_to, key.max_raise_to, key.raise_sizes, key.draw, key.bring_in] : key;
  const now = bar ? JSON.stringify(k) : null;
  if (now === t.turnSaid) return;
  t.turnSaid = now;
  if (!now) return;
  sayNewLines(t, region); // the move that brought the turn first
  say(region, turnWords(t, bar, asked));
}
