// Small helpers to build DOM nodes without innerHTML (no markup injection from chat
// lines or aliases).

/** h("div#id.cls", {attr: v, onclick: fn, style: {left: "5%"}}, child, "text", ...) */
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
    // Style as an object of properties, set through the CSSOM: a style attribute is
    // inline style, which the room's Content-Security-Policy refuses (docs/web.md).
    else if (k === "style") for (const [p, x] of Object.entries(v)) el.style.setProperty(p, String(x));
    // A box's value as built is its default: what the player types differs from it,
    // and only that is kept when the box is drawn again (table.js, typedValues).
    else if (k === "value" && "defaultValue" in el) el.defaultValue = String(v);
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

// What names a control across redraws: two elements with the same tag and these
// attributes are the same control, so the one on the page is kept (its other
// attributes and its text brought up to date) and a click or the keyboard focus on
// it survives the redraw.
const IDENTITY = ["id", "role", "type", "href", "aria-label", "data-key", "data-seat", "data-card", "data-table"];

function sameControl(a, b) {
  if (a.nodeType !== b.nodeType) return false;
  if (a.nodeType !== Node.ELEMENT_NODE) return true;
  return a.tagName === b.tagName && IDENTITY.every((k) => a.getAttribute(k) === b.getAttribute(k));
}

function syncAttributes(old, fresh) {
  for (const { name } of [...old.attributes]) if (!fresh.hasAttribute(name)) old.removeAttribute(name);
  for (const { name, value } of fresh.attributes) {
    if (old.getAttribute(name) === value) continue;
    if (name === "style") old.style.cssText = fresh.style.cssText; // the CSSOM, as in h()
    else old.setAttribute(name, value);
  }
}

/** Make the children of `el` look like `children`, touching only what differs.
 *
 *  Only for regions whose listeners follow from a control's identity attributes
 *  (a kept button keeps its listener: "Sit here: seat 3" sits at seat 3 whichever
 *  build made it), such as the felt and the lobby's rows. Returns whether anything
 *  changed. */
export function patch(el, ...children) {
  const fresh = children.flat(Infinity).filter(Boolean);
  let changed = false;
  fresh.forEach((node, i) => {
    const old = el.childNodes[i];
    if (!old) { el.append(node); changed = true; } else if (!sameControl(old, node)) {
      el.replaceChild(node, old);
      changed = true;
    } else if (old.nodeType === Node.ELEMENT_NODE) {
      if (old.outerHTML === node.outerHTML) return;
      syncAttributes(old, node);
      patch(old, ...node.childNodes);
      changed = true;
    } else if (old.nodeValue !== node.nodeValue) {
      old.nodeValue = node.nodeValue;
      changed = true;
    }
  });
  while (el.childNodes.length > fresh.length) { el.lastChild.remove(); changed = true; }
  return changed;
}
