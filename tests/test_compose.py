"""docker-compose.yml starts the same processes, with the same command lines, as
`make prod-check`: each app service's command is `python -m poquott_ms4.processes
<name>` and its environment names the variables that command line reads.

Docker is not available where CI runs, so the file is read, not run: with PyYAML
when it is installed, else with the small reader below (the YAML subset the
compose file uses: block mappings and lists, flow lists and mappings, quoted
scalars, anchors, aliases and `<<` merges)."""

import json
import re
import shlex
from pathlib import Path

import pytest

from poquott_ms4 import processes

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = ROOT / "docker-compose.yml"
APP_SERVICES = {"migrate", "web", "worker", "beat"}
# Not the bare name: conftest skips any test with the keyword "worker" without Redis.
SERVICE_IDS = [f"{name}-service" for name in sorted(APP_SERVICES)]


# --- a reader for the YAML subset of docker-compose.yml ----------------------------
def _strip_comment(line: str) -> str:
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i].rstrip()
    return line.rstrip()


class _Flow:
    """A flow collection or scalar: [a, "b"], {k: v}, plain words."""

    def __init__(self, text: str, anchors: dict):
        self.text, self.pos, self.anchors = text, 0, anchors

    def parse(self):
        return self.value(stop="")

    def skip(self):
        while self.pos < len(self.text) and self.text[self.pos] in " \t":
            self.pos += 1

    def value(self, stop: str):
        self.skip()
        ch = self.text[self.pos : self.pos + 1]
        if ch == "[":
            self.pos += 1
            items = []
            while True:
                self.skip()
                if self.text[self.pos] == "]":
                    self.pos += 1
                    return items
                items.append(self.value(stop=",]"))
                self.skip()
                if self.text[self.pos] == ",":
                    self.pos += 1
        if ch == "{":
            self.pos += 1
            mapping = {}
            while True:
                self.skip()
                if self.text[self.pos] == "}":
                    self.pos += 1
                    return mapping
                key = self.value(stop=":")
                self.pos += 1  # the colon
                mapping[key] = self.value(stop=",}")
                self.skip()
                if self.text[self.pos] == ",":
                    self.pos += 1
        if ch == '"':
            end = self.pos + 1
            while self.text[end] != '"':
                end += 2 if self.text[end] == "\\" else 1
            raw, self.pos = self.text[self.pos : end + 1], end + 1
            return json.loads(raw)
        if ch == "'":
            end = self.text.index("'", self.pos + 1)
            raw, self.pos = self.text[self.pos + 1 : end], end + 1
            return raw
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] not in stop:
            self.pos += 1
        return _plain(self.text[start : self.pos].strip(), self.anchors)


def _plain(word: str, anchors: dict):
    if word.startswith("*"):
        return anchors[word[1:]]
    if word in ("", "~", "null"):
        return None
    if re.fullmatch(r"-?[0-9]+", word):
        return int(word)
    return {"true": True, "false": False}.get(word, word)


def _scalar(text: str, anchors: dict):
    return _Flow(text, anchors).parse()


def read_yaml(text: str):
    lines = []
    for raw in text.splitlines():
        line = _strip_comment(raw)
        if line.strip():
            lines.append((len(line) - len(line.lstrip()), line.strip()))
    anchors: dict = {}

    def block(i: int, indent: int):
        """The block starting at line i (at `indent`); returns (value, next i)."""
        if lines[i][1].startswith("- "):
            items = []
            while i < len(lines) and lines[i][0] == indent:
                items.append(_scalar(lines[i][1][2:], anchors))
                i += 1
            return items, i
        mapping: dict = {}
        while i < len(lines) and lines[i][0] == indent:
            key, _, rest = lines[i][1].partition(":")
            key, rest = key.strip().strip("\"'"), rest.strip()
            i += 1
            anchor = None
            if rest.startswith("&"):
                anchor, _, rest = rest[1:].partition(" ")
                rest = rest.strip()
            if rest:
                value = _scalar(rest, anchors)
            elif i < len(lines) and lines[i][0] > indent:
                value, i = block(i, lines[i][0])
            else:
                value = None
            if anchor:
                anchors[anchor] = value
            if key == "<<":
                for k, v in value.items():
                    mapping.setdefault(k, v)
            else:
                mapping[key] = value
        return mapping, i

    return block(0, lines[0][0])[0]


def load_compose() -> dict:
    text = COMPOSE.read_text()
    try:
        import yaml
    except ImportError:
        return read_yaml(text)
    return yaml.safe_load(text)


# --- the tests ---------------------------------------------------------------------
INTERPOLATION = re.compile(r"^\$\{(?P<name>\w+):-(?P<default>[^}]*)\}$")


def compose_defaults(environment: dict) -> dict:
    """The environment a service sees when .env sets nothing more: `${X:-d}` → d."""
    values = {}
    for name, value in (environment or {}).items():
        match = INTERPOLATION.match(str(value))
        values[name] = match["default"] if match else str(value)
    return values


def test_the_reader_reads_the_subset_the_compose_file_uses():
    text = """
x: &base
  a: 1
  env: &env
    K: "v w"  # comment
y:
  <<: *base
  env:
    <<: *env
    L: ${L:-3}
  cmd: ["python", "-m", 'x']
  deps: {db: {condition: ok}}
  list:
    - one
"""
    data = read_yaml(text)
    assert data["y"]["a"] == 1
    assert data["y"]["env"] == {"K": "v w", "L": "${L:-3}"}
    assert data["y"]["cmd"] == ["python", "-m", "x"]
    assert data["y"]["deps"] == {"db": {"condition": "ok"}}
    assert data["y"]["list"] == ["one"]


