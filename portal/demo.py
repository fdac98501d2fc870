"""Demo: the access codes the demo's documents printed, so that whoever tries
`make run` can open a respondent's page (issue 18)."""

from django.urls import reverse

from kernel.site_url import site_url

from .models import PortalAccess


def load(stdout) -> None:
    live = PortalAccess.objects.filter(revoked_at__isnull=True).select_related(
        "case", "party"
    )
    if not live:
        return
    stdout.write(
        f"Respondent's page: {site_url()}{reverse('portal:enter')} with the code of"
    )
    for access in live.order_by("case__number", "party__name"):
        stdout.write(f"  {access.case.number} {access.party.name}: {access.printed}")
