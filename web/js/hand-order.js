// The card order a player made (drag, sort, shift) for one room, seat and hand, kept in
// localStorage so a reload deals the hand back the way its owner arranged it.
import { drop, keep, load } from "./storage.js";

const key = (room, seat, hand) => `rummy.order.${room}.${seat}.${hand}`;

export function loadOrder(room, seat, hand) {
  const codes = load(key(room, seat, hand));
  return Array.isArray(codes) ? codes.filter((c) => typeof c === "string") : null;
}

export function saveOrder(room, seat, hand, codes) {
  // Only one hand per room and seat is worth keeping: the previous one is over.
  drop(key(room, seat, hand - 1));
  keep(key(room, seat, hand), codes);
}
