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
import asyncio
import concurrent.futures
import email
import email.policy
import glob
import io
import json
import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import uuid
from collections import Counter
from dataclasses import dataclass, field
from http import client as http_client
from http.cookies import SimpleCookie
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
FAULTS = ("smtp", "redis", "worker", "postgres")
MAIL_DOMAIN = "prod-check.example"
STARTED = time.monotonic()


class CheckFailed(Exception):
    """What went wrong, in words (the run exits non-zero with it)."""


def say(text: str) -> None:
    print(f"[prod-check {time.monotonic() - STARTED:6.1f}s] {text}", flush=True)


def check(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, *, timeout: float, what: str, interval: float = 0.2):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            result = predicate()
        except Exception as exc:  # not yet: keep the reason for the message
            last, result = exc, None
        if result:
            return result
        time.sleep(interval)
    raise CheckFailed(
        f"timed out after {timeout:.0f} s waiting for {what}"
        + (f" (last error: {last!r})" if last else "")
    )


# --- private PostgreSQL ------------------------------------------------------------
def postgres_bin() -> Path:
    wanted = os.environ.get("PG_BIN")
    if wanted:
        return Path(wanted)
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[4])
    )
    if not found:
        raise CheckFailed(
            "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin "
            "(apt-get install postgresql, or set PG_BIN)"
        )
    return Path(found[-1])


class PrivatePostgres:
    """A throw-away cluster of this machine's PostgreSQL: trust auth, one port,
    fsync off. Run as the `postgres` user when we are root."""

    def __init__(self, folder: Path):
        self.bin = postgres_bin()
        self.port = free_port()
        self.data = folder / "pgdata"
        self.run = folder / "pgrun"  # the socket and the server log
        self.as_root = os.geteuid() == 0

    def _cmd(self, *argv) -> list[str]:
        if self.as_root:
            return ["runuser", "-u", "postgres", "--", *argv]
        return list(argv)

    def init(self) -> None:
        for folder in (self.data, self.run):
            folder.mkdir()
            if self.as_root:
                user = pwd.getpwnam("postgres")
                os.chown(folder, user.pw_uid, user.pw_gid)
            folder.chmod(0o700)
        subprocess.run(
            self._cmd(
                str(self.bin / "initdb"),
                "-D",
                str(self.data),
                "-U",
                "postgres",
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            ),
            check=True,
            capture_output=True,
            text=True,
        )

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 "
            f"-c unix_socket_directories={self.run} -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=60"
        )
        subprocess.run(
            self._cmd(
                str(self.bin / "pg_ctl"),
                "-D",
                str(self.data),
                "-l",
                str(self.run / "server.log"),
                "-o",
                options,
                "-w",
                "-t",
                "60",
                "start",
            ),
            check=True,
            capture_output=True,
            text=True,
        )

    def stop(self, mode: str = "fast") -> None:
        if not (self.data / "postmaster.pid").exists():
            return
        subprocess.run(
            self._cmd(
                str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop"
            ),
            capture_output=True,
            text=True,
            timeout=60,
        )

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def connect(self, database: str = "ms4"):
        import psycopg

        return psycopg.connect(self.url(database), autocommit=True, connect_timeout=5)

    def create_database(self, name: str) -> None:
        with self.connect("postgres") as conn:
            conn.execute(f'CREATE DATABASE "{name}"')

    def scalar(self, sql: str, *params):
        with self.connect() as conn:
            return conn.execute(sql, params).fetchone()[0]


# --- private Redis -----------------------------------------------------------------
class PrivateRedis:
    """This machine's redis-server on its own port, nothing written to disk."""

    def __init__(self, folder: Path):
        self.binary = shutil.which("redis-server")
        if not self.binary:
            raise CheckFailed("no redis-server on PATH (apt-get install redis-server)")
        self.port = free_port()
        self.folder = folder / "redis"
        self.folder.mkdir()
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
                "--logfile",
                str(self.folder / "redis.log"),
            ],
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        import redis

        client = redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=1)
        wait_for(client.ping, timeout=15, what="the private Redis to answer PING")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"