def test_the_reader_and_pyyaml_agree_when_pyyaml_is_installed():
    yaml = pytest.importorskip("yaml")
    assert read_yaml(COMPOSE.read_text()) == yaml.safe_load(COMPOSE.read_text())


@pytest.mark.parametrize("service", sorted(APP_SERVICES), ids=SERVICE_IDS)
def test_each_app_service_runs_the_processes_module(service):
    services = load_compose()["services"]
    assert services[service]["command"] == [
        "python",
        "-m",
        "poquott_ms4.processes",
        service,
    ]


@pytest.mark.parametrize("service", sorted(APP_SERVICES), ids=SERVICE_IDS)
def test_each_app_service_sets_the_variables_its_command_line_reads(service):
    environment = load_compose()["services"][service]["environment"]
    assert environment["DJANGO_SETTINGS_MODULE"] == processes.SETTINGS
    missing = set(processes.ENV_NAMES[service]) - set(environment)
    assert not missing, f"{service} does not set {missing} in docker-compose.yml"


@pytest.mark.parametrize("service", sorted(APP_SERVICES), ids=SERVICE_IDS)
def test_compose_defaults_give_the_modules_default_command_line(service):
    """Without a .env, compose starts what the module starts by default (the
    volume's VAR_DIR aside)."""
    environment = compose_defaults(load_compose()["services"][service]["environment"])
    environment.pop("VAR_DIR", None)
    environment.pop("HOST", None)  # the container listens on every interface
    environment.pop("DJANGO_SETTINGS_MODULE")
    assert processes.command(service, environment) == processes.command(service, {})


def test_the_web_service_never_trusts_forwarded_headers_from_everyone():
    environment = compose_defaults(load_compose()["services"]["web"]["environment"])
    argv = processes.command("web", environment)
    allowed = argv[argv.index("--forwarded-allow-ips") + 1]
    assert allowed != "*"
    assert allowed == ""  # TRUSTED_PROXIES unset in .env: believed from no one
    assert argv[argv.index("--bind") + 1] == "0.0.0.0:8000"


def test_the_long_running_processes_are_restarted_and_migrate_is_not():
    services = load_compose()["services"]
    for name in ("web", "worker", "beat"):
        assert services[name]["restart"] == "unless-stopped", name
    assert services["migrate"]["restart"] == "no"


def test_the_beat_schedule_is_on_the_volume():
    services = load_compose()["services"]
    environment = compose_defaults(services["beat"]["environment"])
    argv = processes.command("beat", environment)
    assert "--schedule=/app/var/celerybeat-schedule" in argv
    assert "appdata:/app/var" in services["beat"]["volumes"]


def test_the_dockerfile_runs_the_web_process_and_collects_static_the_same_way():
    dockerfile = (ROOT / "Dockerfile").read_text()
    cmd = re.search(r"^CMD (\[.*\])$", dockerfile, re.M)
    assert json.loads(cmd[1]) == ["python", "-m", "poquott_ms4.processes", "web"]
    assert "python -m poquott_ms4.processes collectstatic" in dockerfile
    assert "forwarded-allow-ips" not in dockerfile


def test_the_prod_check_starts_the_same_module():
    prod_check = "".join(
        path.read_text()
        for path in [
            ROOT / ".ci" / "prod_check.py",
            *(ROOT / ".ci").glob("prodcheck/*.py"),
        ]
    )
    assert '"poquott_ms4.processes"' in prod_check
    for name in ("web", "worker", "beat", "migrate"):
        assert f'"{name}"' in prod_check


def test_every_process_has_a_command_line():
    for name in processes.PROCESSES:
        argv = processes.command(name, {})
        assert argv and shlex.join(argv)
    with pytest.raises(ValueError):
        processes.command("nope", {})


def test_the_image_can_back_up_the_composed_database():
    """`manage.py backup` runs pg_dump inside the image: its client's major
    version must be the server's (compose), or newer."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    client = re.search(r"postgresql-client-(\d+)", dockerfile)
    server = re.search(
        r"image: postgres:(\d+)", (ROOT / "docker-compose.yml").read_text()
    )
    assert client and server
    assert int(client.group(1)) >= int(server.group(1))


def test_the_web_health_check_asks_for_the_public_host_the_example_allows():
    """The health check calls 127.0.0.1:8000 with the Host of SITE_URL, which the
    example .env allows: the check passes with the file as shipped, and 127.0.0.1
    need not be allowed (a request's host never names the site in an e-mail)."""
    check = " ".join(load_compose()["services"]["web"]["healthcheck"]["test"])
    assert "http://127.0.0.1:8000/healthz" in check
    assert "'Host': p.urlsplit(os.environ['SITE_URL']).netloc" in check
    example = dict(
        line.split("=", 1)
        for line in (ROOT / ".env.example").read_text().splitlines()
        if "=" in line and not line.lstrip().startswith("#")
    )
    host = example["SITE_URL"].split("://", 1)[1].split("/", 1)[0]
    assert host in example["ALLOWED_HOSTS"].split(",")
    assert "127.0.0.1" not in example["ALLOWED_HOSTS"]
