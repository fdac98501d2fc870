"""The outcome of a certified mailing (issue 16): delivered on a date (the green
card, USPS tracking) or returned unclaimed or refused on a date. Three records
send papers by certified mail: a notice of violation's `ServiceRecord`, a notice
of hearing's `HearingNoticeService`, and the appeal decision's mailing
(`Appeal.mailed_on`, R-APL-3). Each keeps its own fields; this module holds what
they share: the outcomes, and what a return means in words.

What a return means, by the chapter: Chapter 132 sets no manner of service for
a notice of violation (R-NOV-1: a written notice to the responsible person), and
every date that follows counts from the notice's issuance (R-APL-1, R-NOV-1,
R-NOV-2), the decision (R-APL-3, R-COR-1) or the filing of the appeal (R-APL-2),
never from the delivery. So a returned mailing moves no deadline: it says that
the paper did not reach its addressee by mail, and the office serves it another
way. These words say so; the deadline engine is not touched."""

from django.db import models

from kernel.humanize import human_date


class MailOutcome(models.TextChoices):
    DELIVERED = "delivered", "Delivered"
    UNCLAIMED = "unclaimed", "Returned unclaimed"
    REFUSED = "refused", "Returned refused"


# What a return means, per paper (see the module's docstring): no date moves.
RETURN_MEANS = {
    "notice": (
        "The notice did not reach the recipient by mail. No date moves: the "
        "time to appeal and to comply counts from the notice's issuance "
        "(R-APL-1, R-NOV-1). Serve it another way (personal delivery or "
        "posting on the premises) and record that service."
    ),
    "hearing_notice": (
        "The appellant may not know of the hearing. No date moves: the hearing "
        "is due within 30 days of the filing (R-APL-2). Send the notice of "
        "hearing another way before the hearing and record that sending."
    ),
    "decision": (
        "The Board's duty was to mail it by certified mail (R-APL-3), and the "
        "mailing is recorded; the return moves no date (the five business days "
        "to correct count from the decision, R-COR-1). Send a copy another way "
        "for the record."
    ),
}


def outcome_words(paper: str, delivered_on, returned_on, return_reason) -> str:
    """The recorded outcome of one certified mailing, in words ("" when none)."""
    if delivered_on:
        return f"Delivered on {human_date(delivered_on)}."
    if returned_on:
        how = {
            MailOutcome.UNCLAIMED: "unclaimed",
            MailOutcome.REFUSED: "refused",
        }.get((return_reason or "").strip().lower(), "")
        head = f"Returned {how} on" if how else "Returned on"
        reason = (
            f" ({return_reason})"
            if return_reason and not how and return_reason.strip()
            else ""
        )
        return f"{head} {human_date(returned_on)}{reason}. {RETURN_MEANS[paper]}"
    return ""
