"""Demo reports waiting in the triage queue (loaded by `manage.py load_demo_data`).

Idempotent: fixed tracking codes, created only if missing."""

from decimal import Decimal

from django.utils import timezone

from .models import PollutantCategory, Report
from .open311.keys import api_key_install_demo

DEMO_REPORTS = [
    {
        "tracking_code": "PQ-DEMA-2345",
        "channel": Report.Channel.WEB,
        "hours_ago": 20,
        "description": "Soapy grey water running down the gutter into the catch basin "
        "every morning around 8. It has not rained all week.",
        "categories": ["wash-water"],
        "suds": True,
        "colour": "grey",
        "flow": Report.Flow.DRY_WEATHER,
        "address": "Birchwood Avenue near Washington Street",
        "latitude": Decimal("40.953120"),
        "longitude": Decimal("-73.087410"),
        "reporter_email": "resident@example.org",
        "wants_updates": True,
    },
    {
        "tracking_code": "PQ-DEMB-2345",
        "channel": Report.Channel.PHONE,
        "hours_ago": 6,
        "description": "Caller saw a rainbow sheen and smelled gasoline at the storm "
        "drain by the beach stairs after a car was washed in a driveway.",
        "categories": ["oil-fuel"],
        "sheen": True,
        "odour": "petroleum",
        "address": "Washington Street at the beach stairs",
        "reporter_name": "Caller (name given)",
        "reporter_phone": "(631) 555-0142",
        "entered_by": "smo",
    },
    {
        "tracking_code": "PQ-DEMC-2345",
        "channel": Report.Channel.OPEN311,
        "hours_ago": 2,
        "description": "",
        "categories": ["pool-water"],
        "colour": "clear",
        "flow": Report.Flow.DRY_WEATHER,
        "address": "",
        "latitude": Decimal("40.949830"),
        "longitude": Decimal("-73.091560"),
        "service_code": "pool-water",
    },
]


def load(stdout):
    from django.contrib.auth import get_user_model

    now = timezone.now()
    created = 0
    for spec in DEMO_REPORTS:
        spec = dict(spec)
        code = spec.pop("tracking_code")
        if Report.objects.filter(tracking_code=code).exists():
            continue
        categories = spec.pop("categories")
        hours_ago = spec.pop("hours_ago")
        entered_by = spec.pop("entered_by", None)
        spec.setdefault("service_code", categories[0])
        report = Report(
            tracking_code=code,
            received_at=now - timezone.timedelta(hours=hours_ago),
            **spec,
        )
        if entered_by:
            report.entered_by = get_user_model().objects.get(username=entered_by)
        if report.channel == Report.Channel.OPEN311:
            report.api_client = api_key_install_demo()
        report.save()
        report.pollutant_categories.set(
            PollutantCategory.objects.filter(code__in=categories)
        )
        created += 1
    stdout.write(
        f"Demo reports: {created} added; try the status page with PQ-DEMA-2345."
    )
