"""Open311 keys the tests know. Keys are generated and only their hash is
stored (intake.open311.keys); a test that must send a key it chose writes the
hash itself, as migration 0033 did for the keys typed before."""

from intake.models import ApiKey


def known_key(raw: str = "test-key", client_name: str = "Test client") -> ApiKey:
    found = ApiKey.objects.filter(key_hash=ApiKey.hash_of(raw)).first()
    if found is not None:
        return found
    api_key = ApiKey(client_name=client_name)
    api_key.set_key(raw)
    api_key.save()
    return api_key
