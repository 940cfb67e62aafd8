"""Empire (RULINGS §5): the 50 plaques (`deck`), the combination table (provisional data,
`combinations`), the two-pass valuation of tableaux (`ranking`), rulings (`rulings`) and one
hand's play and betting at a table (`session`)."""
