"""Migration 0033: keys stored in clear text before issue 28 become hashes and
keep working; the clear text is gone."""

import hashlib

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("cases", "0032_payment_receipt_document")]
AFTER = [("cases", "0033_apikey_hash")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture(autouse=True)
def _back_to_the_latest_migrations():
    yield
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_clear_text_keys_become_hashes_and_keep_working(client):
    old = _migrate(BEFORE)
    try:
        OldKey = old.get_model("cases", "ApiKey")
        harbor = OldKey.objects.create(
            client_name="Harbor app", key="harbor-typed-key-2019"
        )
        # A report that came from it: the key's row is updated under a foreign key.
        old.get_model("cases", "Report").objects.create(
            channel="open311", description="Suds.", api_client=harbor
        )
        OldKey.objects.create(client_name="Demo", key="demo-key")
    finally:
        new = _migrate(AFTER)
    ApiKey = new.get_model("cases", "ApiKey")
    harbor = ApiKey.objects.get(client_name="Harbor app")
    assert harbor.key_hash == hashlib.sha256(b"harbor-typed-key-2019").hexdigest()
    assert harbor.key_prefix == "harbo"  # a quarter of the key at most
    Report = new.get_model("cases", "Report")
    assert Report.objects.get().api_client_id == harbor.pk
    assert "key" not in {f.name for f in ApiKey._meta.fields}
    with connection.cursor() as cursor:
        columns = [
            c.name
            for c in connection.introspection.get_table_description(
                cursor, "cases_apikey"
            )
        ]
    assert "key" not in columns
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    cache.clear()
    response = client.post(
        "/open311/v2/requests.json",
        {
            "api_key": "harbor-typed-key-2019",
            "service_code": "wash-water",
            "address_string": "Sound Road",
        },
    )
    assert response.status_code == 201
