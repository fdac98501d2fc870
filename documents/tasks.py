"""Celery tasks of the documents: thin, taking ids, idempotent."""

from celery import shared_task

from . import services


@shared_task(acks_late=True, ignore_result=True)
def render_document(document_id: int) -> None:
    """Render and store the PDF of one issued document (services.document_render).
    A redelivered or repeated task finds the document issued and does nothing."""
    services.document_render(document_id=document_id)


@shared_task(ignore_result=True)
def enqueue_stale_document_renders() -> None:
    """Re-enqueue documents left rendering (the broker was down at issue)."""
    services.enqueue_stale_renders()
