"""Open311 API keys are stored as a SHA-256 and a short prefix, never in clear
(issue 28). Existing keys keep working: each is hashed here and its clear text
dropped. Irreversible once a key exists: a hash does not give its key back."""

import hashlib

from django.db import migrations, models


def hash_existing_keys(apps, schema_editor):
    ApiKey = apps.get_model("cases", "ApiKey")
    for api_key in ApiKey.objects.all():
        raw = api_key.key
        # The same rule as ApiKey.set_key (a frozen copy: migrations do not
        # import the model's code).
        api_key.key_hash = hashlib.sha256(
            raw.encode("utf-8", "surrogatepass")
        ).hexdigest()
        api_key.key_prefix = raw[: min(8, len(raw) // 4)]
        api_key.save(update_fields=["key_hash", "key_prefix"])


def refuse_to_forget_keys(apps, schema_editor):
    if apps.get_model("cases", "ApiKey").objects.exists():
        raise migrations.exceptions.IrreversibleError(
            "Open311 keys are stored as hashes; their clear text cannot be restored."
        )


class Migration(migrations.Migration):
    dependencies = [
        ("cases", "0032_payment_receipt_document"),
    ]

    operations = [
        migrations.AddField(
            model_name="apikey",
            name="key_hash",
            field=models.CharField(editable=False, max_length=64, null=True),
        ),
        migrations.AddField(
            model_name="apikey",
            name="key_prefix",
            field=models.CharField(
                default="",
                editable=False,
                help_text=(
                    "The first characters of the key, to recognise it; not the key."
                ),
                max_length=8,
                verbose_name="key starts with",
            ),
            preserve_default=False,
        ),
        migrations.RunPython(hash_existing_keys, migrations.RunPython.noop),
        migrations.RemoveField(
            model_name="apikey",
            name="key",
        ),
        migrations.AlterField(
            model_name="apikey",
            name="key_hash",
            field=models.CharField(editable=False, max_length=64, unique=True),
        ),
        # Last, so it is the first step undone.
        migrations.RunPython(migrations.RunPython.noop, refuse_to_forget_keys),
    ]
