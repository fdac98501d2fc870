"""The one source of every production command line.

    python -m poquott_ms4.processes web|worker|beat|migrate|collectstatic

Each replaces this process (exec) with the real one, so a signal sent to the pid
reaches gunicorn or Celery itself. docker-compose.yml, the Dockerfile and
`make prod-check` (.ci/prod_check.py) start exactly these; tests/test_compose.py
keeps compose in step with `command()` and `ENV_NAMES`.

Read from the environment:
- web: PORT (8000), HOST (0.0.0.0), WEB_CONCURRENCY (3 gunicorn workers),
  TRUSTED_PROXIES (empty: no one; the TLS proxy's addresses, never "*"): whose
  X-Forwarded-Proto and X-Forwarded-For gunicorn believes — the same variable
  the settings read (poquott_ms4.middleware, limits.throttle.client_ip).
- worker: WORKER_CONCURRENCY (unset: one process per core). Tasks acknowledge
  late (CELERY_TASK_ACKS_LATE, and each task's acks_late=True), so a killed
  worker's task is redelivered; the outbox sweep covers a message the broker
  only redelivers after its visibility timeout.
- beat: VAR_DIR, where its schedule file lives (settings.VAR_DIR).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

SETTINGS = "poquott_ms4.settings.production"
ROOT = Path(__file__).resolve().parent.parent

# The environment variables each process reads for its command line.
ENV_NAMES = {
    "web": ("PORT", "HOST", "WEB_CONCURRENCY", "TRUSTED_PROXIES"),
    "worker": ("WORKER_CONCURRENCY",),
    "beat": ("VAR_DIR",),
    "migrate": (),
    "collectstatic": (),
}
PROCESSES = tuple(ENV_NAMES)


def _var_dir(env: Mapping[str, str]) -> Path:
    # As settings/base.py reads it: a relative VAR_DIR is under the project folder.
    return ROOT / env.get("VAR_DIR", "var")


def command(name: str, env: Mapping[str, str] | None = None) -> list[str]:
    """The argv of process `name` with the environment `env` (default: ours)."""
    env = os.environ if env is None else env
    if name == "web":
        return [
            "gunicorn",
            "poquott_ms4.wsgi",
            "--bind",
            f"{env.get('HOST', '0.0.0.0')}:{env.get('PORT', '8000')}",
            "--workers",
            env.get("WEB_CONCURRENCY", "3"),
            "--forwarded-allow-ips",
            env.get("TRUSTED_PROXIES", ""),
            "--access-logfile",
            "-",
        ]
    if name == "worker":
        # Without mingle, gossip and heartbeat (worker-to-worker chatter and the
        # monitoring events; nothing here uses them): with them a worker on Redis
        # has been reported never to consume again after the broker came back
        # (celery issues #7276, #8030, #8091). The remote control (`celery
        # inspect ping`, compose's health check) stays on.
        argv = [
            "celery",
            "-A",
            "poquott_ms4",
            "worker",
            "--loglevel=INFO",
            "--without-mingle",
            "--without-gossip",
            "--without-heartbeat",
        ]
        if env.get("WORKER_CONCURRENCY"):
            argv.append(f"--concurrency={env['WORKER_CONCURRENCY']}")
        return argv
    if name == "beat":
        return [
            "celery",
            "-A",
            "poquott_ms4",
            "beat",
            "--loglevel=INFO",
            f"--schedule={_var_dir(env) / 'celerybeat-schedule'}",
        ]
    if name == "migrate":
        return [sys.executable, "manage.py", "migrate", "--noinput"]
    if name == "collectstatic":
        return [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"]
    raise ValueError(f"unknown process {name!r}; one of {', '.join(PROCESSES)}")


def _executable(argv: list[str]) -> str:
    """gunicorn and celery from this interpreter's environment (the venv), so a
    bare `python -m` from a venv needs no activated PATH."""
    beside = Path(sys.executable).parent / argv[0]
    return str(beside) if beside.exists() else argv[0]


def main(args: list[str] | None = None) -> None:
    args = sys.argv[1:] if args is None else args
    if len(args) != 1 or args[0] not in PROCESSES:
        sys.exit(f"usage: python -m poquott_ms4.processes {{{'|'.join(PROCESSES)}}}")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", SETTINGS)
    argv = command(args[0])
    os.chdir(ROOT)  # manage.py, and the wsgi module on gunicorn's path
    sys.stdout.flush()
    os.execvp(_executable(argv), argv)


if __name__ == "__main__":
    main()
