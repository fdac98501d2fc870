#!/usr/bin/env python
"""`make prod-check`: the production stack, started and proven end to end.

Starts, with `poquott_ms4.settings.production` and through the same command
lines as docker-compose.yml (`python -m poquott_ms4.processes web|worker|beat|
migrate`): gunicorn, a Celery worker and Celery beat, against a PRIVATE
PostgreSQL cluster and a PRIVATE Redis (this machine's own binaries, on free
ports, in a temporary folder, so stopping them for the faults disturbs nobody),
with an SMTP sink (aiosmtpd) in this process as the mail server. This process is
also the TLS proxy: every request says `X-Forwarded-Proto: https`, POSTs carry
the matching Origin and Referer, and cookies (Secure ones) are kept here.

Then, over HTTP: a resident files a report with a photo and the receipt reaches
the sink; the SMO signs in, opens the dashboard, drafts and issues a notice of
violation and downloads its PDF (rendered by the worker); /healthz is healthy.
Then the faults, each asserted, each printing its figures:
  smtp      the mail server down while 10 reports come in
  redis     Redis stopped for 10 s during 16 concurrent submitters
  worker    the worker SIGKILLed mid-delivery (in the SMTP RCPT), restarted
  postgres  PostgreSQL stopped and started again
Exits non-zero with a clear message on any failure; always stops what it
started. `--skip-fault NAME` leaves a fault out (repeatable)."""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path

from prodcheck.common import ROOT, STARTED, CheckFailed, check, free_port, say, wait_for
from prodcheck.faults import Faults, Figures
from prodcheck.stack import App, PrivatePostgres, PrivateRedis, SmtpSink
from prodcheck.visitor import Browser
from prodcheck.walk import Walk

FAULTS = ("smtp", "redis", "worker", "postgres")


