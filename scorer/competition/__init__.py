"""python -m scorer.competition: run a leaderboard (CodaLab / Codabench)."""
