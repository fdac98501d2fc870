"""The parts of `make prod-check` (.ci/prod_check.py)."""
