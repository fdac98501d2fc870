"""Access codes: random (not derived from any number of the case), easy to type
from paper: 16 characters of an alphabet without look-alikes (no 0/O, 1/I/L),
printed in groups of four. 31**16 is about 2**79 codes."""

import secrets

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
LENGTH = 16
GROUP = 4
PREFIX = 4  # the part a wrong-code log line shows (never the whole code)


def new_code() -> str:
    """A fresh code, stored as typed without separators ("K7Q4MZ8P…")."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalize(text) -> str:
    """What someone typed, as stored: capitals, without spaces or dashes. Any
    other character leaves it as it is (it then matches no code)."""
    text = str(text or "").strip().upper()
    return "".join(ch for ch in text if ch not in " -–—_.\t")[:64]


def is_well_formed(code: str) -> bool:
    return len(code) == LENGTH and all(ch in ALPHABET for ch in code)


def grouped(code: str) -> str:
    """As printed: "K7Q4-MZ8P-3HXR-T9WD"."""
    return "-".join(code[i : i + GROUP] for i in range(0, len(code), GROUP))


def prefix_of(code: str) -> str:
    return code[:PREFIX]
