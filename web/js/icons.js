// The top bar's icons, drawn as SVG (an emoji bell showed as an empty box on a system without
// an emoji font), and each button's short visible label beside its icon.
const SVG = "http://www.w3.org/2000/svg";

// 24 x 24 outlines, stroked in the text's colour.
const SHAPES = {
  // A card moving, with speed lines: the animation of moves.
  motion: [["rect", { x: "9", y: "4", width: "11", height: "15", rx: "2" }], ["path", { d: "M2 8h4M1 12h5M2 16h4" }]],
  // A note: the sound cues.
  sound: [["path", { d: "M9 18V5l11-2v13" }], ["circle", { cx: "6.5", cy: "18", r: "2.5" }], ["circle", { cx: "17.5", cy: "16", r: "2.5" }]],
  // A bell: the browser's notification of your turn.
  bell: [["path", { d: "M6 16v-5a6 6 0 0 1 12 0v5l2 2H4z" }], ["path", { d: "M10 20.5a2 2 0 0 0 4 0" }]],
};

/** An icon as an SVG element, hidden from screen readers (its button's text names it). */
export function icon(name) {
  const svg = document.createElementNS(SVG, "svg");
  for (const [k, v] of Object.entries({ viewBox: "0 0 24 24", width: "22", height: "22", fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round", "stroke-linejoin": "round", "aria-hidden": "true", focusable: "false", class: "icon" })) svg.setAttribute(k, v);
  for (const [tag, attrs] of SHAPES[name] || []) {
    const part = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) part.setAttribute(k, v);
    svg.append(part);
  }
  return svg;
}

/** Fill a top-bar button with its icon and its label (visible on a wide screen; on a phone
 * the icon alone shows, and the label still names the button). */
export function iconButton(button, name, label) {
  if (button.dataset.icon === name && button.dataset.label === label) return;
  const text = document.createElement("span");
  text.className = "icon-label";
  text.textContent = label;
  button.replaceChildren(icon(name), text);
  button.removeAttribute("aria-label");
  button.dataset.icon = name;
  button.dataset.label = label;
}
