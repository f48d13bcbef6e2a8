// The table's header: its name and game, the mixed game's rotation, the hand number,
// the money, the rules links and the table's own rules, terms and rake.

import { h } from "./dom.js";
import { rulesLinks } from "./families.js";
import { tableRake, tableRules, tableTerms } from "./rules.js";

/** The game the header names: the hand's; between hands (the view's `game` is then
 *  the next hand's) the one just played, until the next is dealt. */
function shownGame(v) {
  return (!v.hand && v.last_game) || v.game || {};
}

/** The rotation line. In a hand: "HORSE: now FL Hold'em (2 hands left), then FL Omaha
 *  Hi-Lo". Between hands, while the game goes on: "HORSE: now FL Hold'em (1 more hand),
 *  then ..."; when the next hand changes it: "HORSE: FL Hold'em is over; next: FL Omaha
 *  Hi-Lo (2 hands), then FL Razz". */
function rotationLine(v) {
  const n = v.hands_left;
  const then = `then ${v.next_game ? v.next_game.label : "?"}`;
  let text;
  if (v.hand) {
    text = `now ${v.game.label}${n === 1 ? " (last hand)" : n ? ` (${n} hands left)` : ""}, ${then}`;
  } else if (v.last_game && v.last_game.label === v.game.label) {
    text = `now ${v.game.label} (${n === 1 ? "1 more hand" : `${n} more hands`}), ${then}`;
  } else {
    const over = v.last_game ? `${v.last_game.label} is over; ` : "";
    text = `${over}next: ${v.game.label} (${n === 1 ? "1 hand" : `${n} hands`}), ${then}`;
  }
  return h("span", { id: "rotation", text: `${v.mixed}: ${text}` });
}

/** What the head region (itself the page grid's `.tablehead`) holds for the table whose
 *  view is `v`: the table and its game, the hand, the money, the rules links and the
 *  table's own rules, terms and rake. */
export function tableHeader(v) {
  const g = shownGame(v);
  const rules = rulesLinks(g.game, g.rules).flatMap(({ page, label }) => [" · ", h("a", { href: `#/rules/${page}`, text: label })]);
  return [
    h("h1", { text: `${v.table} · ${g.label || g.title || ""}` }),
    h("p.gameinfo",
      v.mixed ? rotationLine(v) : null,
      h("span", { text: v.hand_no ? ` Hand #${v.hand_no}` : " No hand yet" }),
      h("span", { text: ` · ${v.currency === "real" ? "Real money" : "Play money"}` }),
      ...rules),
    tableRules(g.rules) && h("p.tablerules", { text: tableRules(g.rules) }),
    tableTerms(v) && h("p.tableterms", { text: tableTerms(v) }),
    tableRake(g) && h("p.tablerake", { text: tableRake(g) }),
  ];
}

/** The page's title, what the browser's tab says: the table's name, and "Your turn"
 *  before it while a decision of ours waits (`ours`: the action or placement bar is
 *  shown). A player at several tables, a tab each, sees in the tab strip which table
 *  needs him and which tab is which: every tab said "cardroom". It follows the table's
 *  messages, which a background tab still receives at once (its timers may wait). */
export function pageTitle(v, ours) {
  return `${ours ? "Your turn · " : ""}${v.table} · cardroom`;
}
