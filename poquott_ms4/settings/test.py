"""Settings for the test suite. DATABASE_URL / REDIS_URL select real services."""

from .base import *  # noqa: F403

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
MEDIA_ROOT = VAR_DIR / "test-media"  # noqa: F405
if not REDIS_URL:  # noqa: F405
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
CELERY_TASK_ALWAYS_EAGER = False
if not REDIS_URL:  # noqa: F405
    # No broker in unit tests without Redis: tasks queued on commit go nowhere.
    CELERY_BROKER_URL = "memory://"
WHITENOISE_USE_FINDERS = True
COMPILED_QUERY_CHECK = True  # kernel.compiled: each compiled query checks its shape
