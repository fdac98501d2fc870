"""The demo sign-ins, one per role (loaded first by `manage.py load_demo_data`)."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from .roles import Role

DEMO_PASSWORD = "demo-password"
DEMO_USERS = [
    # username, first, last, role (None = superuser)
    ("smo", "Sam", "Morales", Role.SMO),
    ("clerk", "Claire", "Lindqvist", Role.CLERK),
    ("attorney", "Arthur", "Tam", Role.ATTORNEY),
    ("inspector", "Ines", "Pryor", Role.BUILDING_INSPECTOR),
    ("admin", "Ada", "Admin", None),
]


def load_users():
    User = get_user_model()
    users = {}
    for username, first, last, role in DEMO_USERS:
        user, created = User.objects.get_or_create(
            username=username,
            defaults={
                "first_name": first,
                "last_name": last,
                "email": f"{username}@poquott.example",
                "is_staff": role is None,
                "is_superuser": role is None,
            },
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        if role is not None:
            user.groups.add(Group.objects.get(name=role.value))
        users[username] = user
    return users


def load(stdout):
    load_users()
    stdout.write(
        "Demo sign-ins (password demo-password): smo, clerk, attorney, inspector, admin"
    )
