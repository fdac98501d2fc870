"""URL × role table for the foundation's pages (each area adds its own table)."""

import pytest

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "no_role", "smo", "clerk", "attorney", "inspector", "superuser"]

# url: expected status per role, in ROLES order
TABLE = {
    "/": [200] * 7,
    "/privacy/": [200] * 7,
    "/.well-known/security.txt": [200] * 7,
    "/healthz": [200] * 7,
    "/accounts/login/": [200, 302, 302, 302, 302, 302, 302],
    "/staff/": [302, 403, 200, 200, 200, 200, 200],
    "/admin/": [302, 302, 302, 302, 302, 302, 200],
}


@pytest.mark.parametrize("url", TABLE)
@pytest.mark.parametrize("role_index", range(len(ROLES)), ids=ROLES)
def test_url_role_table(client_as, url, role_index):
    client = client_as(ROLES[role_index])
    assert client.get(url).status_code == TABLE[url][role_index]
