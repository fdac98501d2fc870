"""Admin registrations, one module per area."""

from . import admin_deadlines, admin_documents, admin_reports  # noqa: F401
