"""Two versions of the code measured side by side, on the bench's database: two
worker processes, one per source tree, each warmed up as `make bench` warms its
worker, then one request to each in turn (which goes first alternates), so a
slow minute of a shared machine falls on both (bench/NOTES.md). Prints each
page's median and p95 for both and their ratio; writes nothing.

    git worktree add /tmp/before <commit> && cp -r var /tmp/before/
    DATABASE_URL=postgres://... python bench/side_by_side.py /tmp/before . \\
        /staff/ /open311/v2/requests.json --requests 150

Pages under /staff/ or /enforcement/ are asked signed in (`--user`, default smo);
others anonymously. Both trees run with this checkout's virtualenv and must
agree on the database's schema."""

import argparse
import importlib
import os
import statistics
import subprocess
import sys
from pathlib import Path

SIGNED_IN = ("/staff/", "/enforcement/", "/deadlines/")
WARM_UP = 110  # poquott_ms4.wsgi.WARM_UP_REQUESTS and a few more


def worker(tree: str, user: str) -> None:
    """Serve the URLs read from stdin through `tree`'s WSGI application, one
    line out per request: status, milliseconds, queries."""
    sys.path.insert(0, tree)
    os.chdir(tree)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poquott_ms4.settings.bench")
    # The application as the server loads it (django.setup, gc.freeze, ...).
    importlib.import_module("poquott_ms4.wsgi")
    from django.contrib.auth.models import User
    from django.test import Client

    from bench.harness import serve

    signed_in, anonymous = Client(), Client()
    signed_in.force_login(User.objects.get(username=user))
    for line in sys.stdin:
        url = line.strip()
        client = signed_in if url.startswith(SIGNED_IN) else anonymous
        status, ms, queries = serve(client, url)
        print(status, f"{ms:.3f}", queries, flush=True)


def _percentile(values, pct):
    ordered = sorted(values)
    return ordered[round(pct / 100 * (len(ordered) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("urls", nargs="+")
    parser.add_argument("--requests", type=int, default=150)
    parser.add_argument("--user", default="smo")
    args = parser.parse_args()
    os.environ.setdefault(
        "DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ms4_bench"
    )

    def start(tree):
        return subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--worker",
                str(Path(tree).resolve()),
                args.user,
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    sides = {"before": start(args.before), "after": start(args.after)}

    def ask(side, url):
        process = sides[side]
        process.stdin.write(url + "\n")
        process.stdin.flush()
        status, ms, queries = process.stdout.readline().split()
        return int(status), float(ms), int(queries)

    for _ in range(WARM_UP):
        for url in args.urls:
            for side in sides:
                ask(side, url)
    times = {(side, url): [] for side in sides for url in args.urls}
    seen = {}
    for n in range(args.requests):
        for url in args.urls:
            for side in ("before", "after") if n % 2 == 0 else ("after", "before"):
                status, ms, queries = ask(side, url)
                times[(side, url)].append(ms)
                seen[(side, url)] = (status, queries)
    for process in sides.values():
        process.stdin.close()
        process.wait()
    for url in args.urls:
        line = [url]
        for side in sides:
            t = times[(side, url)]
            status, queries = seen[(side, url)]
            line.append(
                f"{side}: median {statistics.median(t):.1f} ms, p95 "
                f"{_percentile(t, 95):.1f}, {queries} queries, status {status}"
            )
        ratio = statistics.median(times[("after", url)]) / statistics.median(
            times[("before", url)]
        )
        print(" | ".join(line) + f" | after/before {ratio:.3f}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker(sys.argv[2], sys.argv[3])
    else:
        main()
