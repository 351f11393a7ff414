"""Alice chess match tools: ``alice-match`` (cli), the referee (game), engine processes
(uci_process), clocks and time controls (tc), openings, PGN, statistics (Elo, LOS, SPRT) and
two reference opponents (players)."""
