// Cards drawn in CSS: rank and suit glyph, a readable name for screen readers.
// The four-colour deck (diamonds blue, clubs green) is a class on <body>.

const RANKS = {
  A: "Ace", K: "King", Q: "Queen", J: "Jack", T: "Ten", 9: "Nine", 8: "Eight",
  7: "Seven", 6: "Six", 5: "Five", 4: "Four", 3: "Three", 2: "Two",
};
const SUITS = { s: ["♠", "spades"], h: ["♥", "hearts"], d: ["♦", "diamonds"], c: ["♣", "clubs"] };

/** "Ah" -> "Ace of hearts". */
export function cardName(text) {
  const rank = RANKS[text[0]] || text[0];
  const suit = SUITS[text[1]] ? SUITS[text[1]][1] : text[1];
  return `${rank} of ${suit}`;
}

/** Cards in a log line, kept as their codes until the line is drawn (`cardWords`): the log
 *  shows "Ah Kd", the live region says "Ace of hearts, King of diamonds" (a screen
 *  reader read "Board: 5c 4s 6s." letter by letter). `ups` marks the face-up ones of a
 *  stud deal, said as such when some of the cards are down. */
export function cardsLater(cards, ups = null) {
  return `\u0003${cards.map((c, i) => `${c}${ups && ups[i] ? "^" : ""}`).join(" ")}\u0004`;
}

/** "<seat> is dealt <cards>." for the cards this page may see (null: another seat's
 *  hidden card), or null when it sees none of them. */
export function dealtLine(who, cards, ups) {
  const seen = (cards || []).map((c, i) => [c, ups ? ups[i] : false]).filter(([c]) => c);
  if (!seen.length) return null;
  const mixed = seen.some(([, up]) => up) && seen.some(([, up]) => !up);
  return `${who} is dealt ${cardsLater(seen.map(([c]) => c), mixed ? seen.map(([, up]) => up) : null)}.`;
}

/** `line` with its cards (`cardsLater`) as codes to show ("Ah Kd"), or by name to say
 *  (`spoken`: "Ace of hearts, King of diamonds", a face-up one of a stud deal "Eight of
 *  clubs face up"). */
export function cardWords(line, spoken = false) {
  return line.replace(/\u0003([^\u0004]*)\u0004/g, (_, cards) => cards.split(" ").map((c) => {
    const code = c.replace("^", "");
    return spoken ? `${cardName(code)}${c.endsWith("^") ? " face up" : ""}` : code;
  }).join(spoken ? ", " : " "));
}

/** A button's name for acting on a card: its visible text first (what a voice user
 *  says: "label in name", WCAG 2.5.3), then its name ("Pick A♥, Ace of hearts"). */
export function cardAction(verb, text) {
  return `${verb} ${card(text).textContent}, ${cardName(text)}`;
}

/** One card element: a face, or a back when `text` is null. */
export function card(text, opts = {}) {
  const el = document.createElement("span");
  el.setAttribute("role", "img");
  if (!text) {
    el.className = "card back";
    el.setAttribute("aria-label", "face-down card");
    return el;
  }
  const suit = text[1];
  el.className = `card face suit-${suit}${opts.up ? " up" : ""}${opts.selected ? " selected" : ""}`;
  el.dataset.card = text;
  el.setAttribute("aria-label", cardName(text) + (opts.up ? ", face up" : ""));
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = text[0] === "T" ? "10" : text[0];
  const glyph = document.createElement("span");
  glyph.className = "suit";
  glyph.textContent = SUITS[suit] ? SUITS[suit][0] : suit;
  el.append(rank, glyph);
  return el;
}

/** A row of cards; `ups` marks face-up cards (stud). */
export function cardRow(cards, ups, label) {
  const row = document.createElement("span");
  row.className = "cards";
  if (label) {
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", label);
  }
  (cards || []).forEach((c, i) => row.append(card(c, { up: ups ? ups[i] : false })));
  return row;
}

/** Apply the saved four-colour choice and keep it in step with the checkbox. */
export function setupDeckOption(box) {
  const on = localStorage.getItem("fourColour") === "1";
  box.checked = on;
  document.body.classList.toggle("four-colour", on);
  box.addEventListener("change", () => {
    localStorage.setItem("fourColour", box.checked ? "1" : "0");
    document.body.classList.toggle("four-colour", box.checked);
  });
}
