"""Empire: the 50 plaques, the combination table (provisional data), the two-pass valuation of
tableaux and the tracker for one hand's play and betting (RULINGS §5)."""

from dealer.games.empire.combinations import (
    Combination,
    CombinationTable,
    default_table,
    load_table,
    parse_table,
)
from dealer.games.empire.hand import EmpireHand, deal_hand, start_hand
from dealer.games.empire.plaques import SET, Plaque, parse_plaque, parse_plaques
from dealer.games.empire.valuation import (
    Active,
    EmpireComparison,
    RankedTableau,
    Restrictions,
    compare,
    rank_tableau,
    restrictions_for,
    value_tableau,
)

__all__ = [
    "SET",
    "Active",
    "Combination",
    "CombinationTable",
    "EmpireComparison",
    "EmpireHand",
    "Plaque",
    "RankedTableau",
    "Restrictions",
    "compare",
    "deal_hand",
    "default_table",
    "load_table",
    "parse_plaque",
    "parse_plaques",
    "parse_table",
    "rank_tableau",
    "restrictions_for",
    "start_hand",
    "value_tableau",
]
