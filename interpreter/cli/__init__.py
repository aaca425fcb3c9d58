"""The `rulebook` command line and the person at the table (human play)."""
