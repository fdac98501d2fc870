"""Counters that hold when the cache does not: the database-backed attempt
counters of the limits that must never fail open (staff and admin sign-in,
password reset, the respondent's access codes), and the one rule for whose
attempts a limit counts together (`limits.addresses.limit_source`).

A shared lower layer: it imports nothing from the feature apps."""
