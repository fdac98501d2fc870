"""`manage.py backup [--output DIR]`: one archive of the database and the media."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from operations.backups import BackupError, backup_create, default_output_dir


class Command(BaseCommand):
    help = (
        "Write one timestamped archive (poquott-ms4-backup-YYYYmmddTHHMMSSZ.tar.gz) "
        "of the database and the media folders, with a manifest of SHA-256 sums. "
        "Copy it off the server: see the README, 'Backups'."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--output",
            type=Path,
            default=None,
            help=f"folder for the archive (default {default_output_dir()})",
        )

    def handle(self, *args, output=None, **options):
        try:
            path, manifest = backup_create(output_dir=output)
        except BackupError as exc:
            raise CommandError(f"Backup failed: {exc}") from exc
        totals = manifest["totals"]
        documents = manifest["row_counts"].get("cases_issueddocument", 0)
        self.stdout.write(
            f"Database: {manifest['database']['vendor']} "
            f"({manifest['database']['format']}); {totals['files']} files, "
            f"{totals['bytes']:,} bytes; {documents} document row(s)."
        )
        self.stdout.write(self.style.SUCCESS(f"Backup written: {path}"))
        # The path alone on the last line, for scripts (cron copies it off-site).
        self.stdout.write(str(path))