# --- the SMTP sink -----------------------------------------------------------------
class SinkHandler:
    """aiosmtpd handler: keeps every message; `slow` seconds of pause in RCPT
    (a kill then lands before DATA, while the worker holds the row)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.messages: list[tuple[str, str, str]] = []  # (recipient, subject, body)
        self.rcpts: list[str] = []
        self.slow = 0.0

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        with self.lock:
            self.rcpts.append(address)
        started = time.monotonic()
        while self.slow and time.monotonic() - started < self.slow:
            await asyncio.sleep(0.05)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(
            envelope.content, policy=email.policy.default
        )
        part = message.get_body(preferencelist=("plain",))
        body = part.get_content() if part is not None else ""
        with self.lock:
            for rcpt in envelope.rcpt_tos:
                self.messages.append((rcpt.lower(), str(message["Subject"]), body))
        return "250 Message accepted for delivery"

    def to(self, prefix: str) -> Counter:
        """How many messages each recipient starting with `prefix` received."""
        with self.lock:
            return Counter(r for r, _, _ in self.messages if r.startswith(prefix))

    def bodies(self, recipient: str) -> list[str]:
        with self.lock:
            return [b for r, _, b in self.messages if r == recipient.lower()]

    def rcpts_seen(self, prefix: str) -> int:
        with self.lock:
            return sum(1 for r in self.rcpts if r.startswith(prefix))


class SmtpSink:
    def __init__(self):
        self.handler = SinkHandler()
        self.port = free_port()
        self.controller = None

    def start(self) -> None:
        from aiosmtpd.controller import Controller

        self.controller = Controller(self.handler, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


# --- the app's processes -----------------------------------------------------------
class App:
    """web, worker, beat: `python -m poquott_ms4.processes NAME`, each in its own
    process group (a worker's pool children die with it)."""

    def __init__(self, folder: Path, env: dict):
        self.folder, self.env = folder, env
        self.procs: dict[str, subprocess.Popen] = {}

    def argv(self, name: str) -> list[str]:
        return [PYTHON, "-m", "poquott_ms4.processes", name]

    def log(self, name: str) -> Path:
        return self.folder / f"{name}.log"

    def run(self, name: str, timeout: float = 300) -> None:
        """A one-off process (migrate, collectstatic) to completion."""
        with self.log(name).open("ab") as out:
            done = subprocess.run(
                self.argv(name),
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                timeout=timeout,
            )
        check(done.returncode == 0, f"{name} failed:\n{self.tail(name)}")

    def shell(self, code: str, timeout: float = 120) -> str:
        done = subprocess.run(
            [PYTHON, "manage.py", "shell", "-c", code],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        check(
            done.returncode == 0,
            f"manage.py shell failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}",
        )
        return done.stdout

    def start(self, name: str) -> None:
        out = self.log(name).open("ab")
        self.procs[name] = subprocess.Popen(
            self.argv(name),
            cwd=ROOT,
            env=self.env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        out.close()

    def kill(self, name: str) -> None:
        """SIGKILL the whole process group at once (no graceful anything)."""
        proc = self.procs.pop(name)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)

    def stop(self, name: str) -> None:
        proc = self.procs.pop(name, None)
        if proc is None or proc.poll() is not None:
            return
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        except ProcessLookupError:
            pass

    def stop_all(self) -> None:
        for name in list(self.procs):
            self.stop(name)

    def alive(self, name: str) -> bool:
        proc = self.procs.get(name)
        return proc is not None and proc.poll() is None

    def tail(self, name: str, lines: int = 40) -> str:
        path = self.log(name)
        if not path.exists():
            return "(no log)"
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])

    def log_has(self, name: str, text: str, since: int = 0) -> bool:
        path = self.log(name)
        return path.exists() and text in path.read_text(errors="replace")[since:]

    def log_size(self, name: str) -> int:
        path = self.log(name)
        return path.stat().st_size if path.exists() else 0


# --- HTTP, as a browser behind the TLS proxy ---------------------------------------
@dataclass
class Response:
    status: int
    headers: dict
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")

    @property
    def location(self) -> str:
        return self.headers.get("location", "")


