// Cards you put down, mouse and touch alike (pointer events): drag a card, or the selection
// it belongs to, onto the discard pile to discard, onto a meld (or one of its ends) to lay
// off, onto the felt to meld, or onto another card of the hand to reorder. While dragging,
// the targets the view's `legal` lists light up (render-table.js reads `store.dragging`).
// A drop anywhere else on the table is sent like a button press and the server decides: a
// move it refuses springs back, with its reason in the error toast. Taps still select.
import { renderCard } from "./cards.js";
import { t } from "./i18n.js";
import { layoffsOf, legalMeld, legalOf } from "./legal.js";

const START_PX = 8;

/** What a drop at (x, y) would do, from the element under it. */
function targetAt(x, y) {
  const el = document.elementFromPoint(x, y);
  if (!el) return null;
  const card = el.closest(".hand .card");
  if (card) return { kind: "hand", el: card };
  if (el.closest(".hand-wrap")) return { kind: "hand", el: null };
  const pile = el.closest(".pile.discard");
  if (pile) return { kind: "discard", el: pile };
  const end = el.closest(".meld .end");
  if (end) return { kind: "layoff", el: end.closest(".meld"), end: end.dataset.end };
  const meld = el.closest(".meld[data-meld]");
  if (meld) return { kind: "layoff", el: meld };
  const felt = el.closest(".melds");
  if (felt) return { kind: "meld", el: felt };
  return null;
}

/** The run end a single card goes to on `meld`: the one `legal` lists, else the nearer one. */
function endFor(legal, code, meldEl, x, given) {
  if (given) return given;
  const ends = layoffsOf(legal, code).filter((l) => l.meld === meldEl.dataset.meld).map((l) => l.end).filter(Boolean);
  if (ends.length === 1) return ends[0];
  if (ends.length > 1) {
    const box = meldEl.getBoundingClientRect();
    return x < box.left + box.width / 2 ? "low" : "high";
  }
  return null;
}

export function bindDrag(store, game) {
  let drag = null;
  let swallowClick = false;

  const ghostAt = (x, y) => {
    if (drag?.ghost) drag.ghost.style.transform = `translate(${x - drag.x}px, ${y - drag.y}px) rotate(-4deg)`;
  };
  const hover = (target) => {
    document.querySelectorAll(".drop-over, .hand .drop-target").forEach((el) => el.classList.remove("drop-over", "drop-target"));
    if (!target?.el) return;
    if (target.kind === "hand") {
      if (target.el.dataset.id !== drag.id) target.el.classList.add("drop-target");
    } else target.el.classList.add("drop-over");
  };

  function start(ev) {
    const ids = store.selected.has(drag.id) ? store.selectedIds() : [drag.id];
    drag.ids = ids;
    drag.codes = store.codesOf(ids);
    drag.active = true;
    const from = document.querySelector(`.hand .card[data-id="${CSS.escape(drag.id)}"]`);
    const box = from?.getBoundingClientRect();
    const ghost = document.createElement("div");
    ghost.className = "drag-ghost";
    if (box) ghost.style.cssText = `left:${box.left}px;top:${box.top}px;--card-w:${box.width}px;`;
    drag.codes.forEach((code) => ghost.append(renderCard(code)));
    document.getElementById("flights")?.append(ghost);
    drag.ghost = ghost;
    drag.home = box;
    store.update({ dragging: { ids: new Set(ids), codes: drag.codes } });
    ghostAt(ev.clientX, ev.clientY);
  }

  /** Back to where it came from, then gone. */
  function springBack(ghost, x, y) {
    if (!ghost) return;
    const anim = ghost.animate(
      [{ transform: `translate(${x - drag.x}px, ${y - drag.y}px)` }, { transform: "none" }],
      { duration: window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ? 0 : 260, easing: "cubic-bezier(.3,1.4,.5,1)" },
    );
    anim.finished.catch(() => {}).then(() => ghost.remove());
  }

  function drop(target, ev) {
    const { id, codes } = drag;
    const legal = legalOf(store.view);
    if (target?.kind === "hand") {
      if (!target.el || target.el.dataset.id === id) return false;
      const box = target.el.getBoundingClientRect();
      const after = ev.clientX > box.left + box.width / 2;
      const ids = store.order.map((s) => s.id).filter((x) => x !== id);
      const at = ids.indexOf(target.el.dataset.id) + (after ? 1 : 0);
      store.moveSlot(id, ids[at] ?? null);
      return true;
    }
    if (!target) return false;
    let move = null;
    if (target.kind === "discard") move = codes.length === 1 ? { type: "discard", card: codes[0] } : null;
    else if (target.kind === "layoff") {
      move = { type: "layoff", meld: target.el.dataset.meld, cards: codes };
      const end = codes.length === 1 ? endFor(legal, codes[0], target.el, ev.clientX, target.end) : target.end;
      if (end) move.end = end;
    } else if (target.kind === "meld") move = { type: "meld", melds: [legalMeld(legal, codes) || codes] };
    if (!move) {
      store.showToast(t("selectOne"));
      return false;
    }
    // Lit or not, the server decides; a refusal leaves the cards in the hand and says why.
    // The card is already where it goes: no second journey from the hand.
    game.move(move, { dropped: true });
    return target.el.classList.contains("drop-ok");
  }

  document.addEventListener("pointerdown", (ev) => {
    const card = ev.target instanceof Element ? ev.target.closest(".hand .card") : null;
    if (!card || (ev.pointerType === "mouse" && ev.button !== 0)) return;
    drag = { id: card.dataset.id, x: ev.clientX, y: ev.clientY, pointer: ev.pointerId, active: false };
  });
  document.addEventListener("pointermove", (ev) => {
    if (!drag || ev.pointerId !== drag.pointer) return;
    if (!drag.active && Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) > START_PX) start(ev);
    if (!drag.active) return;
    ev.preventDefault();
    ghostAt(ev.clientX, ev.clientY);
    hover(targetAt(ev.clientX, ev.clientY));
  });
  const finish = (ev) => {
    if (!drag || ev.pointerId !== drag.pointer) return;
    const active = drag.active;
    if (active) {
      hover(null);
      const target = ev.type === "pointercancel" ? null : targetAt(ev.clientX, ev.clientY);
      const landed = drop(target, ev);
      if (landed) drag.ghost?.animate([{ opacity: 1 }, { opacity: 0 }], { duration: 180, fill: "forwards" }).finished.then(() => drag?.ghost?.remove()).catch(() => {});
      else springBack(drag.ghost, ev.clientX, ev.clientY);
      store.update({ dragging: null });
      swallowClick = true;
      setTimeout(() => { swallowClick = false; }, 0);
    }
    drag = null;
  };
  document.addEventListener("pointerup", finish);
  document.addEventListener("pointercancel", finish);
  document.body.addEventListener("click", (ev) => {
    if (swallowClick) {
      ev.stopPropagation();
      ev.preventDefault();
      swallowClick = false;
    }
  }, true);
}
