import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poquott_ms4.settings.production")
application = get_wsgi_application()

# A young-generation collection every 50,000 new objects instead of Python's
# 700: a page that reads a thousand rows (Open311's list) ran dozens of them per
# request. Same process, alternating with the default: p95 of that list 49 -> 42 ms,
# of the case search 42 -> 38 ms (bench/NOTES.md).
GC_THRESHOLDS = (50_000, 20, 20)


def prepare_garbage_collector() -> None:
    """Import every view (through the URLconf) now, then take everything loaded so
    far out of the garbage collector's sight (gc.freeze): a full collection then
    walks what requests create, not the few hundred thousand objects of Django
    and the app, which live as long as the process. With gunicorn --preload the
    workers also keep sharing those pages. Then collect less often
    (GC_THRESHOLDS). bench/NOTES.md has the numbers."""
    get_resolver().url_patterns  # noqa: B018 - imports the views
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


prepare_garbage_collector()
