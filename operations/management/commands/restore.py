"""`manage.py restore ARCHIVE [--yes]`: into an empty database and media folder."""

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from operations.backups import (
    BackupError,
    RestoreRefused,
    restore_apply,
    restore_prepare,
)

# Exit status: 1 = refused or failed before the restore, 2 = restored but the
# verification found a difference (the office must look before using the site).
VERIFY_FAILED = 2


class Command(BaseCommand):
    help = (
        "Restore a backup archive into an EMPTY database (a new one made by "
        "createdb, or a SQLite file that does not exist yet) and EMPTY media "
        "folders. Checks every SHA-256 of the archive first and every issued "
        "document's stored hash afterwards."
    )

    def add_arguments(self, parser):
        parser.add_argument("archive", type=Path)
        parser.add_argument(
            "--yes", action="store_true", help="do not ask for confirmation"
        )

    def handle(self, *args, archive, yes=False, **options):
        try:
            plan = restore_prepare(archive)
        except RestoreRefused as exc:
            raise CommandError(f"Restore refused: {exc}") from exc
        manifest = plan.manifest
        self.stdout.write(
            f"Archive verified: {manifest['totals']['files']} files match the "
            f"manifest (backup of {manifest['created_at']}, version "
            f"{manifest['app'].get('version')}, {manifest['database']['vendor']})."
        )
        try:
            if not yes and not self._confirmed(plan):
                raise CommandError("Restore cancelled; nothing was changed.")
            result = restore_apply(plan)
        except BackupError as exc:
            raise CommandError(f"Restore failed: {exc}") from exc
        finally:
            plan.cleanup()
        self._report(result)
        if not result.ok:
            raise CommandError(
                "Restored, but the verification found differences (above): "
                "do not use this copy before they are understood.",
                returncode=VERIFY_FAILED,
            )
        self.stdout.write(self.style.SUCCESS("Restore complete and verified."))

    def _confirmed(self, plan) -> bool:
        if not sys.stdin.isatty():
            raise CommandError(
                "Restore needs confirmation: run it in a terminal or pass --yes."
            )
        targets = ", ".join(str(p) for p in plan.media_targets.values())
        answer = input(
            f"Restore {plan.archive.name} into the (empty) database and {targets}? "
            "[y/N] "
        )
        return answer.strip().lower() in {"y", "yes"}

    def _report(self, result):
        for line in result.row_count_differences:
            self.stdout.write(self.style.ERROR(f"Row count differs — {line}"))
        if not result.row_count_differences:
            self.stdout.write("Row counts: every table as in the backup.")
        for tally in result.tallies:
            style = self.style.SUCCESS if tally.ok else self.style.ERROR
            self.stdout.write(style(tally.line()))
            for where in tally.mismatched:
                self.stdout.write(self.style.ERROR(f"  mismatched: {where}"))
            for where in tally.missing:
                self.stdout.write(self.style.ERROR(f"  missing: {where}"))
        if result.unapplied_migrations:
            self.stdout.write(
                self.style.WARNING(
                    "This code has migrations the backup had not applied "
                    f"({', '.join(result.unapplied_migrations)}): run "
                    "`python manage.py migrate` before starting the site."
                )
            )
