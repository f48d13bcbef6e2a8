// A table that stopped under the page (the server's `table_closed`): said plainly, with
// the way back to the lobby.

import { h, fill, chips } from "./dom.js";

/** What the player is told, by the message's `reason`. */
const CLOSED_WORDS = {
  closed_by_operator: "This table has closed.",
  server_stopping: "The server is stopping. When it is back, a hand in progress is cancelled and the chips on the table go back to the players' accounts; this page reconnects by itself.",
};

/** The chips our seat took back when the table closed, in words ("" when not seated). */
function chipsBack(t) {
  const e = t.leftEvent;
  if (!e) return "";
  return e.cashed_out ? ` Your ${chips(e.cashed_out)} chips are back in your account.` : " You had no chips left on the table.";
}

/** Tell the player the table `t` stopped (`msg`: the `table_closed` message). Closed for
 *  good, the page stops asking for the table and takes away the felt and its controls
 *  (the seat went with it); a server that stops comes back, and the page with it. */
export function tableClosed(t, msg) {
  const gone = msg.reason !== "server_stopping";
  const words = (CLOSED_WORDS[msg.reason] || CLOSED_WORDS.closed_by_operator) + (gone ? chipsBack(t) : "");
  t.regions.notice.classList.remove("error");
  fill(t.regions.notice, `${words} `, h("a", { href: "#/lobby", text: "Back to the lobby" }));
  if (!gone) return;
  t.leave(); // no snapshot is asked of a table that is no more
  t.gone = true; // nor is it drawn again (an answer still on its way redraws)
  // What one could do at the table goes with it; its log and last hands stay to read.
  for (const region of ["felt", "actions", "controls", "chat", "report"]) fill(t.regions[region]);
}
