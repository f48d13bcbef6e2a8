// The account page: balances (play and real), sanctions, disconnect all-ins left, and
// the player's own new password.

import { get, post, offers, refusal, setCsrf } from "./api.js";
import { h, fill, chips } from "./dom.js";
import { untilWords } from "./moderation.js";

/** The next midnight UTC on the player's clock: the disconnect all-ins are counted per
 *  UTC day (docs/api.md), so "today" alone read as the player's own day. */
const utcMidnight = () => {
  const now = new Date();
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  return next.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });
};

/** A labelled box of the password form. */
function box(label, input, hint) {
  const id = `f-${input.name}`;
  input.id = id;
  if (hint) input.setAttribute("aria-describedby", `${id}-hint`);
  return h("div.field", h("label", { for: id, text: label }), input,
    hint ? h("small", { id: `${id}-hint`, text: hint }) : null);
}

/** Change one's password (POST /api/password): every other session of the account is
 *  logged out by the server; this page goes on under the new session it answers. */
function passwordForm() {
  const current = h("input", { name: "current-password", type: "password", autocomplete: "current-password", required: true });
  const fresh = h("input", { name: "new-password", type: "password", autocomplete: "new-password", required: true });
  const message = h("p.message", { role: "status", id: "password-message" });
  const submit = h("button", { type: "submit", text: "Change password" });
  const form = h("form.password", { "aria-labelledby": "password-title" },
    h("h2", { id: "password-title", text: "Password" }),
    box("Current password", current),
    box("New password", fresh, "At least 8 characters. Every other place you are logged in is logged out."),
    message, submit);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    message.className = "message";
    if (fresh.value.length < 8) {
      message.textContent = "Your new password must be at least 8 characters.";
      message.classList.add("error");
      return;
    }
    submit.disabled = true;
    try {
      const r = await post("/api/password", { password: current.value, new_password: fresh.value });
      if (r.status === 200 && r.body) {
        setCsrf(r.body.csrf); // the new session's (its cookie is set by the answer)
        current.value = fresh.value = "";
        message.textContent = "Your password is changed. Every other session has been logged out.";
      } else {
        message.textContent = r.status === 403 && r.body && r.body.code === "wrong_password"
          ? "That is not your current password." : refusal(r.status, r.body);
        message.classList.add("error");
      }
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

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
  let list = balanceList(me.balances);
  app.append(
    h("section", h("h2", { text: "Balances" }), list),
    h("section", h("h2", { text: "Sanctions" }),
      (me.sanctions || []).length ? h("ul", me.sanctions.map((s) => h("li", { text: `${s.kind}: ${s.reason || ""} ${untilWords(s.ends_at)}` })))
        : h("p", { text: "None." })),
    me.disconnect_all_ins ? h("p#allins", { text: `Disconnect all-ins left today: ${me.disconnect_all_ins.left_today} of ${me.disconnect_all_ins.per_day} (a UTC day: back at ${utcMidnight()} your time)` }) : null,
    h("p.message", { role: "status", id: "topup-message" }),
    h("button", { type: "button", text: "Top up play money", onclick: async () => {
      const t = await post("/api/topup", {});
      const msg = document.getElementById("topup-message");
      if (t.status === 200) { await accountScreen(app, ctx); document.getElementById("topup-message").textContent = `Added ${chips(t.body.added)} play chips.`; }
      else if (msg) msg.textContent = t.body && t.body.message ? t.body.message : `Top-up refused (${t.status}).`;
    } }),
    (await offers("/api/password")) ? passwordForm() : "");
  // Buy-ins, cash-outs and top-ups in the player's other tabs move the balances: a tab
  // shown or focused again reads them again (they were those of when it was opened).
  const again = async () => {
    if (!list.isConnected) return stop(); // another screen, or this one drawn anew
    if (document.hidden) return;
    const fresh = await get("/api/me");
    if (fresh.status === 200 && fresh.body && list.isConnected) list.replaceWith(list = balanceList(fresh.body.balances));
  };
  const stop = () => {
    document.removeEventListener("visibilitychange", again);
    window.removeEventListener("focus", again);
  };
  document.addEventListener("visibilitychange", again);
  window.addEventListener("focus", again);
  return stop;
}

/** The balances, by currency ("Play money 10,000"). */
function balanceList(balances) {
  return h("dl.balances", Object.entries(balances || {}).map(([cur, amount]) => [h("dt", { text: cur === "real" ? "Real money" : cur === "play" ? "Play money" : cur }), h("dd", { text: chips(amount) })]));
}
