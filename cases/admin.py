"""Admin registrations of the cases app (one module per area)."""

from . import admin_documents  # noqa: F401
