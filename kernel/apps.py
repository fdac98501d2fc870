from django.apps import AppConfig


class KernelConfig(AppConfig):
    """The bottom layer every app uses and that uses none of ours (issue 30):
    the workflow kernel (kernel.workflow, the one refusal), roles and delegations,
    the chronology (kernel.timeline, kernel.models.CaseEvent), the citation table,
    dates and times in words, uploads and the input guard. Where it needs an
    upper app's meaning (the clock table after a step, an interface's own error
    format) it offers a registry the upper app fills in its ready()."""

    name = "kernel"
    verbose_name = "Chronology, delegations and citations"
