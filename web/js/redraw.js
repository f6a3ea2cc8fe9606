// One redraw per frame, whatever the number of changes in it, and none under a finger: a
// click is a press and a release on one node, and a redraw replaces the nodes, so a click
// whose press came before news (a computer's move, presence) and whose release after it was
// lost. While a button is held (and no card is being dragged) the redraw waits for the
// release, up to HOLD_MS so a press that never ends cannot freeze the table.

const HOLD_MS = 1000;

/** Draw the page with `render(store)` after each of the store's changes. */
export function redrawOnChange(store, render) {
  let scheduled = false;
  let heldSince = 0; // when the press now held began; 0: none
  let holdTimer = 0; // the held redraw's timer; 0: no redraw is held

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      const heldFor = performance.now() - heldSince;
      if (heldSince && !store.dragging && heldFor < HOLD_MS) {
        // Timed from the press held now, which may be a newer one than the first deferral's.
        clearTimeout(holdTimer);
        holdTimer = setTimeout(schedule, HOLD_MS - heldFor);
        return;
      }
      clearTimeout(holdTimer);
      holdTimer = 0;
      render(store);
    });
  }

  store.addEventListener("change", schedule);
  document.addEventListener("pointerdown", () => { heldSince = performance.now(); }, true);
  const release = () => {
    heldSince = 0;
    // The next frame comes after this release's click: the click lands on the nodes it began on.
    if (holdTimer) schedule();
  };
  document.addEventListener("pointerup", release, true);
  document.addEventListener("pointercancel", release, true);
}
