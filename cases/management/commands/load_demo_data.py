"""Load the demo data: staff accounts, an Open311 key, premises, reports and cases.

Idempotent: running it twice changes nothing. Refused by production settings."""

import importlib

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

DEMO_PASSWORD = "demo-password"
# Each app may add its own demo records in <app>/demo.py: load(stdout) -> None.
DEMO_MODULES = [
    "cases.demo",
    "cases.demo_reports",
    "cases.demo_cases",
    "inspections.demo",
    # Before the enforcement case, so that case stays the first of the case list.
    "enforcement.demo_clocks",
    "enforcement.demo",
    "ledger.demo",
    "portal.demo",  # last: prints the codes the documents above printed
]


class Command(BaseCommand):
    help = "Load idempotent demo data (never in production)."

    def handle(self, *args, **options):
        if not getattr(settings, "DEMO_DATA_ALLOWED", False):
            raise CommandError("Demo data is refused by these settings (production).")
        with transaction.atomic():
            for name in DEMO_MODULES:
                try:
                    module = importlib.import_module(name)
                except ModuleNotFoundError as exc:
                    if exc.name != name:
                        raise
                    continue
                module.load(self.stdout)
        self.stdout.write(self.style.SUCCESS("Demo data loaded."))
