// The full rules of each variant, in English: a list of [heading, paragraphs].
export default {
  classic: [
    ["Cards", ["Two players get 10 cards each from a 52-card deck without jokers. One card face up starts the discard pile; the rest is the stock."]],
    ["Melds", ["A set is 3 or 4 cards of one rank. A run is 3 or more consecutive cards of one suit. The ace is low: A-2-3 is a run, Q-K-A is not, nothing wraps."]],
    ["Your turn", ["Draw one card: the top of the stock or the top discard.", "Then meld as many melds as you like (press \"Meld\") and lay off onto any meld, your opponent's too, even before your own first meld. Cards on the table are never rearranged.", "End by discarding one card. The card you just took from the discard pile may not go straight back; you may meld it or lay it off."]],
    ["Going out and points", ["The hand ends the moment a player has no cards left, by melding, laying off or discarding. The winner scores the value of all cards the opponent still holds, complete melds included: ace 1, J/Q/K 10, others their number. No knock, gin or doubling bonus.", "Scores carry over; the first player at 100 or more after a hand wins the match. The dealer alternates."]],
    ["Empty stock", ["If the stock is empty when you draw, the discards under the top card are shuffled into a new stock. If that top card is all that is left, you take it. If nothing is left, the hand is a draw. After 200 completed turns the hand is a draw with no points."]],
    ["Tips", ["Before discarding, look at both ends of the runs on the table. Complete melds still in your hand give your opponent points if they go out first: lay them down in time."]],
    ["Playing together", ["\"Next hand\" deals again and keeps the score; \"Restart the match\" starts it again at 0-0. Online both players must agree. On one device a screen to pass the device appears before each hand is revealed."]],
  ],
  basic: [
    ["Cards", ["2 to 4 players, one 52-card deck without jokers. 10 cards each with 2 players, 7 with 3 or 4. One card face up starts the discard pile."]],
    ["Melds", ["Sets of 3 or 4 of a rank and runs of 3 or more consecutive cards of a suit. The ace is low."]],
    ["Your turn", ["Draw from the stock or the discard pile, meld and lay off anywhere (even before your first meld), and discard one card. A discard you just took may not go straight back."]],
    ["Going out", ["Go out by melding or laying off every card, or by discarding your last card. The winner scores the value of everyone else's cards: ace 1, faces 10, others their number.", "Going rummy: a player who had not melded or laid off this hand and gets rid of the whole hand in one turn scores double."]],
    ["Stock runs out", ["The first time the stock runs out, the whole discard pile is shuffled into a new stock. The second time the hand ends in a stalemate with no points. It is also a stalemate when nobody can empty their hand any more."]],
    ["Match", ["Target: 100 points with 2 players, 150 with 3, 200 with 4."]],
  ],
  rummy51: [
    ["Cards", ["2 to 4 players, two 52-card decks plus 2 jokers (106 cards), 13 cards each. One card face up starts the discard pile."]],
    ["Melds", ["A set is 3 or 4 cards of one rank, all suits different. A run is 3 or more consecutive cards of a suit; the ace is low (A-2-3) or high (Q-K-A) but never wraps (K-A-2). A joker replaces any card; every meld holds at least one natural card."]],
    ["Opening with 51", ["Your first meld move must total at least 51 points; several melds may count together. Values: 2-10 their number, J/Q/K/A 10, a joker the card it stands for. Before opening you may not lay off or swap a joker."]],
    ["Building and jokers", ["After opening, lay off onto any meld. Holding the natural card a joker in a run stands for, you may swap it in and take the joker. A 3-card set with a joker frees the joker when you lay off both missing suits. A freed joker must be played again in the same turn."]],
    ["Going out", ["You must go out with a discard. Going rummy: a player who had not melded before melds all cards but one in a single turn (without laying off) and discards the last; no 51 needed, and everyone else gets 25 extra penalty points."]],
    ["Penalty points", ["Everyone who did not go out adds the value of their cards: 2-10 their number, faces 10, ace 11, joker 25. After the hand in which someone reaches the limit chosen for the room (101, 201 or 301) or more, the match ends; the lowest total wins."]],
  ],
};
