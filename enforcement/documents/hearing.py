"""The documents of the Board's hearings (R-APL-2): the notice of hearing to the
appellant (a copy to the SMO) and the agenda of a Board meeting. Each a facts
contract registered with documents.registry, issued through the pipeline
(frozen, hashed, versioned, rendered by WeasyPrint in the worker).

Dates are facts from the records and the deadline engine: the hearing's day and
time are the meeting's, the hearing-by date the stored R-APL-2 deadline."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import ClassVar

from django.conf import settings
from django.utils import timezone

from documents.contracts import (
    Contact,
    DocumentFacts,
    FactsInvalid,
    Recipient,
    Signatory,
    blank,
    clerk_office,
    village_contact,
)
from documents.registry import register
from documents.samples import sample_common
from kernel.roles import Role

from ..document_kinds import EnforcementDocument
from .common import (
    CLERK_TITLE,
    clerk_signatory,
    premises_address_of,
    recipient_of,
    today,
)
from .notice import notice_number

WHAT_TO_BRING = (
    "This notice and the notice of violation appealed",
    "Any documents, photographs, test results or plans you want the Board to "
    "consider (bring six copies, or file them with the Village Clerk beforehand)",
    "The names of any witnesses who will speak for you",
)


def clock(moment: dt.datetime | dt.time) -> str:
    """'7:30 PM'."""
    return moment.strftime("%I:%M %p").lstrip("0")


def change_request_text() -> str:
    return (
        "To ask for another date, write to the Village Clerk at "
        f"{clerk_office()} or call {settings.VILLAGE['phone']} as soon as you "
        "can, giving the case number and the reason. The Board decides on the "
        "request and the Clerk tells you the new date in writing."
    )


# --- notice of hearing (R-APL-2) ----------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class HearingNoticeFacts(DocumentFacts):
    """Notice to the appellant (copy to the SMO) of the date, time and place of
    the Board's hearing of the appeal of a notice of violation."""

    kind: ClassVar[str] = EnforcementDocument.HEARING_NOTICE
    template: ClassVar[str] = "documents/hearing_notice.html"
    rule_id: ClassVar[str] = "R-APL-2"
    base_rules: ClassVar[tuple[str, ...]] = ("R-APL-1", "R-APL-2", "R-APL-3")

    notice_number: str
    notice_issued_on: dt.date
    premises_address: str = ""
    appeal_number: str
    appeal_filed_on: dt.date
    hearing_on: dt.date
    hearing_time: str
    hearing_place: str
    hearing_by: dt.date | None = None
    copy_to: str = ""
    what_to_bring: tuple[str, ...] = WHAT_TO_BRING
    change_request: str = ""

    def problems(self) -> list[str]:
        found = super().problems()
        if blank(self.notice_number):
            found.append("the notice of violation appealed is not identified")
        if not isinstance(self.hearing_on, dt.date):
            found.append("the date of the hearing is missing")
        if blank(self.hearing_time):
            found.append("the time of the hearing is missing")
        if blank(self.hearing_place):
            found.append("the place of the hearing is missing")
        if blank(self.change_request):
            found.append("how to ask for a change of date is missing")
        if (
            isinstance(self.hearing_on, dt.date)
            and isinstance(self.issued_on, dt.date)
            and self.hearing_on < self.issued_on
        ):
            found.append("the hearing is before the date of this notice")
        return found


def sample_hearing_notice() -> HearingNoticeFacts:
    return HearingNoticeFacts(
        **sample_common(
            number="HRG-2026-0001",
            signatory=Signatory(name="Casey Clerk", title=CLERK_TITLE),
            contact=Contact(name="Village Clerk", phone="(631) 476-4043"),
        ),
        notice_number="NOV-2026-0001",
        notice_issued_on=dt.date(2026, 2, 20),
        premises_address="12 Sample Lane, Poquott, NY 11733",
        appeal_number="Appeal 1",
        appeal_filed_on=dt.date(2026, 2, 27),
        hearing_on=dt.date(2026, 3, 24),
        hearing_time="7:30 PM",
        hearing_place="Village Hall, 45 Birchwood Avenue",
        hearing_by=dt.date(2026, 3, 29),
        copy_to="Stormwater Management Officer",
        change_request="To ask for another date, write to the Village Clerk.",
    )


