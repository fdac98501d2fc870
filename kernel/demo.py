"""The demo data of `make run` (`manage.py load_demo_data`; refused by the
production settings).

Each app registers the modules of its demo records in its AppConfig.ready()
(`register(self, "cases.demo", …)`), each with `load(stdout) -> None`,
idempotent. They run in the order of INSTALLED_APPS — the lower apps first, so
a demo record may use the demo records of the apps below it — and within an
app in the order given. They are named, not imported, so that no production
process loads demo code."""

from django.apps import apps

_MODULES: dict[str, tuple[str, ...]] = {}


def register(app_config, *modules: str) -> None:
    """`modules` (dotted names) hold `app_config`'s demo records."""
    _MODULES[app_config.label] = modules


def modules() -> list[str]:
    """Every registered demo module, in the order they are loaded."""
    return [
        name
        for config in apps.get_app_configs()
        for name in _MODULES.get(config.label, ())
    ]
