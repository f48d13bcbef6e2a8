// The account page: balances (play and real), sanctions, disconnect all-ins left.

import { get, post, offers } from "./api.js";
import { h, fill, chips } from "./dom.js";

/** The next midnight UTC on the player's clock: the disconnect all-ins are counted per
 *  UTC day (docs/api.md), so "today" alone read as the player's own day. */
const utcMidnight = () => {
  const now = new Date();
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  return next.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });
};

/** The account screen (reads /api/me when the server has it). */
export async function accountScreen(app, ctx) {
  fill(app, h("h1", { text: "Account" }), h("p", { text: `Alias: ${ctx.hello.alias}` }));
  if (!(await offers("/api/me"))) {
    app.append(h("p.message", { role: "status", text: "Balances are not offered by this server yet." }));
    return null;
  }
  const r = await get("/api/me");
  if (r.status !== 200 || !r.body) {
    app.append(h("p.message", { role: "status", text: r.status === 404 ? "Balances are not offered by this server yet." : `The account could not be read (${r.status}).` }));
    return null;
  }
  const me = r.body;
  const balances = me.balances || {};
  app.append(
    h("section", h("h2", { text: "Balances" }),
      h("dl.balances", Object.entries(balances).map(([cur, amount]) => [h("dt", { text: cur === "real" ? "Real money" : cur === "play" ? "Play money" : cur }), h("dd", { text: chips(amount) })]))),
    h("section", h("h2", { text: "Sanctions" }),
      (me.sanctions || []).length ? h("ul", me.sanctions.map((s) => h("li", { text: `${s.kind}: ${s.reason || ""} ${s.ends_at ? `until ${s.ends_at}` : "until lifted"}` })))
        : h("p", { text: "None." })),
    me.disconnect_all_ins ? h("p#allins", { text: `Disconnect all-ins left today: ${me.disconnect_all_ins.left_today} of ${me.disconnect_all_ins.per_day} (a UTC day: back at ${utcMidnight()} your time)` }) : null,
    h("p.message", { role: "status", id: "topup-message" }),
    h("button", { type: "button", text: "Top up play money", onclick: async () => {
      const t = await post("/api/topup", {});
      const msg = document.getElementById("topup-message");
      if (t.status === 200) { await accountScreen(app, ctx); document.getElementById("topup-message").textContent = `Added ${chips(t.body.added)} play chips.`; }
      else if (msg) msg.textContent = t.body && t.body.message ? t.body.message : `Top-up refused (${t.status}).`;
    } }));
  return null;
}
