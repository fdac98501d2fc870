"""Notices and letters: plain-data contracts, rendering with WeasyPrint, issue and
freeze (documents.models.IssuedDocument), serving the stored bytes."""

import logging

# WeasyPrint logs every rendering step (and its own stylesheets at import) at
# INFO; the web and worker logs need none of it. Set before weasyprint is imported.
logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)
