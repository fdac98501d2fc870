"""The kernel's guard may say its reason for one record (issue 25): `words`
computes it from the record (a date to wait for); `text` stays the general
statement the transitions table prints."""

from types import SimpleNamespace

from kernel.workflow import _reason_for, guard, refusal_text


@guard(
    "wait until the time to appeal is over",
    form=False,
    rule="R-APL-1",
    words=lambda record: f"the respondent may appeal until {record.until}",
)
def appeal_time_over(record) -> bool:
    return False


@guard("record the date of compliance")
def has_complied_on(record) -> bool:
    return False


def test_a_guard_with_words_says_its_reason_for_the_record():
    record = SimpleNamespace(until="Monday, December 28, 2026")
    reason = _reason_for(appeal_time_over, record)
    assert reason.text == "the respondent may appeal until Monday, December 28, 2026"
    assert reason.rule_id == "R-APL-1"
    assert reason.form is False


def test_without_a_record_the_guard_says_its_general_text():
    assert refusal_text(appeal_time_over) == "wait until the time to appeal is over"


def test_a_guard_without_words_says_its_text_for_any_record():
    record = SimpleNamespace()
    assert refusal_text(has_complied_on, record) == "record the date of compliance"
