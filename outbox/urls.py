from django.urls import path

from . import views

app_name = "outbox"

urlpatterns = [
    path("", views.outbox_list, name="list"),
    path("<int:pk>/retry/", views.outbox_retry, name="retry"),
    path("documents/<int:pk>/email/", views.document_email, name="document_email"),
]
