"""Deadlines of Chapter 132: the New York business calendar and the one engine.

Pure Python (no Django), so it imports without settings. See ``engine.compute``.
"""

from .business_days import BusinessCalendar, public_holidays
from .engine import (
    RULES,
    Actor,
    Computation,
    Method,
    RuleSpec,
    UnknownRule,
    compute,
    continued_violation_weeks,
    rule_choices,
)

__all__ = [
    "RULES",
    "Actor",
    "BusinessCalendar",
    "Computation",
    "Method",
    "RuleSpec",
    "UnknownRule",
    "compute",
    "continued_violation_weeks",
    "public_holidays",
    "rule_choices",
]
