"""A real Celery worker on Redis, and the `make run` stack from a clean var/."""

import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import pytest
from django.core.cache import cache

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.worker
def test_a_task_round_trips_through_a_real_worker_on_redis(celery_worker_on_redis):
    from poquott_ms4.celery import heartbeat

    token = uuid.uuid4().hex
    heartbeat.delay(token)
    for _ in range(100):
        if cache.get(f"heartbeat:{token}") == "ok":
            break
        time.sleep(0.1)
    assert cache.get(f"heartbeat:{token}") == "ok"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(opener, url, data=None):
    with opener.open(url, data=data, timeout=10) as response:
        return response.status, response.read().decode()


@pytest.mark.smoke
def test_make_run_serves_the_site_and_a_worker_from_a_clean_var(tmp_path):
    port = _free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(VAR_DIR=str(tmp_path / "var"), PORT=str(port), PYTHON=sys.executable)
    proc = subprocess.Popen(
        ["make", "--no-print-directory", "run"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                status, body = _get(opener, f"{base}/healthz")
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    out = proc.stdout.read() if proc.poll() is not None else ""
                    pytest.fail(f"make run did not serve /healthz:\n{out}")
                time.sleep(0.5)
        assert status == 200 and '"database": "ok"' in body
        status, body = _get(opener, f"{base}/")
        assert status == 200 and "Report a discharge" in body

        status, body = _get(opener, f"{base}/accounts/login/")
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)
        form = f"csrfmiddlewaretoken={csrf}&username=smo&password=demo-password"
        status, body = _get(opener, f"{base}/accounts/login/", data=form.encode())
        assert status == 200 and "Dashboard" in body

        # The worker consumes from the filesystem broker: a heartbeat comes back.
        token = uuid.uuid4().hex
        manage = [sys.executable, "manage.py", "shell", "-c"]
        subprocess.run(
            [
                *manage,
                f"from poquott_ms4.celery import heartbeat; heartbeat.delay('{token}')",
            ],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
        )
        probe = f"from django.core.cache import cache; print(cache.get('heartbeat:{token}'))"
        for _ in range(60):
            out = subprocess.run(
                [*manage, probe], cwd=ROOT, env=env, capture_output=True, text=True
            ).stdout
            if "ok" in out:
                break
            time.sleep(1)
        assert "ok" in out, "the make-run worker did not consume the heartbeat task"
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
