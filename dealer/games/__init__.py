"""The games: one package each, with the same parts (deck, ranking, rulings, a session where
the game has one). Pure: no printing, no database, no typer."""
