from django.apps import AppConfig


class EnforcementConfig(AppConfig):
    name = "enforcement"

    def ready(self):
        # Register the document builders (documents.registry) of notices,
        # appeals, corrective measures, suspensions and terminations.
        # The lists' exports the worker makes in the background (jobs.registry).
        # The case's appeal guard asks this on the case page (kernel.page_reads).
        from cases.selectors import register_panel_records
        from deadlines import ical
        from jobs import exports
        from kernel import demo, page_reads
        from kernel.models import register_event_kinds

        from . import documents, ical_feed  # noqa: F401
        from .selectors import case_appeal_pending, notice_sets, remedy_sets
        from .views import appeals, notices

        exports.register(notices.NOTICES_EXPORT, appeals.APPEALS_EXPORT)
        # The Board's hearing packet, bound by the worker (jobs.registry).
        from jobs.registry import register

        from .packet import HEARING_PACKET_WORK

        register(HEARING_PACKET_WORK)
        page_reads.register("enforcement.appeal_pending", case_appeal_pending)
        register_panel_records(remedy_sets)
        register_panel_records(notice_sets)
        # make run's demo data; the clocks' case first, so the enforcement case
        # stays the first of the case list.
        demo.register(self, "enforcement.demo_clocks", "enforcement.demo")
        register_event_kinds(
            [
                ("notice", "Notice of violation"),
                ("appeal", "Appeal"),
                ("enforcement", "Enforcement"),
            ]
        )
        # Hearings on the staff's calendar feeds, and the Board's own feed.
        ical.register_provider(ical_feed)
