// The card order a player made (drag, sort, shift) for one room, seat and hand, kept in
// localStorage so a reload deals the hand back the way its owner arranged it.
const key = (room, seat, hand) => `rummy.order.${room}.${seat}.${hand}`;

export function loadOrder(room, seat, hand) {
  try {
    const codes = JSON.parse(localStorage.getItem(key(room, seat, hand)) || "null");
    return Array.isArray(codes) ? codes.filter((c) => typeof c === "string") : null;
  } catch {
    return null;
  }
}

export function saveOrder(room, seat, hand, codes) {
  try {
    // Only one hand per room and seat is worth keeping: the previous one is over.
    localStorage.removeItem(key(room, seat, hand - 1));
    localStorage.setItem(key(room, seat, hand), JSON.stringify(codes));
  } catch {
    /* storage full or blocked: the order lives until the reload */
  }
}
