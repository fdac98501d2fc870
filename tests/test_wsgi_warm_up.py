"""A worker's garbage collector after its first requests (issue 28, speed;
poquott_ms4/wsgi.py): what the first requests built to last is frozen once, so
a full collection afterwards walks only what later requests keep."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

WORKER = """
import gc, io, json, sys
from poquott_ms4.wsgi import WARM_UP_REQUESTS, application

def get(path):
    environ = {
        "REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": "",
        "SERVER_NAME": "localhost", "SERVER_PORT": "80", "HTTP_HOST": "localhost",
        "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1",
        "wsgi.version": (1, 0), "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(b""), "wsgi.errors": sys.stderr,
        "wsgi.multithread": False, "wsgi.multiprocess": True, "wsgi.run_once": False,
    }
    status = []
    body = application(environ, lambda line, headers, *_: status.append(line))
    b"".join(body)
    body.close()
    return status[0]

seen = {"at_start": gc.get_freeze_count()}
statuses = {get("/.well-known/security.txt") for _ in range(WARM_UP_REQUESTS - 1)}
seen["before_the_last_warm_up_request"] = gc.get_freeze_count()
get("/.well-known/security.txt")
seen["after_it"] = gc.get_freeze_count()
statuses |= {get("/.well-known/security.txt") for _ in range(WARM_UP_REQUESTS)}
seen["after_as_many_again"] = gc.get_freeze_count()
seen["statuses"] = sorted(statuses)
print(json.dumps(seen))
"""


def test_a_worker_freezes_once_what_its_first_requests_built():
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="poquott_ms4.settings.test")
    out = subprocess.run(
        [sys.executable, "-c", WORKER],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    seen = json.loads(out.strip().splitlines()[-1])
    assert seen["statuses"] == ["200 OK"]
    # At start-up: Django and the app (freeze_startup_objects). A frozen object
    # can still be freed, so the counts below move by a few on their own.
    assert seen["at_start"] > 50_000
    assert abs(seen["before_the_last_warm_up_request"] - seen["at_start"]) < 50
    # The warm-up's last response froze what the requests had built ...
    assert seen["after_it"] - seen["before_the_last_warm_up_request"] > 200
    # ... once: later requests are collected as usual.
    assert abs(seen["after_as_many_again"] - seen["after_it"]) < 50