class Browser:
    """One visitor: cookies kept here (Secure ones too: the proxy speaks https
    to the visitor), every request forwarded as https."""

    def __init__(self, port: int):
        self.port = port
        self.origin = f"https://127.0.0.1:{port}"
        self.cookies: dict[str, str] = {}

    def request(self, method, path, *, body=None, headers=None, timeout=30):
        conn = http_client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        sent = {
            "Host": f"127.0.0.1:{self.port}",
            "X-Forwarded-Proto": "https",
            "User-Agent": "ms4-prod-check",
        }
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if method == "POST":
            sent["Origin"] = self.origin
            sent["Referer"] = self.origin + path
        sent.update(headers or {})
        try:
            conn.request(method, path, body=body, headers=sent)
            raw = conn.getresponse()
            data = raw.read()
            for value in raw.headers.get_all("Set-Cookie") or []:
                jar = SimpleCookie()
                jar.load(value)
                for name, morsel in jar.items():
                    if morsel["max-age"] == "0" or not morsel.value and name:
                        self.cookies.pop(name, None)
                    else:
                        self.cookies[name] = morsel.value
            return Response(
                raw.status, {k.lower(): v for k, v in raw.getheaders()}, data
            )
        finally:
            conn.close()

    def get(self, path, *, follow=True, timeout=30) -> Response:
        for _ in range(6):
            response = self.request("GET", path, timeout=timeout)
            if not (follow and response.status in (301, 302, 303)):
                return response
            path = self._local(response.location)
        return response

    def _local(self, location: str) -> str:
        if location.startswith(self.origin):
            return location[len(self.origin) :] or "/"
        check(location.startswith("/"), f"redirected off the site to {location!r}")
        return location

    def post(self, path, fields: dict, *, files=(), timeout=30) -> Response:
        boundary = uuid.uuid4().hex
        out = io.BytesIO()
        for name, value in fields.items():
            for item in value if isinstance(value, list) else [value]:
                out.write(
                    f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"'
                    f"\r\n\r\n{item}\r\n".encode()
                )
        for name, filename, data, content_type in files:
            out.write(
                f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
                f'filename="{filename}"\r\nContent-Type: {content_type}\r\n\r\n'.encode()
            )
            out.write(data + b"\r\n")
        out.write(f"--{boundary}--\r\n".encode())
        return self.request(
            "POST",
            path,
            body=out.getvalue(),
            headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
            timeout=timeout,
        )


CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
TRACKING = re.compile(r'id="tracking-code">\s*([^<\s]+)\s*<')


def csrf_token(response: Response) -> str:
    match = CSRF.search(response.text)
    check(match is not None, f"no CSRF token on the page (HTTP {response.status})")
    return match[1]


def form_errors(html: str) -> list[str]:
    """The error texts of a re-rendered form, for the failure message."""
    found = re.findall(
        r'class="[^"]*(?:invalid-feedback|alert-danger|errorlist)[^"]*"[^>]*>(.*?)</',
        html,
        re.S,
    )
    return [" ".join(re.sub(r"<[^>]+>", " ", f).split()) for f in found][:8]


def photo_jpeg() -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (64, 48), (90, 120, 60)).save(out, "JPEG", quality=80)
    return out.getvalue()


PHOTO = None


@dataclass
class Outcome:
    email: str
    status: str  # "ok", "http 500", "error ConnectionResetError", …
    code: str | None = None
    page: str = ""


def submit_report(browser: Browser, address: str, *, photo=False) -> Outcome:
    """A resident files a report: the form, the POST, the confirmation page."""
    global PHOTO
    try:
        form = browser.get("/report/")
        if form.status != 200:
            return Outcome(address, f"http {form.status}", page=form.text[:300])
        fields = {
            "csrfmiddlewaretoken": csrf_token(form),
            "description": "Grey water with suds running from a pipe to the drain.",
            "address": "12 Shore Road",
            "reporter_email": address,
            "website": "",
        }
        files = []
        if photo:
            PHOTO = PHOTO or photo_jpeg()
            files = [("photos", "drain.jpg", PHOTO, "image/jpeg")]
        posted = browser.post("/report/", fields, files=files)
        if posted.status != 302 or not posted.location.endswith("/report/done/"):
            return Outcome(address, f"http {posted.status}", page=posted.text[:300])
        done = browser.get("/report/done/", follow=False)
        match = TRACKING.search(done.text)
        if done.status != 200 or match is None:
            return Outcome(address, f"done page http {done.status}")
        return Outcome(address, "ok", code=match[1])
    except (OSError, http_client.HTTPException) as exc:
        return Outcome(address, f"error {type(exc).__name__}")


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

    def line(self) -> str:
        recovery = "-" if self.recovery is None else f"{self.recovery:.1f} s"
        return (
            f"{self.fault:<9} requests sent {self.sent:>3}  successes {self.successes:>3}"
            f"  rows stored {self.rows:>3}  messages delivered {self.delivered:>3}"
            f"  duplicates {self.duplicates}  lost {self.lost}  recovery {recovery}"
            + (f"  ({'; '.join(self.notes)})" if self.notes else "")
        )


