"""A demonstration round: a shuffled 53-card deck dealt to all six seats and the dealer, as the
game requires, with sample wagers. Pure: the caller hands in the random source."""

from __future__ import annotations

import random
from typing import Any

from dealer.games.paigow.pay import BONUSES, PROGRESSIVES, Wager
from dealer.games.paigow.profile import Profile
from dealer.kernel.cards import DECK, format_cards

SAMPLE_BASE = (10, 25, 50, 100)


def deal_demo_round(seed: int, table: str, profile: Profile) -> dict[str, Any]:
    """A round file's content: seven cards each to seats 1-6 and the dealer, every player
    asking for the House Way, and a spread of sample wagers (reproducible from `seed`). A
    progressive wager is the table's smallest; a wager the table does not offer is left out
    (the same seed draws the same cards and amounts whatever the table offers)."""
    rnd = random.Random(seed)
    deck = list(DECK)
    rnd.shuffle(deck)
    hands = [deck[i * 7 : i * 7 + 7] for i in range(7)]
    smallest = {w: profile.limits[w].min or profile.unit(w) for w in PROGRESSIVES}
    seats = []
    for number, cards in enumerate(hands[:6], start=1):
        wagers: dict[str, Any] = {"base": rnd.choice(SAMPLE_BASE)}
        if rnd.random() < 0.7:
            wagers["treasure"] = rnd.choice((5, 10, 25))
        if rnd.random() < 0.5:
            wagers["insurance"] = rnd.choice((5, 10))
            wagers["insurance_on_dealer"] = rnd.random() < 0.3
        if rnd.random() < 0.6:
            wagers["progressive_treasure"] = smallest[Wager.PROGRESSIVE_TREASURE]
        if rnd.random() < 0.4:
            wagers["progressive_insurance"] = smallest[Wager.PROGRESSIVE_INSURANCE]
        for wager in BONUSES:
            if wager in wagers and not profile.offers(wager):
                del wagers[wager]
        if Wager.INSURANCE not in wagers:
            wagers.pop("insurance_on_dealer", None)
        seats.append({"seat": number, "cards": format_cards(cards), "wagers": wagers})
    return {"table": table, "dealer": format_cards(hands[6]), "seats": seats}
