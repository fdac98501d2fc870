"""What the worker does with a job, for tests that have no Celery worker: follow
the link the page shows to the job's page, run the job (jobs.services.job_run,
the task's body) and download the file as the staff member would."""

from django.urls import resolve, reverse

from jobs import services
from jobs.models import Job


def job_of(response) -> Job:
    """The job whose page `response` sends the staff member to."""
    assert response.status_code == 302, response.status_code
    match = resolve(response["Location"])
    assert match.view_name == "jobs:detail", response["Location"]
    return Job.objects.get(pk=match.kwargs["pk"])


class Downloaded:
    """The download: its headers (`download["Content-Type"]`) and `.content`."""

    def __init__(self, response):
        self.response = response
        self.content = b"".join(response.streaming_content)

    def __getitem__(self, header: str) -> str:
        return self.response[header]


def made_by_worker(client, url: str) -> Downloaded:
    """GET `url` (a link that queues a job), run the job, then download its
    file as the staff member would."""
    job = job_of(client.get(url))
    assert services.job_run(job.pk), Job.objects.get(pk=job.pk).error
    response = client.get(reverse("jobs:download", args=[job.pk]))
    assert response.status_code == 200
    return Downloaded(response)


def run_pending_jobs() -> int:
    """What the worker does (browser walks without a Celery worker): make every
    queued job's file. Returns how many were made."""
    queued = Job.objects.filter(state=Job.State.QUEUED).values_list("pk", flat=True)
    return sum(services.job_run(pk) for pk in list(queued))
