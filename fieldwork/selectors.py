"""What the SMO's page of kept records reads."""

from .forms import SampleForm, ScreeningForm, VisitForm
from .models import FieldRecord
from .services import provenance

# The records decided lately, shown below those waiting.
DECIDED_SHOWN = 20


def _rows():
    return FieldRecord.objects.select_related(
        "inspector", "inspection__premises", "outfall", "decided_by"
    ).prefetch_related("photos")


def contents(record: FieldRecord) -> list[tuple[str, str]]:
    """What the phone sent, field by field, in the office form's words (a choice
    by its label; a field the phone left out is not listed)."""
    form = (VisitForm if record.kind == FieldRecord.Kind.VISIT else ScreeningForm)()
    rows = []
    for name, field in form.fields.items():
        if name not in record.fields:
            continue
        value = record.fields[name]
        choices = dict(getattr(field, "choices", ()) or ())
        shown = choices.get(value, value)
        if isinstance(shown, bool):
            shown = "yes" if shown else "no"
        rows.append(
            (str(field.label or name.replace("_", " ").capitalize()), str(shown))
        )
    sample = SampleForm()
    for entry in record.fields.get("samples") or []:
        if isinstance(entry, dict):
            rows.append(
                (
                    "Sample",
                    f"{entry.get('parameter', '')} · {sample.fields['bottle'].label}: "
                    f"{entry.get('bottle', '')}",
                )
            )
    return rows


def _described(records):
    for record in records:
        record.rows = contents(record)
        record.provenance = provenance(record)
    return records


def kept_page() -> dict:
    waiting = list(
        _rows().filter(state=FieldRecord.State.NEEDS_ATTENTION).order_by("received_at")
    )
    decided = list(
        _rows()
        .filter(state__in=(FieldRecord.State.APPLIED, FieldRecord.State.SET_ASIDE))
        .exclude(decided_at=None)
        .order_by("-decided_at")[:DECIDED_SHOWN]
    )
    return {"waiting": _described(waiting), "decided": _described(decided)}


def waiting_count() -> int:
    return FieldRecord.objects.filter(state=FieldRecord.State.NEEDS_ATTENTION).count()
