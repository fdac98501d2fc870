"""Moving models from one app to another with their data (issue 30).

A model that changes app keeps its table (`Meta.db_table`), so its move is two
state-only migrations (`SeparateDatabaseAndState`): the new app creates it, the
old app deletes it. What the database does hold under the app's name is the
model's content type, which documents and deadlines point at (a
GenericForeignKey): `move_content_types` renames those rows in place, so every
document, deadline and permission keeps its link."""

from django.db import migrations


def move_content_types(old_app: str, new_app: str, models: list[str]):
    """A RunPython operation that gives the content types of `models` (lower-case
    model names) the app label `new_app`, and back when migrating backwards."""

    def rename(apps, from_app, to_app):
        ContentType = apps.get_model("contenttypes", "ContentType")
        for model in models:
            old = ContentType.objects.filter(app_label=from_app, model=model)
            if old.exists():
                # One made under the new label before this ran (by post_migrate)
                # has nothing pointing at it but its permissions: it gives way.
                ContentType.objects.filter(app_label=to_app, model=model).delete()
                old.update(app_label=to_app)

    def forwards(apps, schema_editor):
        rename(apps, old_app, new_app)

    def backwards(apps, schema_editor):
        rename(apps, new_app, old_app)

    return migrations.RunPython(forwards, backwards, elidable=False)