class Check:
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
            FORWARDED_ALLOW_IPS="127.0.0.1",
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

    # --- reading what was stored and delivered -------------------------------------
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

    # --- the walk ----------------------------------------------------------------
    def healthz(self) -> tuple[int, dict]:
        response = Browser(self.web_port).get("/healthz", timeout=10)
        try:
            return response.status, json.loads(response.text)
        except ValueError:
            return response.status, {"body": response.text[:200]}

    def happy_path(self) -> None:
        status, body = self.healthz()
        check(
            status == 200 and body.get("status") == "ok",
            f"/healthz is not healthy: {status} {body}",
        )
        say(f"/healthz {status} {body}")

        # Plain http is sent to https (the proxy would never let it through).
        plain = Browser(self.web_port).request(
            "GET", "/", headers={"X-Forwarded-Proto": "http"}
        )
        check(
            plain.status == 301 and plain.location.startswith("https://"),
            f"plain http is not redirected to https ({plain.status})",
        )

        resident = Browser(self.web_port)
        address = self.address("walk", 1)
        outcome = submit_report(resident, address, photo=True)
        check(outcome.status == "ok", f"the resident's report failed: {outcome}")
        check(
            {"csrftoken", "sessionid"} <= set(resident.cookies),
            f"cookies kept: {sorted(resident.cookies)}",
        )
        photos = self.pg.scalar(
            "SELECT count(*) FROM cases_reportphoto p JOIN cases_report r "
            "ON r.id = p.report_id WHERE r.tracking_code = %s",
            outcome.code,
        )
        check(photos == 1, f"the report's photo was not stored ({photos})")
        self.wait_delivered("walk", {address}, timeout=30)
        bodies = self.sink.handler.bodies(address)
        check(
            any(outcome.code in b for b in bodies),
            "the receipt does not give the tracking code",
        )
        say(f"report {outcome.code} filed with a photo; receipt at the SMTP sink")

        staff = self.seed_staff()
        smo = Browser(self.web_port)
        login = smo.get("/accounts/login/")
        posted = smo.post(
            "/accounts/login/",
            {
                "csrfmiddlewaretoken": csrf_token(login),
                "username": "prodcheck-smo",
                "password": staff["password"],
            },
        )
        check(
            posted.status == 302,
            f"the SMO's sign-in was refused ({posted.status}): {posted.text[:300]}",
        )
        dashboard = smo.get("/staff/")
        check(
            dashboard.status == 200 and "Dashboard" in dashboard.text,
            f"the dashboard did not open ({dashboard.status})",
        )
        say("the SMO signed in over https and opened the dashboard")

        new = smo.get(f"/enforcement/case/{staff['case_pk']}/notices/new/")
        check(new.status == 200, f"the notice form did not open ({new.status})")
        # Abatement (§ 132-13 A(3)) goes with a remediation deadline (R-NOV-2).
        check('name="req_abatement"' in new.text, "no abatement on the notice form")
        posted = smo.post(
            f"/enforcement/case/{staff['case_pk']}/notices/new/",
            {
                "csrfmiddlewaretoken": csrf_token(new),
                "recipient": str(staff["party_pk"]),
                "violation_date": staff["violation_date"],
                "findings": "Grey water pumped to the catch basin on Shore Road.",
                "req_abatement": "on",
                "particulars_abatement": "Clean the catch basin on Shore Road.",
                "remediation_days": "10",
                "proposed_fine": "",
            },
        )
        notice = re.search(r"/enforcement/notices/(\d+)/$", posted.location)
        check(
            posted.status == 302 and notice is not None,
            f"the draft notice was not saved ({posted.status}): "
            f"{form_errors(posted.text)}",
        )
        page = smo.get(posted.location)
        issued = smo.post(
            f"/enforcement/notices/{notice[1]}/step/issue/",
            {"csrfmiddlewaretoken": csrf_token(page)},
        )
        check(issued.status == 302, f"the notice was not issued ({issued.status})")
        page = smo.get(issued.location)
        check("issued" in page.text, "the notice page does not say it was issued")
        document = re.search(r"/staff/documents/(\d+)/", page.text)
        check(document is not None, "the issued notice links no document")
        say(f"notice NOV-{notice[1]} drafted and issued; waiting for its PDF")

        def pdf():
            got = smo.get(f"/staff/documents/{document[1]}/download/")
            return got if got.status == 200 else None

        download = wait_for(pdf, timeout=90, what="the worker to render the PDF")
        check(download.body.startswith(b"%PDF"), "the download is not a PDF")
        check(
            "private" in download.headers.get("cache-control", ""),
            "the PDF is not sent Cache-Control: private",
        )
        say(f"PDF downloaded ({len(download.body):,} bytes, starts %PDF)")
        status, body = self.healthz()
        check(status == 200 and body.get("status") == "ok", f"/healthz: {body}")

    SEED = """
import json, secrets
from django.contrib.auth.models import Group
from django.contrib.auth import get_user_model
from cases.models import CaseParty, CaseSource
from cases.roles import Role
from cases.services import case_add_party, case_open, case_run_transition

User = get_user_model()
password = secrets.token_urlsafe(16)
users = {}
for name, role in (("prodcheck-smo", Role.SMO), ("prodcheck-clerk", Role.CLERK)):
    user = User.objects.create_user(
        username=name, password=password, email=name + "@poquott.example",
        first_name=name.split("-")[1].title(), last_name="Prodcheck",
    )
    user.groups.add(Group.objects.get(name=role.value))
    users[name] = user
smo = users["prodcheck-smo"]
case = case_open(
    actor=smo, source=CaseSource.PHONE, summary="Grey water to the storm drain",
    new_premises={"address": "12 Shore Road"},
)
case = case_run_transition(case=case, transition="start_investigation", actor=smo)
link = case_add_party(
    case=case, actor=smo, role=CaseParty.Role.OWNER,
    new_party={"name": "Pat Owner", "mailing_address": "12 Shore Road\\nPoquott, NY 11733"},
)
case = case_run_transition(
    case=case, transition="confirm_violation", actor=smo,
    responsible_party=link.party,
    violation_finding="Grey water pumped to the catch basin.",
)
print("SEED " + json.dumps({
    "password": password, "case_pk": case.pk, "party_pk": link.party.pk,
    "violation_date": case.violation_confirmed_on.isoformat(),
}))
"""

    def seed_staff(self) -> dict:
        out = self.app.shell(self.SEED)
        line = next(x for x in out.splitlines() if x.startswith("SEED "))
        say("staff users (SMO, clerk) and a case with a confirmed violation created")
        return json.loads(line[5:])

    # --- the faults ----------------------------------------------------------------
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
        self.wait_delivered("redis", stored, timeout=90)
        figures.recovery = time.monotonic() - up_at
        figures.notes.append("recovery = Redis back → last receipt delivered")
        errors = {s: n for s, n in statuses.items() if s != "ok"}
        if errors:
            figures.notes.append(f"not ok: {errors}")
        self.tally(figures, "redis", outcomes)
        server_errors = sum(
            n for s, n in statuses.items() if s.startswith(("http 5", "error"))
        )
        check(
            server_errors == 0,
            f"redis: {server_errors} resident request(s) answered 5xx or broke "
            f"while Redis was down ({errors}); the rate limiter and sign-in throttle "
            "must fail safe (issue 15). `--skip-fault redis` leaves this fault out.",
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
        self.pg.stop("fast")
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
        resident = Browser(self.web_port)
        outcomes = [
            submit_report(resident, self.address("postgres", n)) for n in range(3)
        ]
        bad = [o for o in outcomes if o.status != "ok"]
        check(not bad, f"postgres: reports after the restart failed: {bad}")
        self.wait_delivered("postgres", {o.email.lower() for o in outcomes}, 60)
        figures.notes.append(
            f"/healthz while down: {down[503]}× 503; recovery = start of "
            f"PostgreSQL (ready in {up_at - started_at:.1f} s) → /healthz 200 and "
            f"the home page; then {after[200]} pages 200"
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

    # --- the run -----------------------------------------------------------------
    def run(self) -> int:
        faults = [f for f in FAULTS if f not in self.args.skip_fault]
        try:
            self.start_stack()
            self.happy_path()
            for fault in faults:
                figures = Figures(fault)
                self.figures.append(figures)
                getattr(self, f"fault_{fault}")(figures)
                say(figures.line())
            self.final_duplicates()
        except CheckFailed as exc:
            self.report()
            print(f"\nPROD-CHECK FAILED: {exc}", file=sys.stderr)
            self.show_logs()
            return 1
        except Exception:
            self.report()
            print("\nPROD-CHECK FAILED with an error:", file=sys.stderr)
            traceback.print_exc()
            self.show_logs()
            return 1
        finally:
            self.stop_everything()
            if not self.args.keep:
                shutil.rmtree(self.folder, ignore_errors=True)
        self.report()
        skipped = [f for f in FAULTS if f in self.args.skip_fault]
        print(
            f"\nPROD-CHECK PASSED in {time.monotonic() - STARTED:.0f} s"
            + (f" (faults skipped: {', '.join(skipped)})" if skipped else "")
        )
        return 0

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
    return Check(parser.parse_args()).run()


if __name__ == "__main__":
    sys.exit(main())
