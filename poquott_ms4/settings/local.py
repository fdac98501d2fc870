"""The embedded default for `make run`: SQLite, a filesystem broker, mail as files."""

from .base import *  # noqa: F403

DEBUG = env.bool("DEBUG", default=True)  # noqa: F405
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG
