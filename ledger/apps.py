from django.apps import AppConfig


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = "Ledger of fines and costs"

    def ready(self):
        # The lower apps ask the ledger through registries they own (STYLE.md,
        # "Layers"): enforcement (a notice's fine, an invoice, its payments), the
        # case's resolve guard.
        from . import confirmations, documents, hooks  # noqa: F401 (they register)

        hooks.register_all()

        # The lists' exports the worker makes in the background (jobs.registry).
        from jobs import exports

        from . import views

        exports.register(views.LEDGER_EXPORT, views.PAYMENTS_EXPORT)
        # The Justice Court packet, bound by the worker (jobs.registry).
        from jobs.registry import register

        from .packet import COURT_PACKET_WORK

        register(COURT_PACKET_WORK)
        # make run's demo data.
        from kernel import demo

        demo.register(self, "ledger.demo")
