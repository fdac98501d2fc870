import gc
import os

from django.core.signals import request_finished
from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poquott_ms4.settings.production")
application = get_wsgi_application()

# After this many requests a worker has built most of what it keeps for good.
WARM_UP_REQUESTS = 100


def freeze_startup_objects() -> None:
    """Import every view (through the URLconf) now, then take everything loaded so
    far out of the garbage collector's sight (gc.freeze): a full collection then
    walks what requests create, not the few hundred thousand objects of Django
    and the app, which live as long as the process. With gunicorn --preload the
    workers also keep sharing those pages. bench/NOTES.md has the numbers."""
    get_resolver().url_patterns  # noqa: B018 - imports the views
    gc.collect()
    gc.freeze()


class FreezeAfterWarmUp:
    """Once, after a worker's first WARM_UP_REQUESTS responses, freeze what they
    built to last: compiled templates, the URL resolver's reverse map, the ORM's
    and psycopg's caches (about 29,000 objects on the bench's pages, which every
    full collection would otherwise walk: 12-18 ms against 1-3 ms,
    bench/NOTES.md). It runs when a response has been sent (request_finished),
    so no one waits for its one collection."""

    def __init__(self):
        self.left = WARM_UP_REQUESTS

    def __call__(self, **kwargs) -> None:
        self.left -= 1
        if self.left > 0:
            return
        request_finished.disconnect(self)
        gc.collect()
        gc.freeze()


freeze_startup_objects()
request_finished.connect(FreezeAfterWarmUp(), weak=False)
