import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poquott_ms4.settings.production")
application = get_wsgi_application()


def freeze_startup_objects() -> None:
    """Import every view (through the URLconf) now, then take everything loaded so
    far out of the garbage collector's sight (gc.freeze): a full collection then
    walks what requests create, not the few hundred thousand objects of Django
    and the app, which live as long as the process. With gunicorn --preload the
    workers also keep sharing those pages. bench/NOTES.md has the numbers."""
    get_resolver().url_patterns  # noqa: B018 - imports the views
    gc.collect()
    gc.freeze()


freeze_startup_objects()
