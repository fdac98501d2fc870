"""What each kind of background job does (issue 29).

The jobs app is a shared service below cases, inspections, enforcement and the
ledger (STYLE.md, "Layers"): it knows nothing of their lists. An upper app
registers, in its AppConfig.ready(), a :class:`Work` for each kind of job it
hands over (jobs.exports registers every list's export); the worker finds the
kind's work here by the name stored on the job row."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, BinaryIO

from kernel.workflow import Refused


class JobRefused(Refused):
    """Raised by a work function: the job cannot be done, for a reason the staff
    member can read (their role no longer allows it, the filter is no longer
    valid). The job fails with this sentence. A kind of the one refusal
    (kernel.workflow.Refused): a service the work calls may say no with any
    Refused, and the job fails with its sentence alike."""


# progress(rows_done, rows_total): called by the work at its start and after
# every chunk; the job row shows it.
Progress = Callable[[int, int], None]


def _anyone(user, job) -> bool:
    return True


@dataclass(frozen=True)
class Work:
    """One kind of job: `run(job, out, progress)` writes the job's file into the
    binary file `out` and returns the download's file name. `may_read(user,
    job)` is asked again when the owner downloads the file (a role taken away
    since the job was queued keeps them from it). Progress counts `unit` (plural
    words: "rows", "parts"), which are `done` ("written", "bound") as it goes."""

    name: str
    run: Callable[[Any, BinaryIO, Progress], str]
    may_read: Callable[[Any, Any], bool] = _anyone
    unit: str = "rows"
    done: str = "written"


_WORKS: dict[str, Work] = {}


def register(work: Work) -> Work:
    """Make `work` the one for jobs named `work.name` (registering again
    replaces it: a reloaded module)."""
    _WORKS[work.name] = work
    return work


def work_for(name: str) -> Work | None:
    return _WORKS.get(name)
