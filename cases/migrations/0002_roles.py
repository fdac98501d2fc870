"""Create the staff role groups. Their model permissions are kept in step by
kernel.roles.sync_role_permissions after every migrate."""

from django.db import migrations

ROLE_GROUPS = ["SMO staff", "Board clerk", "Municipal attorney", "Building inspector"]


def create_groups(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    for name in ROLE_GROUPS:
        Group.objects.get_or_create(name=name)


def remove_groups(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=ROLE_GROUPS).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("cases", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]
    operations = [migrations.RunPython(create_groups, remove_groups)]
