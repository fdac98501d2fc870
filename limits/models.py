import hashlib

from django.db import models


class Counter(models.Model):
    """Attempts counted against one key in a fixed window: the window starts
    with the first attempt and ends at `expires_at`; an expired row counts as
    zero and is started again by the next attempt, or purged.

    The key is a hash of what is counted (a scope, an address network, a user
    name): no address or name is kept in clear."""

    key = models.CharField(max_length=64, primary_key=True)
    count = models.PositiveIntegerField(default=0)
    expires_at = models.DateTimeField(db_index=True)

    def __str__(self):
        return f"{self.key[:12]}… {self.count} until {self.expires_at:%Y-%m-%d %H:%M}"

    @staticmethod
    def key_for(key: str) -> str:
        """The stored form of a key: its SHA-256, so no address is kept in clear."""
        return hashlib.sha256(key.encode()).hexdigest()
