"""What every part of the production check shares: failing with words, waiting."""

from __future__ import annotations

import socket
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
PYTHON = sys.executable
MAIL_DOMAIN = "prod-check.example"
STARTED = time.monotonic()


class CheckFailed(Exception):
    """What went wrong, in words (the run exits non-zero with it)."""


def say(text: str) -> None:
    print(f"[prod-check {time.monotonic() - STARTED:6.1f}s] {text}", flush=True)


def check(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, *, timeout: float, what: str, interval: float = 0.2):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            result = predicate()
        except Exception as exc:  # not yet: keep the reason for the message
            last, result = exc, None
        if result:
            return result
        time.sleep(interval)
    raise CheckFailed(
        f"timed out after {timeout:.0f} s waiting for {what}"
        + (f" (last error: {last!r})" if last else "")
    )
