from django.apps import AppConfig


class DocumentsConfig(AppConfig):
    """The document pipeline every case app uses (issue 30): a document kind's
    contract and registry, rendering to tagged PDF/A, freezing and hashing the
    issued copy (IssuedDocument), the packets' binder. Each app registers its own
    kinds (facts, template, who may issue) in its ready(); the pipeline imports
    none of them."""

    name = "documents"
    verbose_name = "Issued documents"

    def ready(self):
        from kernel.models import register_event_kinds

        register_event_kinds([("document", "Document")])  # issued, e-mailed
