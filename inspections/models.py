from django.db import models  # noqa: F401
