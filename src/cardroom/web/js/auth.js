// Register and log in (the alias rules, the 18+ confirmation, every refusal said).

import { post, refusal, setCsrf } from "./api.js";
import { h, fill } from "./dom.js";
import { connect } from "./app.js";
import { forgetHands } from "./handstore.js";

const ALIAS = /^[A-Za-z0-9_-]{3,16}$/;

/** What is wrong with a registration before asking the server (the server checks too). */
export function registrationProblem(alias, password, adult) {
  if (alias.length < 3 || alias.length > 16) return "Your alias must be 3 to 16 characters.";
  if (!ALIAS.test(alias)) return "Your alias may use only letters a-z A-Z, digits 0-9, '-' and '_'.";
  if (password.length < 8) return "Your password must be at least 8 characters.";
  if (!adult) return "You must confirm that you are 18 or older (or of legal age where you live).";
  return null;
}

function field(label, input, hint) {
  const id = `f-${input.name}`;
  input.id = id;
  return h("div.field", h("label", { for: id, text: label }), input,
    hint ? h("small", { id: `${id}-hint`, text: hint }) : null);
}

/** The log-in / register screen; `mode` is "login" or "register". */
export function authScreen(app, ctx, mode) {
  if (ctx.hello) {
    location.hash = "#/lobby";
    return null;
  }
  const registering = mode === "register";
  const alias = h("input", { name: "alias", autocomplete: "username", required: true, maxLength: 16 });
  const password = h("input", {
    name: "password", type: "password", required: true,
    autocomplete: registering ? "new-password" : "current-password",
  });
  const adult = h("input", { type: "checkbox", name: "adult", id: "f-adult" });
  const message = h("p.message", { role: "alert", id: "auth-message" });
  const submit = h("button.primary", { type: "submit", text: registering ? "Create account" : "Log in" });
  const form = h("form.auth", { "aria-labelledby": "auth-title" },
    h("h1", { id: "auth-title", text: registering ? "Create an account" : "Log in" }),
    field("Alias", alias, registering ? "3 to 16 letters, digits, '-' or '_'. It cannot be changed later." : null),
    field("Password", password, registering ? "At least 8 characters." : null),
    registering ? h("div.field.check", adult, h("label", { for: "f-adult", text: "I am 18 or older (or of legal age where I live)" })) : null,
    message,
    submit,
    h("p", registering
      ? h("a", { href: "#/login/login", text: "I already have an account: log in" })
      : h("a", { href: "#/login/register", text: "New here? Create an account" })),
  );
  if (registering) alias.setAttribute("aria-describedby", "f-alias-hint");
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    message.textContent = "";
    message.className = "message";
    if (registering) {
      const problem = registrationProblem(alias.value, password.value, adult.checked);
      if (problem) { message.textContent = problem; message.classList.add("error"); return; }
    }
    submit.disabled = true;
    try {
      if (registering) {
        const r = await post("/api/register", {
          alias: alias.value, password: password.value, age_confirmed: adult.checked,
        });
        if (r.status !== 201) throw new Error(refusal(r.status, r.body));
      }
      const r = await post("/api/login", { alias: alias.value, password: password.value });
      if (r.status !== 200) throw new Error(refusal(r.status, r.body));
      setCsrf(r.body.csrf);
      if (!(await connect())) throw new Error("Logged in, but the table connection was refused.");
      location.hash = "#/lobby";
    } catch (err) {
      message.textContent = err.message;
      message.classList.add("error");
    } finally {
      submit.disabled = false;
    }
  });
  fill(app, form);
  alias.focus();
  return null;
}

/** Log out: revoke the session, close the connection, back to the log-in screen. */
export async function logout(ctx) {
  if (ctx.hello) forgetHands(ctx.hello.alias); // our hole cards go with us, not stay behind
  await post("/api/logout", {});
  setCsrf("");
  ctx.conn.close();
  ctx.conn.watching.clear();
  ctx.hello = null;
  document.getElementById("who").replaceChildren();
  location.hash = "#/login";
}
