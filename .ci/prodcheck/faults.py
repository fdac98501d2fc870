"""The faults, each asserted, each with its figures (issue 15)."""

from __future__ import annotations

import concurrent.futures
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

from .common import MAIL_DOMAIN, CheckFailed, check, say, wait_for
from .visitor import Browser, Outcome, submit_report


# --- figures -------------------------------------------------------------------------
@dataclass
class Figures:
    fault: str
    sent: int = 0
    successes: int = 0
    rows: int = 0
    delivered: int = 0
    duplicates: int = 0
    lost: int = 0
    recovery: float | None = None
    notes: list[str] = field(default_factory=list)
    failed: bool = False

    def line(self) -> str:
        recovery = "-" if self.recovery is None else f"{self.recovery:.1f} s"
        return (
            f"{self.fault:<9} requests sent {self.sent:>3}  successes {self.successes:>3}"
            f"  rows stored {self.rows:>3}  messages delivered {self.delivered:>3}"
            f"  duplicates {self.duplicates}  lost {self.lost}  recovery {recovery}"
            + (f"  ({'; '.join(self.notes)})" if self.notes else "")
            + ("  FAILED" if self.failed else "")
        )


class Faults:
    """Mixed into prod_check.Check (its stack: self.pg, self.app, self.sink…)."""

    def mail(self, tag: str) -> str:
        return f"{tag}-{self.run_id}-"

    def address(self, tag: str, n) -> str:
        return f"{self.mail(tag)}{n}@{MAIL_DOMAIN}"

    def stored_codes(self, tag: str) -> set[str]:
        with self.pg.connect() as conn:
            rows = conn.execute(
                "SELECT tracking_code FROM cases_report WHERE reporter_email LIKE %s",
                (self.mail(tag) + "%",),
            ).fetchall()
        return {r[0] for r in rows}

    def stored_emails(self, tag: str) -> set[str]:
        with self.pg.connect() as conn:
            rows = conn.execute(
                "SELECT reporter_email FROM cases_report WHERE reporter_email LIKE %s",
                (self.mail(tag) + "%",),
            ).fetchall()
        return {r[0].lower() for r in rows}

    def wait_delivered(self, tag: str, expected: set[str], timeout: float) -> float:
        """Seconds until every address in `expected` got its receipt."""
        started = time.monotonic()

        def all_in():
            return expected <= set(self.sink.handler.to(self.mail(tag)))

        try:
            wait_for(all_in, timeout=timeout, what=f"the receipts of {tag}")
        except CheckFailed:
            missing = expected - set(self.sink.handler.to(self.mail(tag)))
            states = self.outbox_states(tag)
            raise CheckFailed(
                f"{len(missing)} receipt(s) of {tag} not delivered in {timeout:.0f} s "
                f"(outbox rows: {states})"
            ) from None
        return time.monotonic() - started

    def outbox_states(self, tag: str) -> dict:
        with self.pg.connect() as conn:
            rows = conn.execute(
                "SELECT status, count(*) FROM cases_outgoingmessage "
                "WHERE recipient LIKE %s GROUP BY status",
                (self.mail(tag) + "%",),
            ).fetchall()
        return dict(rows)

    def tally(self, figures: Figures, tag: str, outcomes: list[Outcome]) -> None:
        """Fill in and assert the figures of one batch of resident reports."""
        figures.sent = len(outcomes)
        ok = [o for o in outcomes if o.status == "ok"]
        figures.successes = len(ok)
        stored = self.stored_codes(tag)
        emails = self.stored_emails(tag)
        figures.rows = len(stored)
        delivered = self.sink.handler.to(self.mail(tag))
        figures.delivered = sum(delivered.values())
        figures.duplicates = sum(n - 1 for n in delivered.values() if n > 1)
        confirmed_not_stored = [o for o in ok if o.code not in stored]
        saved_not_confirmed = [
            o for o in outcomes if o.status != "ok" and o.email.lower() in emails
        ]
        not_delivered = emails - set(delivered)
        figures.lost = len(confirmed_not_stored) + len(not_delivered)
        check(
            not confirmed_not_stored,
            f"{tag}: {len(confirmed_not_stored)} confirmed report(s) not in the database",
        )
        check(
            not saved_not_confirmed,
            f"{tag}: {len(saved_not_confirmed)} report(s) saved but the resident saw "
            f"an error: {Counter(o.status for o in saved_not_confirmed)}",
        )
        check(not not_delivered, f"{tag}: {len(not_delivered)} receipt(s) lost")
        check(
            figures.duplicates == 0, f"{tag}: {figures.duplicates} duplicate receipt(s)"
        )

    def fault_smtp(self, figures: Figures) -> None:
        self.sink.stop()
        say("fault smtp: the mail server is down; 10 reports come in")
        resident = Browser(self.web_port)
        outcomes = [
            submit_report(resident, self.address("smtp", n), photo=n < 2)
            for n in range(10)
        ]
        bad = [o for o in outcomes if o.status != "ok"]
        check(not bad, f"smtp: residents saw errors with the mail server down: {bad}")
        time.sleep(3)  # attempts fail meanwhile (connection refused), to be retried
        check(
            not self.sink.handler.to(self.mail("smtp")),
            "smtp: mail arrived while down?",
        )
        states = self.outbox_states("smtp")
        check(states.get("pending") == 10, f"smtp: outbox rows while down: {states}")
        self.sink.start()
        figures.recovery = self.wait_delivered(
            "smtp", {o.email.lower() for o in outcomes}, timeout=60
        )
        figures.notes.append("recovery = mail server back → last receipt delivered")
        self.tally(figures, "smtp", outcomes)

    def fault_redis(self, figures: Figures) -> None:
        say("fault redis: 16 concurrent submitters for ~20 s, Redis stopped for 10 s")
        stop_at, outage = 5.0, 10.0
        duration = stop_at + outage + 5.0
        counter = iter(range(100000))
        lock = threading.Lock()
        outcomes: list[Outcome] = []
        start = time.monotonic()

        def submitter(n: int):
            browser = Browser(self.web_port)
            mine = []
            while time.monotonic() - start < duration:
                with lock:
                    k = next(counter)
                mine.append(submit_report(browser, self.address("redis", k)))
                time.sleep(0.05)
            return mine

        with concurrent.futures.ThreadPoolExecutor(16) as pool:
            futures = [pool.submit(submitter, n) for n in range(16)]
            time.sleep(stop_at)
            self.redis.stop()
            down_at = time.monotonic()
            say("fault redis: Redis stopped")
            time.sleep(outage)
            self.redis.start()
            up_at = time.monotonic()
            say(f"fault redis: Redis back after {up_at - down_at:.1f} s")
            for future in futures:
                outcomes.extend(future.result())
        statuses = Counter(o.status for o in outcomes)
        say(f"fault redis: outcomes {dict(statuses)}")
        stored = self.stored_emails("redis")
        figures.sent, figures.successes = len(outcomes), statuses["ok"]
        figures.rows = len(stored)
        self.wait_delivered("redis", stored, timeout=90)
        figures.recovery = time.monotonic() - up_at
        figures.notes.append("recovery = Redis back → last receipt delivered")
        errors = {s: n for s, n in statuses.items() if s != "ok"}
        if errors:
            figures.notes.append(f"not ok: {errors}")
        self.tally(figures, "redis", outcomes)
        # A clear "send it again" page (429/503) is allowed; an error page is not.
        server_errors = sum(
            n for s, n in statuses.items() if s.startswith(("http 5", "error"))
        )
        check(
            server_errors == 0,
            f"redis: {server_errors} resident request(s) answered 5xx or broke "
            f"while Redis was down ({errors}); the report limits fail open and the "
            "sign-in limits count in the database. `--skip-fault redis` leaves "
            "this fault out.",
        )

    def fault_worker(self, figures: Figures) -> None:
        say("fault worker: the sink pauses in RCPT; the worker is killed mid-delivery")
        self.sink.handler.slow = 60.0
        resident = Browser(self.web_port)
        outcomes = [
            submit_report(resident, self.address("worker", n)) for n in range(4)
        ]
        bad = [o for o in outcomes if o.status != "ok"]
        check(not bad, f"worker: reports failed: {bad}")
        wait_for(
            lambda: self.sink.handler.rcpts_seen(self.mail("worker")) >= 1,
            timeout=30,
            what="a delivery to reach RCPT",
        )
        in_flight = self.sink.handler.rcpts_seen(self.mail("worker"))
        self.app.kill("worker")
        killed_at = time.monotonic()
        say(f"fault worker: SIGKILL with {in_flight} delivery(ies) in RCPT")
        check(
            not self.sink.handler.to(self.mail("worker")),
            "worker: a message got through DATA before the kill",
        )
        self.sink.handler.slow = 0.0
        since = self.app.log_size("worker")
        self.app.start("worker")
        self.wait_worker(since=since)
        self.wait_delivered("worker", {o.email.lower() for o in outcomes}, 60)
        figures.recovery = time.monotonic() - killed_at
        figures.notes.append(
            f"{in_flight} in flight at the kill; recovery = kill → last receipt "
            "delivered (the outbox sweep re-queues)"
        )
        self.tally(figures, "worker", outcomes)

    def fault_postgres(self, figures: Figures) -> None:
        say("fault postgres: PostgreSQL stopped, then started")
        # Residents with the form open when the database goes (issue 31): each
        # sends during the outage, with the key its phone made.
        phones = [
            (Browser(self.web_port), self.address("outage", n), uuid.uuid4().hex)
            for n in range(3)
        ]
        forms = [browser.get("/report/") for browser, _, _ in phones]
        self.pg.stop("fast")
        during = [
            submit_report(browser, address, key=key, form=form)
            for (browser, address, key), form in zip(phones, forms, strict=True)
        ]
        check(
            all(o.status == "retry page" for o in during),
            "postgres: a report sent while the database was down was not answered "
            f"plainly 'not sent, try again': {[o.status for o in during]}",
        )
        down = Counter()
        until = time.monotonic() + 3
        while time.monotonic() < until:
            try:
                status, _ = self.healthz()
                down[status] += 1
            except OSError as exc:
                down[type(exc).__name__] += 1
            time.sleep(0.2)
        check(
            set(down) == {503},
            f"postgres: /healthz while the database is down answered {dict(down)}, "
            "not only 503",
        )
        started_at = time.monotonic()
        self.pg.start()
        up_at = time.monotonic()

        def site_answers():
            status, _ = self.healthz()
            home = Browser(self.web_port).get("/")
            return status == 200 and home.status == 200

        wait_for(site_answers, timeout=30, what="the site after PostgreSQL restarted")
        figures.recovery = time.monotonic() - started_at
        after = Counter()
        for _ in range(12):  # every gunicorn worker, persistent connections and all
            after[Browser(self.web_port).get("/report/").status] += 1
        check(set(after) == {200}, f"postgres: pages after the restart: {dict(after)}")
        # A restart nobody saw (the night's): no process noticed the database go,
        # so each holds a dead persistent connection; none may answer with it.
        self.pg.stop("fast")
        self.pg.start()
        quiet = Counter()
        for _ in range(12):
            quiet[Browser(self.web_port).get("/report/").status] += 1
        check(
            set(quiet) == {200},
            f"postgres: pages after a restart nobody saw: {dict(quiet)} "
            "(a dead persistent connection reused? CONN_HEALTH_CHECKS)",
        )
        resident = Browser(self.web_port)
        outcomes = [
            submit_report(resident, self.address("postgres", n)) for n in range(3)
        ]
        bad = [o for o in outcomes if o.status != "ok"]
        check(not bad, f"postgres: reports after the restart failed: {bad}")
        self.wait_delivered("postgres", {o.email.lower() for o in outcomes}, 60)
        # The phones send their reports again, each twice (the first answer
        # lost): one report per key, the same code at both sendings.
        resent = [
            (
                submit_report(browser, address, key=key),
                submit_report(browser, address, key=key),
            )
            for browser, address, key in phones
        ]
        check(
            all(a.status == b.status == "ok" and a.code == b.code for a, b in resent),
            f"postgres: reports sent again after the restart: {resent}",
        )
        check(
            self.stored_codes("outage") == {a.code for a, _ in resent},
            "postgres: the reports sent during the outage are not stored once each: "
            f"{sorted(self.stored_codes('outage'))}",
        )
        self.wait_delivered("outage", {a.email.lower() for a, _ in resent}, 60)
        figures.notes.append(
            f"{len(during)} reports sent while down, each answered 'try again'; "
            "sent twice after the restart, each stored once"
        )
        figures.notes.append(
            f"/healthz while down: {down[503]}× 503; recovery = start of "
            f"PostgreSQL (ready in {up_at - started_at:.1f} s) → /healthz 200 and "
            f"the home page; then {after[200]} pages 200; after a second, unseen "
            f"restart {quiet[200]} pages 200"
        )
        self.tally(figures, "postgres", outcomes)

    def final_duplicates(self) -> None:
        """After a pause longer than the sweep's, nothing was sent twice."""
        time.sleep(7)
        everyone = self.sink.handler.to("")
        twice = {r: n for r, n in everyone.items() if n > 1}
        check(not twice, f"sent more than once after settling: {twice}")
        pending = self.pg.scalar(
            "SELECT count(*) FROM cases_outgoingmessage WHERE status <> 'sent'"
        )
        check(pending == 0, f"{pending} outbox row(s) not sent at the end")
        say(f"settled: {sum(everyone.values())} messages, none twice, none pending")
