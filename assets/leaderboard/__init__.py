"""Leaderboard stage: per-family method tables with intervals, ratings and the HTML report."""
