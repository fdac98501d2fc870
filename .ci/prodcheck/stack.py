"""What the production check starts besides the app: a private PostgreSQL
cluster, a private Redis, the SMTP sink; and the app's processes, each through
`python -m poquott_ms4.processes NAME`."""

from __future__ import annotations

import asyncio
import email
import email.policy
import glob
import os
import pwd
import shutil
import signal
import subprocess
import threading
import time
from collections import Counter
from pathlib import Path

from .common import PYTHON, ROOT, CheckFailed, check, free_port, say, wait_for


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

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def stop(self, mode: str = "fast") -> None:
        if not self.running():
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
    process group (a worker's pool children die with it), supervised as
    compose's `restart: unless-stopped` does (see `supervise`)."""

    RESTART_LIMIT = 5  # per process: past it, the process stays down (and fails)

    def __init__(self, folder: Path, env: dict):
        self.folder, self.env = folder, env
        self.procs: dict[str, subprocess.Popen] = {}
        self.lock = threading.RLock()
        self.restarts: list[tuple[str, int]] = []  # (process, its exit code)
        self.watching = False

    def supervise(self) -> None:
        """Restart a process that exits on its own (not one this check stops or
        kills): what docker-compose.yml's restart policy does in production."""
        self.watching = True
        threading.Thread(target=self._watch, name="supervisor", daemon=True).start()

    def _watch(self) -> None:
        while self.watching:
            with self.lock:
                for name, proc in list(self.procs.items()):
                    code = proc.poll()
                    if code is None or not self.watching:
                        continue
                    self.procs.pop(name)
                    self.restarts.append((name, code))
                    if (
                        sum(1 for n, _ in self.restarts if n == name)
                        > self.RESTART_LIMIT
                    ):
                        say(f"supervisor: {name} exited ({code}) too often; left down")
                        continue
                    say(f"supervisor: {name} exited on its own ({code}); restarted")
                    self.start(name)
            time.sleep(0.5)

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
        with self.lock:
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
        with self.lock:
            proc = self.procs.pop(name)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)

    def stop(self, name: str) -> None:
        with self.lock:
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
        self.watching = False
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
