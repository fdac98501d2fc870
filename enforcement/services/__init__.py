"""Writes of the enforcement app: notices, appeals and the other remedies."""
