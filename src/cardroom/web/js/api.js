// The HTTP API: JSON in and out, the session cookie sent along (same origin).

import { bannedLogin } from "./sanctions.js";

let csrf = "";

/** Keep the session's CSRF token (from the login answer or /api/me). */
export function setCsrf(token) { csrf = token || ""; }

/** POST JSON; resolves to {status, body} (never throws for an HTTP error). A cookie
 *  session sends its CSRF token with every state-changing request. */
export async function post(path, body) {
  const headers = { "content-type": "application/json" };
  if (csrf) headers["x-csrf-token"] = csrf;
  const res = await fetch(path, {
    method: "POST",
    headers,
    body: JSON.stringify(body ?? {}),
    credentials: "same-origin",
  });
  return { status: res.status, body: await res.json().catch(() => ({})) };
}

/** GET JSON; resolves to {status, body}. */
export async function get(path) {
  const res = await fetch(path, { credentials: "same-origin" });
  let body = null;
  if ((res.headers.get("content-type") || "").includes("json")) {
    body = await res.json().catch(() => null);
  }
  return { status: res.status, body };
}

/** Every refusal the account routes give, as a sentence a player understands. */
export function refusal(status, body) {
  const code = body && body.code; // the API's ErrorBody: {code, message}
  const message = (body && body.message) || "";
  if (status === 429 && !message) return "Too many attempts. Wait a few minutes and try again.";
  if (status === 503) return "The server is busy or starting. Try again in a moment.";
  if (code === "login_refused" && !message) return "Wrong alias or password.";
  if (code === "account_banned" && body && "until" in body) return bannedLogin(body);
  if (message) return sentence(message); // the server's words say what was too many
  return `The server refused (${status}).`;
}

/** The server's words ("too many ...: try again later") as a sentence. */
export function sentence(text) {
  const s = text.trim();
  return s.charAt(0).toUpperCase() + s.slice(1) + (/[.!?]$/.test(s) ? "" : ".");
}

let paths = null;

/** Whether the server's OpenAPI document lists `path` (so a screen never asks for an
 *  endpoint this server does not have). Path parameters are written `{name}`. */
export async function offers(path) {
  if (paths === null) {
    const r = await get("/openapi.json").catch(() => ({ status: 0, body: null }));
    paths = new Set(r.body && r.body.paths ? Object.keys(r.body.paths) : []);
  }
  return paths.has(path);
}
