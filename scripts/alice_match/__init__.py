"""Alice chess match tools: ``alice-match`` (cli), matches and tournaments (match), pairings
(schedule), the referee (game), engine processes (uci_process), clocks and time controls
(tc), openings, PGN, statistics (Elo, LOS, SPRT), standings and crosstable (standings),
tournament pages (report), resuming from a PGN (resume) and two reference opponents
(players)."""
