from django.apps import AppConfig


class PortalConfig(AppConfig):
    """The respondent's page (issue 18), above every case app (STYLE.md,
    "Layers"; issue 30). The apps below call it only through the hooks it fills
    here: the access code printed on a party's papers, the address a party asked
    reminders at, and its records on the case page."""

    name = "portal"
    verbose_name = "The respondent's page"

    def ready(self):
        from cases.selectors import register_panel_records
        from deadlines import reminders
        from documents import registry

        from . import documents, selectors, services

        registry.register_online_access(documents.with_online_access)
        reminders.register_party_emails(services.reminder_emails_for)
        register_panel_records(selectors.case_portal_sets)
        # make run's demo data, after every case app's (it prints the access
        # codes of the documents those issued).
        from kernel import demo

        demo.register(self, "portal.demo")
        from kernel.models import register_event_kinds

        register_event_kinds([("portal", "Respondent's page")])
