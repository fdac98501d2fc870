"""Seed the bench database with 100 villages' yearly volume, fast and repeatably.

50,000 cases with their reports, 1,000,000 timeline events (one case with a long
timeline), 1,000,000 deadlines (mostly met or not due soon), notices, appeals,
premises and parties, written with PostgreSQL COPY from a fixed random seed.

A marker table (bench_seed) says the data set is there: a second run skips the
work; ``--reseed`` drops and recreates the database first.

    python bench/seed.py [--reseed]
"""

import datetime as dt
import os
import random
import sys
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poquott_ms4.settings.bench")

SEED = 20260132
DATASET = "v2"  # bump when the shape of the data set changes (v2: fines)
N_CASES = 50_000
N_EVENTS = 1_000_000
N_DEADLINES = 1_000_000
N_PREMISES = 20_000
N_PARTIES = 15_000
N_TRIAGE = 300  # reports waiting for triage
LONG_TIMELINE = 800  # events on the long-timeline case
LONG_CASE_ID = 1
API_KEY = "bench-open311-key"
STAFF_PASSWORD = "bench-password"
FINES = [200, 350, 500, 700, 1000]  # dollars: the tiers of R-PEN-1..3 (§ 132-13 B)

STREETS = [
    "Birchwood Rd",
    "Washington Ave",
    "Tyron Rd",
    "Dyke Rd",
    "Van Brunt Manor Rd",
    "Thompson Hill",
    "Sound Rd",
    "Harbor Rd",
    "Poquott Ave",
    "Park Ave",
    "Beach Rd",
    "Anchorage Rd",
]
FIRST = ["Ann", "Bill", "Carla", "Dev", "Elena", "Frank", "Grace", "Hugo", "Ines"]
LAST = ["Abbott", "Barnes", "Cruz", "Doyle", "Evans", "Fischer", "Gupta", "Hale"]
CLOSED = ["resolved", "unfounded", "exempt", "referred", "duplicate"]


def _setup_django():
    import django

    django.setup()


def _maintenance_dsn():
    from django.db import connection

    s = connection.settings_dict
    return s, {
        "host": s["HOST"] or None,
        "port": s["PORT"] or None,
        "user": s["USER"] or None,
        "password": s["PASSWORD"] or None,
        "dbname": "postgres",
    }


def recreate_database():
    import psycopg
    from django.db import connections

    settings_dict, params = _maintenance_dsn()
    connections.close_all()
    name = settings_dict["NAME"]
    with psycopg.connect(**params, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def migrate():
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)


def marker():
    """The seeded data set's marker row, or None."""
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("SELECT to_regclass('bench_seed')")
        if cur.fetchone()[0] is None:
            return None
        cur.execute("SELECT dataset, seeded_at, seconds FROM bench_seed LIMIT 1")
        return cur.fetchone()


def _model_defaults(cur, table, columns) -> dict:
    """{column: the model field's default} for the NOT NULL columns of `table`
    without a database default that `columns` leaves out: fields added to the
    models after this seed was written (a COPY would put NULL in them)."""
    from django.apps import apps
    from psycopg.types.json import Jsonb

    cur.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = %s "
        "AND is_nullable = 'NO' AND column_default IS NULL AND is_identity = 'NO' "
        "AND is_generated = 'NEVER'",
        [table],
    )
    missing = [name for (name,) in cur.fetchall() if name not in columns]
    if not missing:
        return {}
    model = next(m for m in apps.get_models() if m._meta.db_table == table)
    fields = {f.column: f for f in model._meta.concrete_fields}
    defaults = {}
    for name in missing:
        value = fields[name].get_default()
        defaults[name] = Jsonb(value) if isinstance(value, (dict, list)) else value
    return defaults


def _copy(cur, table, columns, rows):
    extra = _model_defaults(cur, table, columns)
    columns = [*columns, *extra]
    tail = tuple(extra.values())
    n = 0
    with cur.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row((*row, *tail))
            n += 1
    return n