def hearing_particulars(appeal) -> tuple[dt.date, str, str]:
    """The hearing's day, time and place as the notice of hearing prints them."""
    when = timezone.localtime(appeal.hearing_at)
    return when.date(), clock(when), appeal.hearing_location


def noticed_particulars(document) -> tuple[dt.date, str, str]:
    """The day, time and place an issued notice of hearing gave (its frozen facts)."""
    facts = document.facts
    return (
        dt.date.fromisoformat(facts["hearing_on"]),
        facts["hearing_time"],
        facts["hearing_place"],
    )


def notice_gives_another_hearing(appeal, document) -> bool:
    """The hearing was moved after `document` (an issued notice of hearing) was
    issued: the appellant must be sent a corrected notice (R-APL-2)."""
    if appeal.hearing_at is None:
        return False
    return noticed_particulars(document) != hearing_particulars(appeal)


def _particulars_words(day: dt.date, time: str, place: str, *, with_place: bool):
    words = f"{day:%a, %b} {day.day}, {day:%Y}, {time}"
    return f"{words}, {place}" if with_place else words


def hearing_move_words(appeal, document) -> tuple[str, str]:
    """(what the issued notice of hearing `document` gives, the hearing as now
    scheduled), in words for the clerk: 'Tue, Mar 24, 2026, 7:00 PM' (the place
    too when it changed). Read from the notice's frozen facts and the appeal, so
    a hearing moved earlier or later is named as it is (R-APL-2)."""
    noticed = noticed_particulars(document)
    now = hearing_particulars(appeal)
    with_place = noticed[2].strip() != now[2].strip()
    return (
        _particulars_words(*noticed, with_place=with_place),
        _particulars_words(*now, with_place=with_place),
    )


def hearing_notice_number(appeal) -> str:
    return f"HRG-{appeal.pk}"


@register(
    EnforcementDocument.HEARING_NOTICE,
    facts=HearingNoticeFacts,
    source="enforcement.appeal",
    sample=sample_hearing_notice,
    case_of=lambda appeal: appeal.notice.case,
    # The Board's hearing is the clerk's to notice (R-APL-2).
    issuers=(Role.CLERK,),
)
def hearing_notice_contract(appeal) -> HearingNoticeFacts:
    """The notice of hearing once the hearing is scheduled: the meeting's date,
    time and place as recorded on the appeal; the hearing-by date as stored."""
    from ..services.appeals import hearing_by

    if appeal.hearing_at is None or not appeal.hearing_location.strip():
        raise FactsInvalid(
            EnforcementDocument.HEARING_NOTICE,
            ["schedule the hearing (date, time and place) first"],
        )
    notice = appeal.notice
    day, time, place = hearing_particulars(appeal)
    return HearingNoticeFacts(
        case_number=notice.case.number,
        document_number=hearing_notice_number(appeal),
        issued_on=today(),
        recipient=recipient_of(appeal.appellant.name, appeal.appellant.mailing_address),
        contact=Contact(name="Village Clerk", phone=settings.VILLAGE["phone"]),
        signatory=clerk_signatory(),
        notice_number=notice_number(notice),
        notice_issued_on=notice.issued_on,
        premises_address=premises_address_of(notice.case),
        appeal_number=f"Appeal {appeal.pk}",
        appeal_filed_on=appeal.filed_on,
        hearing_on=day,
        hearing_time=time,
        hearing_place=place,
        hearing_by=hearing_by(appeal),
        copy_to=village_contact().name,
        change_request=change_request_text(),
    )


# --- agenda of a Board meeting ---------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class AgendaItem:
    number: int
    appeal_number: str
    appellant: str
    case_number: str
    notice_number: str
    premises_address: str = ""


