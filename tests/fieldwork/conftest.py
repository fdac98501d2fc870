import datetime as dt

import pytest
from django.utils import timezone

from inspections import services as inspection_svc
from inspections.models import Inspection
from kernel.roles import Role
from tests.conftest import make_user
from tests.inspections.conftest import outfall, premises  # noqa: F401 (fixtures)


@pytest.fixture
def other_inspector(db):
    return make_user("smo2", Role.SMO)


@pytest.fixture
def todays(smo_user, premises):  # noqa: F811 (the imported fixture)
    """An inspection of the signed-in SMO's, in an hour."""
    return inspection_svc.inspection_schedule(
        actor=smo_user,
        kind=Inspection.Kind.ROUTINE,
        premises=premises,
        officer=smo_user,
        scheduled_for=timezone.now() + dt.timedelta(hours=1),
    )
