// The seat a waiting list offers us (RULEBOOK §10.3), said wherever the page is: in the
// lobby, or at another table's page (a player seated at one table waits at another).
// The seat is held for a short while only, so it is said where the player looks.

import { get } from "./api.js";
import { h, fill } from "./dom.js";

/** Say in `note`, with a link to take it, each seat offered to us at a table other
 *  than `except` (the table page says its own). A table watched again (a reload, a
 *  reconnection) says a seat already offered in its snapshot: the SeatOffered went by
 *  before. Returns the listener's removal. */
export function sayOffers(ctx, note, except = null) {
  const me = ctx.hello && ctx.hello.player;
  let told = null; // the table whose seat the note says
  const tell = (table, seat) => {
    told = table;
    fill(note, `A seat is free at ${table}: seat ${seat + 1} is held for you. `,
      h("a.button", { href: `#/table/${encodeURIComponent(table)}`, text: `Take seat ${seat + 1}` }));
  };
  // The seat taken, declined or lapsed: the note no longer invites to it (a lapse is said).
  const gone = (table, reason) => {
    told = null;
    fill(note, reason === "offer_expired" ? `The seat held for you at ${table} was passed on: the time to take it ran out.` : "");
  };
  return ctx.conn.listen((m) => {
    if (m.table === except) return;
    if (m.type === "snapshot" && m.view && m.view.offer) tell(m.table, m.view.offer.seat);
    else if (m.type === "snapshot" && m.table === told) gone(m.table, ""); // gone meanwhile
    if (m.type !== "events") return;
    for (const { event: e } of m.events) {
      if (e.type === "SeatOffered" && e.player === me) tell(m.table, e.seat);
      const ours = e.player === me && m.table === told;
      if (ours && e.type === "WaitlistLeft") gone(m.table, e.reason);
      else if (ours && e.type === "PlayerSeated") gone(m.table, "seated");
    }
  });
}

/** Watch the tables of `rows` (the lobby's) whose waiting list we are on (the server's
 *  `your_place`: joined before a reload, or in another tab), to be told of the seat
 *  offered; without `rows`, the lobby is read for them. */
export async function watchOurLists(ctx, rows = null) {
  if (rows === null) {
    const r = await get("/api/tables").catch(() => null);
    rows = (r && r.status === 200 && r.body && r.body.tables) || [];
  }
  for (const row of rows) {
    if (row.your_place && !ctx.conn.watching.has(row.table_id)) ctx.conn.watch(row.table_id);
  }
}
