"""Load the demo data: staff accounts, an Open311 key, premises, reports, cases
and every later stage (each app's demo modules, kernel.demo).

Idempotent: running it twice changes nothing. Refused by production settings."""

import importlib

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from kernel import demo


class Command(BaseCommand):
    help = "Load idempotent demo data (never in production)."

    def handle(self, *args, **options):
        if not getattr(settings, "DEMO_DATA_ALLOWED", False):
            raise CommandError("Demo data is refused by these settings (production).")
        with transaction.atomic():
            for name in demo.modules():
                importlib.import_module(name).load(self.stdout)
        self.stdout.write(self.style.SUCCESS("Demo data loaded."))
