// The client's entry point: the connection, the session and the hash router.

import { Connection } from "./ws.js";
import { setupDeckOption } from "./cards.js";
import { h, fill } from "./dom.js";
import { authScreen, logout } from "./auth.js";
import { lobbyScreen } from "./lobby.js";
import { tableScreen } from "./table.js";
import { rulesScreen } from "./rules.js";
import { historyScreen } from "./history.js";
import { accountScreen } from "./account.js";
import { get, offers, setCsrf } from "./api.js";

const app = document.getElementById("app");
const banner = document.getElementById("banner");
const who = document.getElementById("who");

export const ctx = { conn: new Connection(), hello: null, cleanup: null };
window.cardroom = ctx; // for the browser tests' network-failure hook

function showState(state) {
  if (state === "reconnecting") {
    banner.textContent = "Connection lost — reconnecting…";
    banner.hidden = false;
  } else if (state === "unauthorized" && ctx.hello) {
    // The session ended while we were connected (expired, or logged out elsewhere).
    ctx.hello = null;
    ctx.conn.watching.clear();
    renderWho();
    fill(banner, "Your session has ended. ", h("a", { href: "#/login/login", text: "Log in again" }), " to go on playing.");
    banner.hidden = false;
  } else if (state === "banned" && ctx.hello) {
    // The operator banned the account: its sessions ended with the ban. The log-in
    // screen says until when and why (the login's refusal, account_banned).
    ctx.hello = null;
    ctx.conn.watching.clear();
    renderWho();
    fill(banner, "Your account has been banned, and your seats given up. ",
      h("a", { href: "#/login/login", text: "Log in" }), " to see until when and why.");
    banner.hidden = false;
  } else if (state === "open" && ctx.conn.outdated) {
    // A deploy under the page: it goes on with the old client, which may not show
    // everything the new server does; a reload takes the new one (the seat stays).
    fill(banner, "cardroom has been updated. ",
      h("button.link", { type: "button", onclick: () => location.reload() }, "Reload the page"),
      " to use the new version; your seat and chips stay as they are.");
    banner.hidden = false;
  } else if (state === "open") {
    banner.hidden = true;
    banner.textContent = "";
  }
}
ctx.conn.listenState(showState);

function renderWho() {
  fill(who);
  if (!ctx.hello) return;
  who.append(
    h("span", { text: `Signed in as ${ctx.hello.alias}` }),
    " ",
    h("button.link", { type: "button", onclick: () => logout(ctx) }, "Log out"),
  );
}

/** Connect with the session cookie; true when the server knows us. */
export async function connect() {
  const hello = await ctx.conn.open();
  ctx.hello = hello;
  if (hello && (await offers("/api/me"))) {
    // After a reload the CSRF token is read again (the cookie session is still valid).
    const me = await get("/api/me");
    if (me.status === 200 && me.body) setCsrf(me.body.csrf);
  }
  renderWho();
  return hello !== null;
}

const routes = {
  login: (arg) => authScreen(app, ctx, arg || "login"),
  lobby: () => lobbyScreen(app, ctx),
  table: (arg) => tableScreen(app, ctx, arg),
  rules: (arg) => rulesScreen(app, arg),
  history: (arg) => historyScreen(app, ctx, arg),
  account: () => accountScreen(app, ctx),
};
const PUBLIC = new Set(["login", "rules"]);

/** A part of the hash with its escapes read ("%20": a space); one that is no valid escape
 *  ("100%", "%E0%A4%A", where decodeURIComponent throws) is kept as written. */
function unescaped(part) {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

async function route() {
  if (ctx.cleanup) {
    ctx.cleanup();
    ctx.cleanup = null;
  }
  const [name, ...rest] = location.hash.replace(/^#\/?/, "").split("/");
  // The router's own screens only: `routes[name]` found what every object has too, and a
  // link to `#/constructor` called Object, its answer kept as the screen's cleanup (not
  // a function: no screen could be left again until a reload).
  const screen = Object.hasOwn(routes, name) ? name : ctx.hello ? "lobby" : "login";
  if (!PUBLIC.has(screen) && !ctx.hello) {
    location.hash = "#/login";
    return;
  }
  const arg = rest.map(unescaped).join("/");
  ctx.cleanup = (await routes[screen](arg)) || null;
  for (const a of document.querySelectorAll("header nav a")) {
    a.toggleAttribute("aria-current", a.getAttribute("href") === `#/${screen}`);
  }
}

async function start() {
  setupDeckOption(document.getElementById("four-colour"));
  app.append(h("p", { text: "Connecting…" }));
  await connect();
  window.addEventListener("hashchange", route);
  await route();
}

start();
