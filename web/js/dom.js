// A tiny element builder. Text always goes in as text nodes, never as HTML.

/**
 * h("button", {class: "x", data: {action: "draw"}, onclick: null}, "Trek")
 * Attributes: `class`, `data` (dataset), `text`, boolean true -> present, false/null -> absent.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = Array.isArray(v) ? v.filter(Boolean).join(" ") : v;
    else if (k === "data") for (const [dk, dv] of Object.entries(v)) { if (dv !== undefined && dv !== null) el.dataset[dk] = dv; }
    else if (k === "text") el.textContent = v;
    else if (k === "value") el.value = v;
    // Through the CSSOM: the page's CSP allows no inline style attribute (app/static.py).
    else if (k === "style") el.style.cssText = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.append(c);
    else el.append(document.createTextNode(String(c)));
  }
}

/** One listener on `root` for every `selector` inside it (STYLE.md: delegated hooks). */
export function delegate(root, type, selector, handler) {
  root.addEventListener(type, (ev) => {
    const target = ev.target instanceof Element ? ev.target.closest(selector) : null;
    if (target && root.contains(target)) handler(ev, target);
  });
}
