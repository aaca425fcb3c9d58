"""`rulebook serve`: every ruleset's games at a table in the browser."""
