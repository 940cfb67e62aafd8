"""Emperor's Challenge Exposed: commission-free Pai Gow Poker with a joker, its bonus wagers
and progressives (deck, ranking, House Way, settlement, pay arithmetic, pay tables, profile)."""