def _setval(cur, table):
    cur.execute(
        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
        f"(SELECT COALESCE(MAX(id), 1) FROM {table}))"
    )


def _users():
    from django.contrib.auth.models import Group, User

    from intake.models import ApiKey
    from kernel.roles import Role

    made = {}
    for username, role in [
        ("smo", Role.SMO),
        ("smo2", Role.SMO),
        ("clerk", Role.CLERK),
        ("attorney", Role.ATTORNEY),
    ]:
        user, _ = User.objects.get_or_create(
            username=username, defaults={"email": f"{username}@poquott.example"}
        )
        user.set_password(STAFF_PASSWORD)
        user.save()
        user.groups.add(Group.objects.get(name=role))
        made[username] = user
    if not ApiKey.objects.filter(key_hash=ApiKey.hash_of(API_KEY)).exists():
        # A known key, so the load generator can send it: the bench's own
        # database only (keys anywhere else are generated).
        bench_client = ApiKey(client_name="Bench client", reports_per_hour=10**9)
        bench_client.set_key(API_KEY)
        bench_client.save()
    return made


def seed(stdout=print):
    """Write the data set; returns seconds taken."""
    from django.contrib.contenttypes.models import ContentType
    from django.db import connection, transaction
    from django.utils import timezone

    from cases.models import CaseNumberSequence
    from deadlines.engine import RULES
    from enforcement.models import Appeal
    from intake.models import PollutantCategory

    rng = random.Random(SEED)
    started = time.perf_counter()
    users = _users()
    smo_ids = [users["smo"].pk, users["smo2"].pk]
    categories = list(PollutantCategory.objects.values_list("pk", "code"))
    appeal_ct = ContentType.objects.get_for_model(Appeal).pk
    now = timezone.now().replace(microsecond=0)
    today = timezone.localdate()
    year_start = now - dt.timedelta(days=365)
    rule_ids = sorted(RULES)
    tracking_alphabet = "ABCDEFGHJKMNPQRSTVWXYZ23456789"
    seen_codes = set()

    def code():
        while True:
            body = "".join(rng.choice(tracking_alphabet) for _ in range(8))
            c = f"PQ-{body[:4]}-{body[4:]}"
            if c not in seen_codes:
                seen_codes.add(c)
                return c

    def lat():
        return Decimal(f"{40.9500 + rng.random() * 0.0200:.6f}")

    def lon():
        return Decimal(f"{-73.0950 + rng.random() * 0.0200:.6f}")

    with transaction.atomic(), connection.cursor() as django_cur:
        cur = django_cur.cursor  # the psycopg cursor, for COPY
        t = time.perf_counter()
        n = _copy(
            cur,
            "cases_premises",
            ["id", "address", "tax_map_number", "land_use", "latitude", "longitude"]
            + ["notes"],
            (
                (
                    i,
                    f"{rng.randint(1, 400)} {rng.choice(STREETS)} #{i}",
                    f"0200-{i % 999:03d}.00-01.00-{i:03d}.000",
                    rng.choices(
                        ["residential", "commercial", "industrial", "construction"],
                        [85, 8, 2, 5],
                    )[0],
                    lat(),
                    lon(),
                    "",
                )
                for i in range(1, N_PREMISES + 1)
            ),
        )
        n += _copy(
            cur,
            "cases_party",
            ["id", "kind", "name", "contact_person", "mailing_address", "email"]
            + ["phone"],
            (
                (
                    i,
                    "person",
                    f"{rng.choice(FIRST)} {rng.choice(LAST)} {i}",
                    "",
                    f"{rng.randint(1, 400)} {rng.choice(STREETS)}\nPoquott NY 11733",
                    f"party{i}@example.org",
                    "",
                )
                for i in range(1, N_PARTIES + 1)
            ),
        )
        stdout(f"  premises, parties: {n:,} rows, {time.perf_counter() - t:.1f} s")

        # Cases: opened over the last year, 70 % closed.
        t = time.perf_counter()
        cases = []  # (id, opened_at, status, party_id)
        per_year = {}
        case_rows = []
        for i in range(1, N_CASES + 1):
            opened = year_start + dt.timedelta(seconds=int(rng.random() * 365 * 86400))
            if i == LONG_CASE_ID:
                opened = year_start + dt.timedelta(days=1)
            status = rng.choices(
                ["new", "investigating", "violation_confirmed", "enforcement"] + CLOSED,
                [6, 10, 4, 8, 40, 18, 6, 4, 4],
            )[0]
            if i == LONG_CASE_ID:
                status = "enforcement"
            per_year[opened.year] = per_year.get(opened.year, 0) + 1
            number = f"MS4-{opened.year}-{per_year[opened.year]:05d}"
            party = rng.randint(1, N_PARTIES)
            has_party = status in ("violation_confirmed", "enforcement", "resolved")
            closed_at = (
                opened + dt.timedelta(days=rng.randint(1, 60))
                if status in CLOSED
                else None
            )
            cases.append((i, opened, status, party if has_party else None))
            case_rows.append(
                (
                    i,
                    number,
                    rng.choice(["illicit_discharge"] * 6 + ["illicit_connection"])
                    if status != "new"
                    else "illicit_discharge",
                    rng.choice(["web", "open311", "phone", "observation"]),
                    status,
                    f"Discharge reported at {rng.choice(STREETS)}",
                    "Bench case.",
                    "",
                    lat(),
                    lon(),
                    opened,
                    closed_at,
                    "Bench." if status in ("unfounded", "duplicate") else "",
                    "",
                    "",
                    "",
                    "",
                    "",
                    "",
                    0,
                    rng.choice(smo_ids) if rng.random() < 0.8 else None,
                    smo_ids[0],
                    rng.randint(1, N_PREMISES) if rng.random() < 0.85 else None,
                    party if has_party else None,
                    0,
                )
            )
        n = _copy(
            cur,
            "cases_case",
            [
                "id",
                "number",
                "kind",
                "source",
                "status",
                "summary",
                "description",
                "location_description",
                "latitude",
                "longitude",
                "opened_at",
                "closed_at",
                "closing_reason",
                "exemption_basis",
                "exemption_reference",
                "referred_to",
                "referral_outcome",
                "violation_finding",
                "verification",
                "reopen_count",
                "assigned_officer_id",
                "opened_by_id",
                "premises_id",
                "responsible_party_id",
                "version",
            ],
            case_rows,
        )
        for year, last in per_year.items():
            CaseNumberSequence.objects.update_or_create(
                year=year, defaults={"last": last}
            )
        n += _copy(
            cur,
            "cases_caseparty",
            ["role", "added_at", "case_id", "party_id"],
            (
                ("owner", opened, cid, party)
                for cid, opened, _status, party in cases
                if party
            ),
        )
        stdout(f"  cases: {n:,} rows, {time.perf_counter() - t:.1f} s")

        # Reports: one per case, a second on a fifth of them, and a triage queue.
        t = time.perf_counter()
        report_rows = []
        rid = 0
        for cid, opened, _status, _party in cases:
            for extra in range(2 if rng.random() < 0.2 else 1):
                rid += 1
                received = opened + dt.timedelta(hours=extra * rng.randint(1, 48))
                report_rows.append(
                    (rid, received, cid, received, rng.choice(categories)[1])
                )
        for _ in range(N_TRIAGE):
            rid += 1
            received = now - dt.timedelta(minutes=rng.randint(1, 7 * 24 * 60))
            report_rows.append((rid, received, None, None, rng.choice(categories)[1]))

        def report_row(r):
            rid, received, cid, attached, service = r
            channel = rng.choices(["web", "open311", "phone"], [60, 25, 15])[0]
            return (
                rid,
                code(),
                channel,
                received,
                "Brown water running into the storm drain near the curb.",
                "",
                "",
                rng.random() < 0.2,
                False,
                False,
                "",
                received,
                f"{rng.randint(1, 400)} {rng.choice(STREETS)}",
                lat(),
                lon(),
                "",
                f"r{rid}@example.org" if rng.random() < 0.4 else "",
                "",
                rng.random() < 0.3,
                service if channel == "open311" else "",
                "",
                attached,
                cid,
            )

        n = _copy(
            cur,
            "cases_report",
            [
                "id",
                "tracking_code",
                "channel",
                "received_at",
                "description",
                "colour",
                "odour",
                "sheen",
                "suds",
                "floatables",
                "flow",
                "observed_at",
                "address",
                "latitude",
                "longitude",
                "reporter_name",
                "reporter_email",
                "reporter_phone",
                "wants_updates",
                "service_code",
                "media_url",
                "attached_at",
                "case_id",
            ],
            (report_row(r) for r in report_rows),
        )
        n += _copy(
            cur,
            "cases_report_pollutant_categories",
            ["report_id", "pollutantcategory_id"],
            ((r[0], rng.choice(categories)[0]) for r in report_rows),
        )
        stdout(f"  reports: {n:,} rows, {time.perf_counter() - t:.1f} s")

        # Timeline events: 800 on the long case, the rest spread over the others.
        t = time.perf_counter()
        spread = N_EVENTS - LONG_TIMELINE
        weights = [rng.random() + 0.2 for _ in range(N_CASES - 1)]
        total_w = sum(weights)
        counts = [LONG_TIMELINE] + [max(1, int(spread * w / total_w)) for w in weights]
        counts[-1] += N_EVENTS - sum(counts)
        kinds = ["note", "transition", "deadline", "report", "edit", "inspection"]

        def events():
            for (cid, opened, _status, _party), count in zip(
                cases, counts, strict=True
            ):
                at = opened
                yield (at, "opened", "Case opened", "", "", "new", "", True, None, cid)
                for _ in range(count - 1):
                    at = at + dt.timedelta(minutes=rng.randint(5, 600))
                    kind = rng.choice(kinds)
                    yield (
                        at,
                        kind,
                        f"{kind.title()} recorded",
                        "",
                        "",
                        "",
                        "R-NOV-1" if kind == "transition" else "",
                        kind == "transition",
                        smo_ids[0],
                        cid,
                    )

        n = _copy(
            cur,
            "cases_caseevent",
            [
                "at",
                "kind",
                "summary",
                "detail",
                "from_status",
                "to_status",
                "rule_id",
                "public",
                "actor_id",
                "case_id",
            ],
            events(),
        )
        stdout(f"  events: {n:,} rows, {time.perf_counter() - t:.1f} s")

        # Notices on cases past confirmation; appeals on a fifth of issued ones.
        t = time.perf_counter()
        notices, nid = [], 0
        for cid, opened, status, party in cases:
            if status in ("enforcement", "resolved") and party:
                if status == "resolved" and rng.random() < 0.7:
                    continue
                nid += 1
                issued = (opened + dt.timedelta(days=rng.randint(3, 20))).date()
                nstatus = (
                    "issued"
                    if status == "enforcement"
                    else rng.choice(["complied", "complied", "withdrawn"])
                )
                notices.append((nid, cid, party, issued, nstatus))
        n = _copy(
            cur,
            "enforcement_noticeofviolation",
            [
                "id",
                "status",
                "violation_date",
                "findings",
                "remediation_days",
                "fine_computation",
                "recipient_name",
                "recipient_address",
                "issued_on",
                "compliance_note",
                "escalation_note",
                "withdrawn_reason",
                "created_at",
                "case_id",
                "created_by_id",
                "issued_by_id",
                "recipient_id",
            ],
            (
                (
                    nid,
                    nstatus,
                    issued - dt.timedelta(days=2),
                    "Illicit discharge of wash water to the MS4.",
                    30,
                    "",
                    f"Party {party}",
                    "1 Harbor Rd\nPoquott NY 11733",
                    issued,
                    "",
                    "",
                    "",
                    dt.datetime.combine(issued, dt.time(10), tzinfo=dt.UTC),
                    cid,
                    smo_ids[0],
                    smo_ids[0],
                    party,
                )
                for nid, cid, party, issued, nstatus in notices
            ),
        )
        appeals, aid = [], 0
        for nid, _cid, party, issued, _nstatus in notices:
            if rng.random() < 0.2:
                aid += 1
                filed = issued + dt.timedelta(days=rng.randint(1, 15))
                recent = (today - filed).days < 45
                astatus = (
                    rng.choice(["filed", "hearing_scheduled", "decided"])
                    if recent
                    else rng.choice(["closed", "closed", "withdrawn"])
                )
                appeals.append((aid, nid, party, issued, filed, astatus))
        n += _copy(
            cur,
            "enforcement_appeal",
            [
                "id",
                "status",
                "filed_on",
                "grounds",
                "appeal_due",
                "is_late",
                "hearing_at",
                "hearing_location",
                "hearing_past_limit",
                "decision",
                "decided_on",
                "resolution",
                "mail_article_number",
                "withdrawn_reason",
                "recorded_at",
                "appellant_id",
                "recorded_by_id",
                "notice_id",
            ],
            (
                (
                    aid,
                    astatus,
                    filed,
                    "The discharge was rain water.",
                    issued + dt.timedelta(days=15),
                    False,
                    dt.datetime.combine(
                        filed + dt.timedelta(days=20), dt.time(19), tzinfo=dt.UTC
                    )
                    if astatus != "filed"
                    else None,
                    "Village Hall" if astatus != "filed" else "",
                    False,
                    "upheld" if astatus in ("decided", "closed") else "",
                    filed + dt.timedelta(days=20)
                    if astatus in ("decided", "closed")
                    else None,
                    "",
                    "",
                    "",
                    dt.datetime.combine(filed, dt.time(9), tzinfo=dt.UTC),
                    party,
                    users["clerk"].pk,
                    nid,
                )
                for aid, nid, party, issued, filed, astatus in appeals
            ),
        )
        stdout(
            f"  notices, appeals: {len(notices):,} + {len(appeals):,}, "
            f"{time.perf_counter() - t:.1f} s"
        )

        # Fines (issue 27): most notices carry one, payable by the notice's last
        # day to appeal (R-APL-1). Most are paid by then; of the rest, some are
        # referred to the Justice Court months later, the others past due (the
        # SMO's queue on the dashboard).
        t = time.perf_counter()
        fines_rng = random.Random(SEED + 27)  # the rest of the data set as in v1
        charges, payments = [], []
        for nid, cid, party, issued, nstatus in notices:
            if nstatus == "withdrawn" or fines_rng.random() < 0.3:
                continue
            due = issued + dt.timedelta(days=15)
            paid = due < today and fines_rng.random() < (
                0.9 if nstatus == "complied" else 0.6
            )
            referred = None
            if (
                not paid
                and due < today - dt.timedelta(days=120)
                and fines_rng.random() < 0.3
            ):
                referred = due + dt.timedelta(days=90)
            charges.append(
                (
                    nid,
                    cid,
                    party,
                    issued,
                    due,
                    referred,
                    Decimal(fines_rng.choice(FINES)),
                )
            )
            if paid:
                received = due - dt.timedelta(days=fines_rng.randint(0, 10))
                payments.append((len(charges), max(received, issued)))
        n = _copy(
            cur,
            "ledger_charge",
            [
                "id",
                "kind",
                "amount",
                "reference",
                "issued_on",
                "due_on",
                "due_rule_id",
                "due_explanation",
                "write_off_reason",
                "referred_on",
                "received",
                "created_at",
                "case_id",
                "payer_id",
                "notice_id",
                "created_by_id",
            ],
            (
                (
                    i,
                    "nov_fine",
                    amount,
                    f"NOV-{nid}",
                    issued,
                    due,
                    "R-APL-1",
                    "The last day to appeal the notice (15 days after it was served).",
                    "",
                    referred,
                    "0.00",  # filled in from the payments below
                    dt.datetime.combine(issued, dt.time(10), tzinfo=dt.UTC),
                    cid,
                    party,
                    nid,
                    smo_ids[0],
                )
                for i, (nid, cid, party, issued, due, referred, amount) in enumerate(
                    charges, start=1
                )
            ),
        )
        amounts = {i: c[6] for i, c in enumerate(charges, start=1)}
        n += _copy(
            cur,
            "ledger_payment",
            [
                "id",
                "received_on",
                "amount",
                "method",
                "check_number",
                "receipt_number",
                "recorded_at",
                "void_reason",
                "charge_id",
                "recorded_by_id",
            ],
            (
                (
                    i,
                    received,
                    amounts[charge_id],
                    "check",
                    str(1000 + i),
                    f"{received.year}-{i:06d}",
                    dt.datetime.combine(received, dt.time(11), tzinfo=dt.UTC),
                    "",
                    charge_id,
                    users["clerk"].pk,
                )
                for i, (charge_id, received) in enumerate(payments, start=1)
            ),
        )
        from ledger.models import Charge

        Charge.objects.keep_received()  # as Payment.save keeps it
        stdout(
            f"  fines, payments: {len(charges):,} + {len(payments):,}, "
            f"{time.perf_counter() - t:.1f} s"
        )

        # Deadlines: appeal limits first, then ~20 per case. 90 % closed; of the
        # open ones most are due months ahead, a few hundred overdue or due soon.
        t = time.perf_counter()
        case_by_id = {c[0]: c for c in cases}

        def deadlines():
            n = 0
            for aid, nid, _party, _issued, filed, astatus in appeals:
                open_ = astatus in ("filed", "hearing_scheduled", "decided")
                for rule, purpose, days in [
                    ("R-APL-2", "", 30),
                    ("R-APL-3", "file", 50),
                    ("R-APL-3", "mail", 50),
                ]:
                    n += 1
                    due = filed + dt.timedelta(days=days)
                    cid = notices[nid - 1][1]
                    yield _deadline(
                        rule, purpose, filed, due, "open" if open_ else "met", cid
                    ) + (appeal_ct, aid)
            case_ids = list(case_by_id)
            while n < N_DEADLINES:
                n += 1
                cid = rng.choice(case_ids)
                _, opened, status, _party = case_by_id[cid]
                event = opened.date() + dt.timedelta(days=rng.randint(0, 30))
                r = rng.random()
                if r < 0.9 or status in CLOSED:
                    due = event + dt.timedelta(days=rng.randint(5, 60))
                    dstatus = rng.choices(["met", "missed", "waived"], [90, 5, 5])[0]
                elif r < 0.9985:
                    due = today + dt.timedelta(days=rng.randint(30, 400))
                    dstatus = "open"
                elif r < 0.9993:
                    due = today - dt.timedelta(days=rng.randint(1, 60))
                    dstatus = "open"
                else:
                    due = today + dt.timedelta(days=rng.randint(0, 12))
                    dstatus = "open"
                yield _deadline(
                    rng.choice(rule_ids), f"b{n}", event, due, dstatus, cid
                ) + (None, None)

        def _deadline(rule, purpose, event, due, status, cid):
            return (
                rule,
                f"Bench deadline under {rule}",
                "the event",
                event,
                due,
                "Counted in calendar days.",
                "calendar_days",
                "{}",
                "smo" if rng.random() < 0.9 else "discharger",
                "owner@example.org",
                status,
                due if status in ("met", "missed") else None,
                "Bench." if status == "waived" else "",
                purpose,
                dt.datetime.combine(event, dt.time(9), tzinfo=dt.UTC),
                rng.choice(smo_ids) if rng.random() < 0.7 else None,
                cid,
            )

        n = _copy(
            cur,
            "cases_deadline",
            [
                "rule_id",
                "label",
                "counts_from",
                "event_date",
                "due_date",
                "explanation",
                "method",
                "params",
                "responsible",
                "notify_email",
                "status",
                "met_on",
                "waived_reason",
                "purpose",
                "created_at",
                "assigned_to_id",
                "case_id",
                "content_type_id",
                "object_id",
            ],
            deadlines(),
        )
        stdout(f"  deadlines: {n:,} rows, {time.perf_counter() - t:.1f} s")
        for table in [
            "cases_premises",
            "cases_party",
            "cases_case",
            "cases_report",
            "enforcement_noticeofviolation",
            "enforcement_appeal",
            "ledger_charge",
            "ledger_payment",
        ]:
            _setval(cur, table)

    # Yesterday's sweep already ran: the overdue deadlines have had their
    # reminders (sent), so the measured sweep is a normal day's.
    t = time.perf_counter()
    from deadlines.models import Reminder, StaffDigest
    from deadlines.reminders import sweep_reminders
    from outbox.models import OutgoingMessage

    result = sweep_reminders(today=today - dt.timedelta(days=1))
    Reminder.objects.update(sent_at=now)
    StaffDigest.objects.update(sent_at=now)
    OutgoingMessage.objects.filter(status="pending").update(status="sent", sent_at=now)
    stdout(
        f"  yesterday's sweep: {result['created']:,} reminders, "
        f"{time.perf_counter() - t:.1f} s"
    )
    with connection.cursor() as cur:
        # What autovacuum does on a live site, done now: statistics for the
        # planner, and the visibility map that lets a COUNT or an id list be
        # answered from an index alone. Without it the first run after seeding
        # measured the hint-bit writes of freshly COPYed rows (filtered case
        # list 172 ms, 48 ms once vacuumed).
        cur.execute("VACUUM (ANALYZE)")
        cur.execute(
            "CREATE TABLE bench_seed (dataset text, seeded_at timestamptz, "
            "seconds double precision)"
        )
        seconds = time.perf_counter() - started
        cur.execute("INSERT INTO bench_seed VALUES (%s, now(), %s)", [DATASET, seconds])
    return seconds


