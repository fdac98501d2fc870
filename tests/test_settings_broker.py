"""The embedded filesystem broker keeps every file it writes under VAR_DIR.

kombu's filesystem transport falls back to a folder of the working directory for
every folder option it is not given; its exchange tables ("control") were once
committed to the repository that way. The settings are loaded in a fresh
process with the environment of `make run` (no Redis, VAR_DIR elsewhere)."""

import json
import subprocess
import sys
from pathlib import Path

from kombu.transport import filesystem

ROOT = Path(__file__).resolve().parent.parent

LOAD = """
import json, django
from django.conf import settings
django.setup()
print(json.dumps({
    "var_dir": str(settings.VAR_DIR),
    "url": settings.CELERY_BROKER_URL,
    "options": settings.CELERY_BROKER_TRANSPORT_OPTIONS,
}))
"""


def kombu_folder_options() -> set[str]:
    """The folder options kombu's filesystem channel reads (data_folder_in,
    data_folder_out, processed_folder, control_folder, ...), from kombu itself
    so a new one in a later version is not missed."""
    return {name for name in vars(filesystem.Channel) if "folder" in name}


def load_settings(tmp_path, module="poquott_ms4.settings.local") -> dict:
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": module,
        "VAR_DIR": str(tmp_path / "var"),
        "REDIS_URL": "",
        "SECRET_KEY": "test",
    }
    out = subprocess.run(
        [sys.executable, "-c", LOAD],
        cwd=tmp_path,  # not the project folder: nothing may land in the cwd
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_every_filesystem_broker_folder_is_under_var_dir(tmp_path):
    loaded = load_settings(tmp_path)
    assert loaded["url"] == "filesystem://"
    var_dir = Path(loaded["var_dir"])
    options = loaded["options"]
    wanted = kombu_folder_options()
    assert {"data_folder_in", "data_folder_out", "processed_folder"} <= wanted
    assert "control_folder" in wanted
    missing = wanted - set(options)
    assert not missing, f"kombu would put these in the working directory: {missing}"
    for name in wanted:
        folder = Path(options[name])
        assert folder.is_absolute(), name
        assert folder.is_relative_to(var_dir), (name, folder)
        assert folder.is_dir(), f"{name} {folder} is not created"
    assert not (tmp_path / "control").exists()


def test_the_control_folder_is_not_committed():
    tracked = subprocess.run(
        ["git", "ls-files", "control"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert tracked == ""
    ignored = (ROOT / ".gitignore").read_text().split()
    assert "/control/" in ignored
    assert "package-lock.json" not in ignored
    assert (ROOT / "package-lock.json").is_file()
