"""Open311 API keys (issue 28): generated, stored as a hash, shown once.

A key is `secrets.token_urlsafe(API_KEY_BYTES)`, 256 random bits; nobody types
one. Only its SHA-256 is kept (`ApiKey.key_hash`), so a request's key is found
by hashing it. The embedded demo keeps the documented key `demo-key`; settings
that do not allow demo data (production) refuse it even if a row for it exists.

Wrong keys are counted per address (`ratelimit.OPEN311_WRONG_KEY`): past the
limit, the address is refused every key, the right one too, until the window
ends, so guessing learns nothing there."""

import secrets

from django.conf import settings

from limits import ratelimit

from ..models import ApiKey

API_KEY_BYTES = 32  # 256 bits; never fewer than 16 (128 bits)
DEMO_KEY = "demo-key"


class TooManyWrongKeys(Exception):
    """The request's address gave too many wrong keys in the window."""


def demo_key_allowed() -> bool:
    return settings.DEMO_DATA_ALLOWED


def api_key_generate() -> str:
    """A new key, never stored: give it to the client once."""
    return secrets.token_urlsafe(API_KEY_BYTES)


def api_key_issue(*, client_name: str, contact_email: str = "") -> tuple[ApiKey, str]:
    """A new client's key row and the key itself (the only time it is known)."""
    raw = api_key_generate()
    api_key = ApiKey(client_name=client_name, contact_email=contact_email)
    api_key.set_key(raw)
    api_key.save()
    return api_key, raw


def api_key_install_demo() -> ApiKey:
    """The demo client with the documented key `demo-key` (load_demo_data).
    Raises PermissionError where demo data is not allowed (production)."""
    if not demo_key_allowed():
        raise PermissionError("The demo Open311 key is refused by these settings.")
    existing = ApiKey.objects.filter(key_hash=ApiKey.hash_of(DEMO_KEY)).first()
    if existing is not None:
        return existing
    api_key = ApiKey(client_name="Demo Open311 client", contact_email="dev@example.org")
    api_key.set_key(DEMO_KEY)
    api_key.save()
    return api_key


def api_client_by_key(request) -> ApiKey | None:
    """The active client whose `api_key` (form or query) the request carries;
    None when it carries none or a wrong, revoked or refused one. A wrong one
    is counted against the request's address; raises TooManyWrongKeys when the
    address is over the limit (checked before the key, so a right key there is
    refused too)."""
    raw = (request.POST.get("api_key") or request.GET.get("api_key") or "").strip()
    if not raw:
        return None
    if ratelimit.exceeded(ratelimit.OPEN311_WRONG_KEY, request):
        raise TooManyWrongKeys
    client = None
    if raw != DEMO_KEY or demo_key_allowed():
        client = ApiKey.objects.filter(
            key_hash=ApiKey.hash_of(raw), active=True, revoked_at__isnull=True
        ).first()
    if client is None and not ratelimit.hit(ratelimit.OPEN311_WRONG_KEY, request):
        raise TooManyWrongKeys
    return client