@dataclass(frozen=True, kw_only=True)
class MeetingAgendaFacts(DocumentFacts):
    """The hearings on appeal at one meeting of the Board of Trustees: a paper of
    the meeting, not of a case (R-APL-2). It lists every appeal heard there (each
    with its case number, appellant and notice); no case number of its own."""

    kind: ClassVar[str] = EnforcementDocument.MEETING_AGENDA
    template: ClassVar[str] = "documents/meeting_agenda.html"
    rule_id: ClassVar[str] = "R-APL-2"
    base_rules: ClassVar[tuple[str, ...]] = ("R-APL-2",)

    case_number: str = ""
    meeting_on: dt.date
    meeting_time: str
    meeting_place: str
    items: tuple[AgendaItem, ...] = ()
    notes: str = ""

    def problems(self) -> list[str]:
        # A document of the meeting: no case number (each item has its own).
        found = [p for p in super().problems() if not p.startswith("case number")]
        if not isinstance(self.meeting_on, dt.date):
            found.append("the date of the meeting is missing")
        if blank(self.meeting_place):
            found.append("the place of the meeting is missing")
        if not self.items:
            found.append("no hearing is scheduled at this meeting")
        for item in self.items:
            if blank(item.case_number) or blank(item.appellant):
                found.append(f"item {item.number}: the case or appellant is missing")
        return found


def sample_meeting_agenda() -> MeetingAgendaFacts:
    return MeetingAgendaFacts(
        **sample_common(
            number="AGN-2026-0001",
            case_number="",
            signatory=clerk_signatory(),
            contact=Contact(name="Village Clerk", phone="(631) 476-4043"),
            recipient=Recipient(name="The Board of Trustees"),
        ),
        meeting_on=dt.date(2026, 3, 24),
        meeting_time="7:30 PM",
        meeting_place="Village Hall",
        items=(
            AgendaItem(
                number=1,
                appeal_number="Appeal 1",
                appellant="Pat Example",
                case_number="MS4-2026-0001",
                notice_number="NOV-2026-0001",
                premises_address="12 Sample Lane",
            ),
            AgendaItem(
                number=2,
                appeal_number="Appeal 2",
                appellant="Sam Sample",
                case_number="MS4-2026-0002",
                notice_number="NOV-2026-0002",
            ),
        ),
    )


def agenda_number(meeting) -> str:
    return f"AGN-{meeting.date:%Y%m%d}-{meeting.pk}"


def agenda_items(meeting) -> tuple[AgendaItem, ...]:
    return tuple(
        AgendaItem(
            number=n,
            appeal_number=f"Appeal {a.pk}",
            appellant=a.appellant.name,
            case_number=a.notice.case.number,
            notice_number=notice_number(a.notice),
            premises_address=premises_address_of(a.notice.case),
        )
        for n, a in enumerate(meeting.hearings(), 1)
    )


@register(
    EnforcementDocument.MEETING_AGENDA,
    facts=MeetingAgendaFacts,
    source="enforcement.boardmeeting",
    sample=sample_meeting_agenda,
    # A document of the Board's meeting, filed on no case (it names them all),
    # put on the agenda by the clerk.
    case_of=lambda meeting: None,
    issuers=(Role.CLERK,),
    party_of=lambda meeting: None,
)
def meeting_agenda_contract(meeting) -> MeetingAgendaFacts:
    """The agenda of `meeting`: every appeal heard at it (withdrawn ones left
    out), signed once by the Village Clerk for the Board."""
    return MeetingAgendaFacts(
        document_number=agenda_number(meeting),
        issued_on=today(),
        recipient=Recipient(name="The Board of Trustees"),
        contact=Contact(name="Village Clerk", phone=settings.VILLAGE["phone"]),
        signatory=clerk_signatory(),
        meeting_on=meeting.date,
        meeting_time=clock(meeting.time),
        meeting_place=meeting.place,
        items=agenda_items(meeting),
        notes=meeting.notes,
    )


def agenda_text(meeting) -> str:
    """The agenda as plain text, for the village website."""
    lines = [
        f"{settings.VILLAGE['name']}",
        "Board of Trustees: hearings on appeals of notices of violation",
        f"{meeting.date:%A, %B} {meeting.date.day}, {meeting.date:%Y}, "
        f"{clock(meeting.time)}, {meeting.place}",
        "",
    ]
    items = agenda_items(meeting)
    for item in items:
        lines.append(
            f"{item.number}. {item.appeal_number}: {item.appellant}, "
            f"{item.premises_address or 'premises not recorded'} "
            f"(case {item.case_number}, notice {item.notice_number})"
        )
    if not items:
        lines.append("No hearing is scheduled.")
    if meeting.notes.strip():
        lines += ["", meeting.notes.strip()]
    lines += ["", f"Questions: the Village Clerk, {settings.VILLAGE['phone']}."]
    return "\n".join(lines)