def ensure_seeded(*, reseed=False, stdout=print) -> tuple[float, bool]:
    """Seed unless the marker says the data set is there. (seconds, seeded now)."""
    if reseed or not _database_exists():
        stdout("Creating the bench database...")
        recreate_database()
    migrate()
    found = marker()
    if found and found[0] == DATASET:
        stdout(
            f"Bench data set {found[0]} present (seeded {found[1]:%Y-%m-%d %H:%M}, "
            f"{found[2]:.0f} s); use --reseed to rebuild."
        )
        removed = remove_load_reports()
        if removed:
            stdout(f"Removed {removed:,} rows an earlier load test left.")
        return found[2], False
    if found or _has_rows():
        stdout("The bench database holds other data: recreating it.")
        recreate_database()
        migrate()
    stdout("Seeding 100 villages' yearly volume...")
    seconds = seed(stdout=stdout)
    stdout(f"Seeded in {seconds:.0f} s.")
    return seconds, True


def _database_exists() -> bool:
    import psycopg

    settings_dict, params = _maintenance_dsn()
    with psycopg.connect(**params, autocommit=True) as conn:
        found = conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [settings_dict["NAME"]]
        ).fetchone()
    return found is not None


def _has_rows() -> bool:
    from cases.models import Case

    return Case.objects.exists()


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    _setup_django()
    ensure_seeded(reseed="--reseed" in argv)


if __name__ == "__main__":
    main()


# The descriptions the load test's reports carry (bench/load.py).
LOAD_REPORT_MARKS = ("Bench load report ", "Bench Open311 request ")


def remove_load_reports() -> int:
    """Delete the reports the load test stored, so every run measures the data
    set as seeded: each run added ~5,700 reports waiting for triage, which the
    next run's dashboard and Open311 list then read (issue 28)."""
    from django.db.models import Q

    from intake.models import Report

    marked = Q()
    for mark in LOAD_REPORT_MARKS:
        marked |= Q(description__startswith=mark)
    removed, _ = Report.objects.filter(marked, case__isnull=True).delete()
    return removed
