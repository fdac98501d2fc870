"""Article numbers are stored as their digits (kernel.input_guard.article_number_clean,
issue 26): the spaces of those recorded before are removed; nothing else changes."""

from django.db import migrations

ARTICLE_FIELDS = [
    ("ServiceRecord", "article_number"),
    ("HearingNoticeService", "article_number"),
    ("Appeal", "mail_article_number"),
    ("AccessSuspension", "notice_article_number"),
]


def article_numbers_without_spaces(apps, schema_editor):
    for model_name, field in ARTICLE_FIELDS:
        model = apps.get_model("enforcement", model_name)
        for row in model.objects.exclude(**{field: ""}).only("pk", field):
            digits = "".join(getattr(row, field).split())
            if digits != getattr(row, field):
                model.objects.filter(pk=row.pk).update(**{field: digits})


class Migration(migrations.Migration):
    dependencies = [("enforcement", "0012_correctiveaction_owner")]

    operations = [
        migrations.RunPython(article_numbers_without_spaces, migrations.RunPython.noop)
    ]
