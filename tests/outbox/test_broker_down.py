"""With the Redis broker really unreachable, handing an outbox row over fails
fast and quietly (a web request commits, then hands over on commit: it must not
wait out kombu's connection retries). A fresh process, so the broker URL is the
unreachable one from the start."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent

HAND_OVER = """
import json, time, django
django.setup()
from outbox.services import message_enqueue
start = time.monotonic()
handed = message_enqueue(1)
print(json.dumps({"handed": handed, "seconds": time.monotonic() - start}))
"""


def test_a_hand_over_to_an_unreachable_broker_returns_false_within_a_second(tmp_path):
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "DJANGO_SETTINGS_MODULE": "poquott_ms4.settings.test",
        "REDIS_URL": "redis://127.0.0.1:1/0",  # nothing listens on port 1
        "VAR_DIR": str(tmp_path / "var"),
        "PYTHONPATH": str(ROOT),
    }
    out = subprocess.run(
        [sys.executable, "-c", HAND_OVER],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["handed"] is False
    assert result["seconds"] < 1.0
    assert "could not hand outgoing message 1 to the broker" in out.stderr
