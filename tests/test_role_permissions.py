"""The role groups' model permissions (kernel.roles.ROLE_MODEL_PERMISSIONS) after
a migrate: every app's, including the apps that come after cases in
INSTALLED_APPS. (They were set at cases' post_migrate, before those apps'
permissions existed: on a new database the Attorney and the Building Inspector
could see nothing in the admin, and the SMO no inspection, notice or charge,
until a second migrate.)"""

import pytest
from django.contrib.auth.models import Group, Permission
from django.core.management.sql import emit_post_migrate_signal

from kernel.roles import Role

pytestmark = pytest.mark.django_db


def _apps_of(role: Role) -> set[str]:
    return set(
        Group.objects.get(name=role.value).permissions.values_list(
            "content_type__app_label", flat=True
        )
    )


def test_a_new_database_gives_each_role_every_app_of_its_table():
    # As on a new database: the permissions of the apps after cases do not
    # exist until their own post_migrate.
    Permission.objects.filter(
        content_type__app_label__in=["inspections", "enforcement", "ledger"]
    ).delete()
    emit_post_migrate_signal(verbosity=0, interactive=False, db="default")

    assert _apps_of(Role.ATTORNEY) == {"enforcement"}
    assert _apps_of(Role.BUILDING_INSPECTOR) == {"enforcement"}
    assert {
        "inspections",
        "enforcement",
        "ledger",
        "deadlines",
        "outbox",
        "intake",
    } <= (_apps_of(Role.SMO))
    clerk = Group.objects.get(name=Role.CLERK.value).permissions
    assert clerk.filter(codename="view_noticeofviolation").exists()
    assert not clerk.filter(codename="change_noticeofviolation").exists()
