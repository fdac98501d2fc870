"""A submission stored once, however often it is sent (issue 31).

A phone that loses its signal, or a site that answers 503 while its database
restarts, leaves the sender not knowing whether what it sent was stored; so it
sends it again. Each sending carries a key the device made when the record was
made (a random UUID). The first sending with a key stores the record and the
key, with a digest of what was sent; a later sending with the same key and the
same contents gets the stored record back and stores nothing; one with the same
key and other contents is refused (a key names one record only).

Two sendings at the same moment are one: the key's row is inserted first, in the
record's transaction, and the database's unique index makes the second wait for
the first to commit (or roll back)."""

import hashlib
import json
import re
from collections.abc import Callable
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db import IntegrityError, transaction

from .models import SubmissionKey
from .workflow import Refused

# What a device may send as a key: a UUID, or any 16 to 64 letters, digits, - or _.
KEY_PATTERN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


class KeyReused(Refused):
    """The key was already used for a record with other contents."""

    nothing_done = True


def is_key(raw: str) -> bool:
    return bool(KEY_PATTERN.match(raw or ""))


def content_digest(content) -> str:
    """The SHA-256 of `content` (plain data) written canonically."""
    text = json.dumps(content, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def store_once(*, scope: str, key: str, content, create: Callable[[], Any]) -> Any:
    """Call `create()` (which stores the record and returns it) unless `key`
    already stored one in `scope` with the same `content`; then return that
    record. Raises KeyReused when `key` stored other contents."""
    digest = content_digest(content)
    with transaction.atomic():
        try:
            with transaction.atomic():
                entry = SubmissionKey.objects.create(
                    scope=scope, key=key, digest=digest
                )
        except IntegrityError:
            entry = SubmissionKey.objects.get(scope=scope, key=key)
            if entry.digest != digest:
                raise KeyReused(
                    "This was already sent with other contents. Nothing new was "
                    "stored: start a new one."
                ) from None
            return entry.record
        record = create()
        entry.content_type = ContentType.objects.get_for_model(record)
        entry.object_id = record.pk
        entry.save(update_fields=["content_type", "object_id"])
    return record