class Check(Walk, Faults):
    """One run: the stack it starts (private PostgreSQL and Redis, the SMTP
    sink, the app's processes), the walk, the faults and their figures."""

    def __init__(self, args):
        self.args = args
        self.folder = Path(tempfile.mkdtemp(prefix="ms4-prod-check-"))
        self.folder.chmod(0o755)  # the postgres user reaches its folders inside
        self.pg = PrivatePostgres(self.folder)
        self.redis = PrivateRedis(self.folder)
        self.sink = SmtpSink()
        self.web_port = free_port()
        self.app: App | None = None
        self.figures: list[Figures] = []
        self.run_id = secrets.token_hex(3)

    # --- setting up --------------------------------------------------------------
    def environment(self) -> dict:
        env = {
            k: v
            for k, v in os.environ.items()
            if k
            not in {"DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "EMAIL_URL", "CI"}
        }
        origin = f"https://127.0.0.1:{self.web_port}"
        (self.folder / "home").mkdir(exist_ok=True)
        env.update(
            # gunicorn's control socket lands in $HOME/.gunicorn: ours, not root's.
            HOME=str(self.folder / "home"),
            PYTHONPATH=str(ROOT),
            DJANGO_SETTINGS_MODULE="poquott_ms4.settings.production",
            SECRET_KEY="prod-check-" + secrets.token_hex(32),
            ALLOWED_HOSTS="127.0.0.1",
            CSRF_TRUSTED_ORIGINS=origin,
            SITE_URL=origin,
            DATABASE_URL=self.pg.url("ms4"),
            REDIS_URL=self.redis.url,
            EMAIL_URL=f"smtp://127.0.0.1:{self.sink.port}",
            EMAIL_TIMEOUT="30",
            VAR_DIR=str(self.folder / "var"),
            HOST="127.0.0.1",
            PORT=str(self.web_port),
            WEB_CONCURRENCY="3",
            TRUSTED_PROXIES="127.0.0.1",  # the check is the TLS proxy
            WORKER_CONCURRENCY="2",
            LOG_LEVEL="INFO",
            # Small outbox timings, so a fault heals within seconds.
            OUTBOX_MAX_ATTEMPTS="50",
            OUTBOX_RETRY_BACKOFF_SECONDS="1",
            OUTBOX_RETRY_BACKOFF_MAX_SECONDS="3",
            OUTBOX_REQUEUE_AFTER_SECONDS="5",
            OUTBOX_SWEEP_SECONDS="2",
            DOCUMENT_RESWEEP_SECONDS="5",
            # Every resident here comes from 127.0.0.1.
            REPORT_RATE_LIMIT_COUNT="100000",
        )
        return env

    def start_stack(self) -> None:
        say(f"private PostgreSQL {self.pg.bin} on port {self.pg.port}")
        self.pg.init()
        self.pg.start()
        self.pg.create_database("ms4")
        say(f"private Redis on port {self.redis.port}")
        self.redis.start()
        say(f"SMTP sink on port {self.sink.port}")
        self.sink.start()
        (self.folder / "var").mkdir()
        self.app = App(self.folder, self.environment())
        say("migrate (python -m poquott_ms4.processes migrate)")
        self.app.run("migrate")
        say("collectstatic")
        self.app.run("collectstatic")
        for name in ("web", "worker", "beat"):
            say(f"start {name} (python -m poquott_ms4.processes {name})")
            self.app.start(name)
        self.app.supervise()
        self.wait_web()
        self.wait_worker()

    def wait_web(self, timeout: float = 60) -> None:
        def up():
            check(self.app.alive("web"), f"gunicorn exited:\n{self.app.tail('web')}")
            return Browser(self.web_port).get("/healthz").status == 200

        wait_for(up, timeout=timeout, what="gunicorn to answer /healthz")

    def wait_worker(self, since: int = 0, timeout: float = 60) -> None:
        def ready():
            check(
                self.app.alive("worker"),
                f"the worker exited:\n{self.app.tail('worker')}",
            )
            return self.app.log_has("worker", " ready.", since)

        wait_for(ready, timeout=timeout, what="the Celery worker to be ready")

    def stop_everything(self) -> None:
        for what, stop in (
            ("app", lambda: self.app and self.app.stop_all()),
            ("smtp", self.sink.stop),
            ("redis", self.redis.stop),
            ("postgres", self.pg.stop),
        ):
            try:
                stop()
            except Exception as exc:  # stop the rest whatever happens
                print(f"could not stop {what}: {exc!r}", file=sys.stderr)

    # --- the run -----------------------------------------------------------------
    def run(self) -> int:
        failures: list[str] = []
        try:
            try:
                self.walk_and_faults(failures)
            except CheckFailed as exc:
                failures.append(str(exc))
            except Exception:
                failures.append("an error:\n" + traceback.format_exc())
            self.report()
            if failures:
                self.show_logs()
                for failure in failures:
                    print(f"\nPROD-CHECK FAILED: {failure}", file=sys.stderr)
                return 1
        finally:
            self.stop_everything()
            if not self.args.keep:
                shutil.rmtree(self.folder, ignore_errors=True)
        skipped = [f for f in FAULTS if f in self.args.skip_fault]
        print(
            f"\nPROD-CHECK PASSED in {time.monotonic() - STARTED:.0f} s"
            + (f" (faults skipped: {', '.join(skipped)})" if skipped else "")
        )
        return 0

    def walk_and_faults(self, failures: list[str]) -> None:
        """The stack, the walk (a failure there ends the run), then every fault:
        a failed fault is recorded, the stack put back, and the next one runs."""
        self.start_stack()
        self.happy_path()
        for fault in (f for f in FAULTS if f not in self.args.skip_fault):
            figures = Figures(fault)
            self.figures.append(figures)
            before = len(self.app.restarts)
            try:
                getattr(self, f"fault_{fault}")(figures)
            except CheckFailed as exc:
                figures.failed = True
                failures.append(str(exc))
                say(f"fault {fault} FAILED: {exc}")
                self.restore()
            restarted = self.app.restarts[before:]
            if restarted:
                figures.notes.append(
                    "restarted by the supervisor (compose's restart policy): "
                    + ", ".join(f"{n} (exit {c})" for n, c in restarted)
                )
            say(figures.line())
        self.final_duplicates()

    def restore(self) -> None:
        """Everything up again after a failed fault, so the next one is fair."""
        self.sink.handler.slow = 0.0
        if self.sink.controller is None:
            self.sink.start()
        if self.redis.proc is None:
            self.redis.start()
        if not self.pg.running():
            self.pg.start()
        if "worker" not in self.app.procs:
            self.app.start("worker")
            self.wait_worker()

    def report(self) -> None:
        if self.figures:
            print("\nFault figures:")
            for figures in self.figures:
                print("  " + figures.line())

    def show_logs(self) -> None:
        if self.app is None:
            return
        for name in ("web", "worker", "beat"):
            print(f"\n--- last lines of {name}.log ---\n{self.app.tail(name, 25)}")
        if self.args.keep:
            print(f"\nlogs kept in {self.folder}")


def _terminated(signum, frame):
    raise SystemExit(f"terminated by signal {signum}")  # the finally stops all


def main() -> int:
    signal.signal(signal.SIGTERM, _terminated)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--skip-fault",
        action="append",
        default=[],
        choices=FAULTS,
        help="leave this fault out (repeatable)",
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep the temporary folder and logs"
    )
    try:
        run = Check(parser.parse_args())
    except CheckFailed as exc:
        print(f"PROD-CHECK FAILED: {exc}", file=sys.stderr)
        return 1
    return run.run()


if __name__ == "__main__":
    sys.exit(main())
