from django.apps import AppConfig


class OperationsConfig(AppConfig):
    """Running the site, above every feature (STYLE.md, "Layers"; issue 30): the
    health check (/healthz) and the backups (`manage.py backup` / `restore`).
    No models."""

    name = "operations"
    verbose_name = "Operations: health check and backups"
