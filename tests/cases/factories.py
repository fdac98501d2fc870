"""factory_boy factories for the case side, one Trait per case status."""

import datetime as dt

import factory
from django.utils import timezone

from cases.models import (
    Case,
    CaseKind,
    CaseParty,
    CaseSource,
    CaseStatus,
    Party,
    Premises,
)
from intake.models import Report


class PremisesFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Premises

    address = factory.Sequence(lambda n: f"{n + 1} Birchwood Avenue")
    tax_map_number = factory.Sequence(lambda n: f"0200-001.00-01.00-{n:03d}.000")
    land_use = Premises.LandUse.RESIDENTIAL


class PartyFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Party

    name = factory.Sequence(lambda n: f"Owner {n}")
    kind = Party.Kind.PERSON


class ReportFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Report

    channel = Report.Channel.WEB
    description = factory.Sequence(lambda n: f"Soapy water in the drain ({n})")
    address = "3 Washington Street"


class CaseFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Case

    number = factory.Sequence(lambda n: f"MS4-2020-{n + 1:04d}")
    kind = CaseKind.ILLICIT_DISCHARGE
    source = CaseSource.PHONE
    summary = factory.Sequence(lambda n: f"Discharge {n}")
    status = CaseStatus.NEW

    class Params:
        investigating = factory.Trait(status=CaseStatus.INVESTIGATING)
        violation_confirmed = factory.Trait(
            status=CaseStatus.VIOLATION_CONFIRMED,
            responsible_party=factory.SubFactory(PartyFactory),
            violation_confirmed_on=factory.LazyFunction(timezone.localdate),
        )
        enforcement = factory.Trait(
            status=CaseStatus.ENFORCEMENT,
            responsible_party=factory.SubFactory(PartyFactory),
        )
        resolved = factory.Trait(
            status=CaseStatus.RESOLVED,
            eliminated_on=factory.LazyFunction(
                lambda: timezone.localdate() - dt.timedelta(days=1)
            ),
            verification="Dye test negative",
            closed_at=factory.LazyFunction(timezone.now),
        )
        unfounded = factory.Trait(
            status=CaseStatus.UNFOUNDED, closing_reason="Rain water"
        )
        exempt = factory.Trait(status=CaseStatus.EXEMPT)
        referred = factory.Trait(status=CaseStatus.REFERRED, referred_to="NYS DEC")
        duplicate = factory.Trait(status=CaseStatus.DUPLICATE)


def name_party(case, party=None, role=CaseParty.Role.OWNER):
    party = party or PartyFactory()
    CaseParty.objects.create(case=case, party=party, role=role)
    return party
