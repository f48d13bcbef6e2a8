// Small helpers to build DOM nodes without innerHTML (no markup injection from chat
// lines or aliases).

/** h("div#id.cls", {attr: v, onclick: fn}, child, "text", ...) */
export function h(spec, attrs, ...children) {
  const [head, ...classes] = spec.split(".");
  const [tag, id] = head.split("#");
  const el = document.createElement(tag || "div");
  if (id) el.id = id;
  if (classes.length) el.className = classes.join(" ");
  if (attrs && (typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else if (k in el && typeof v !== "string") el[k] = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** Replace the children of `el`. */
export function fill(el, ...children) {
  el.replaceChildren();
  for (const c of children.flat(Infinity)) if (c) el.append(c);
  return el;
}

/** Chips as text: 1234 -> "1,234". */
export const chips = (n) => (n === null || n === undefined ? "" : Number(n).toLocaleString("en"));
