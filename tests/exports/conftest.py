"""Fixtures of the export tests: the enforcement fixtures (a case with a confirmed
violation, its parties), outfalls and a time in the village."""

import pytest

from cases.models import Outfall

from ..enforcement.conftest import agent, aware, confirmed_case, owner  # noqa: F401


@pytest.fixture
def aware_at():
    return aware


@pytest.fixture
def outfall_factory(db):
    def make(code, **fields):
        values = {
            "location_description": f"End of {code} road",
            "receiving_water": "Port Jefferson Harbor",
        }
        values.update(fields)
        return Outfall.objects.create(code=code, **values)

    return make
