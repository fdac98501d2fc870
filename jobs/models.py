from django.conf import settings
from django.db import models
from django.utils import timezone


class Job(models.Model):
    """A long piece of work done by the worker for one staff member (issue 29):
    a large export. Written in the request's transaction and handed to the broker
    on commit; the sweep hands over a row the broker lost. Its file is kept for a
    day, then the sweep deletes the file and the row."""

    class State(models.TextChoices):
        QUEUED = "queued", "Waiting for the worker"
        RUNNING = "running", "Being written"
        DONE = "done", "Ready to download"
        FAILED = "failed", "Failed"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="jobs"
    )
    kind = models.CharField(max_length=80, help_text="The registered work's name.")
    title = models.CharField(max_length=200)
    fmt = models.CharField("format", max_length=8, blank=True)
    query = models.TextField(blank=True, help_text="The list's query string.")
    base_url = models.CharField(
        max_length=200, blank=True, help_text="The site's address the links use."
    )
    again_url = models.CharField(max_length=2000, blank=True)
    state = models.CharField(
        max_length=10, choices=State.choices, default=State.QUEUED, db_index=True
    )
    rows_done = models.PositiveIntegerField(default=0)
    rows_total = models.PositiveIntegerField(default=0)
    file = models.FileField(upload_to="jobs/%Y/%m/%d/", blank=True)
    filename = models.CharField(max_length=200, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    enqueued_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    progress_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["owner", "-created_at"])]

    def __str__(self):
        return f"{self.title} for {self.owner}"

    @property
    def percent(self) -> int:
        if self.state == self.State.DONE:
            return 100
        if not self.rows_total:
            return 0
        return min(100, self.rows_done * 100 // self.rows_total)

    @property
    def is_pending(self) -> bool:
        return self.state in (self.State.QUEUED, self.State.RUNNING)
