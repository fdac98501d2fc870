"""Deadlines of Chapter 132 (the deadlines app, issue 30): the New York
business calendar and the one engine, exported here.

These two modules are pure Python (no Django), so ``import deadlines`` works
without settings. See ``engine.compute``; the stored deadlines and their
services are in ``deadlines.models`` and ``deadlines.services``.
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
