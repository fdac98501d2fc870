"""The signed-in user is read with their roles in one query (issue 28), and a
change of groups still counts from the next page on."""

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from kernel.roles import Role

pytestmark = pytest.mark.django_db

OUTBOX = reverse("outbox:list")  # SMO staff only


def test_the_roles_come_with_the_user_not_from_a_query_of_their_own(client_as):
    client = client_as("smo")
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(OUTBOX).status_code == 200
    group_reads = [
        q["sql"] for q in ctx.captured_queries if "auth_user_groups" in q["sql"]
    ]
    assert len(group_reads) == 1  # within the query of the user
    assert 'FROM "auth_user" u' in group_reads[0]


def test_a_user_taken_out_of_the_smo_group_is_refused_on_the_next_page(
    client_as, smo_user
):
    client = client_as("smo")
    assert client.get(OUTBOX).status_code == 200
    smo_user.groups.remove(Group.objects.get(name=Role.SMO.value))
    assert client.get(OUTBOX).status_code == 403
    smo_user.groups.add(Group.objects.get(name=Role.SMO.value))
    assert client.get(OUTBOX).status_code == 200


def test_a_session_signed_in_before_the_change_still_works(client, smo_user):
    client.force_login(smo_user, backend="django.contrib.auth.backends.ModelBackend")
    assert client.get(OUTBOX).status_code == 200


def test_signing_in_with_the_password_works_and_a_wrong_one_does_not(client, smo_user):
    assert client.login(username="smo", password="demo-password")
    assert client.get(OUTBOX).status_code == 200
    client.logout()
    assert not client.login(username="smo", password="wrong-password")


def test_each_role_a_user_holds_is_read_and_no_other_group_counts(smo_user):
    from kernel.role_backend import RoleBackend
    from kernel.roles import user_roles

    # The roles are read as one column of names joined by commas.
    assert not any("," in role.value for role in Role)
    crew = Group.objects.create(name="Pool crew, summer")
    smo_user.groups.add(Group.objects.get(name=Role.CLERK.value), crew)
    read = RoleBackend().get_user(smo_user.pk)
    assert user_roles(read) == {Role.SMO, Role.CLERK}
    smo_user.groups.clear()
    assert user_roles(RoleBackend().get_user(smo_user.pk)) == set()
