from django.urls import path

from . import views

app_name = "documents"

urlpatterns = [
    path("sample/<slug:kind>/", views.sample_preview, name="sample_preview"),
    path(
        "draft/<slug:kind>/<int:content_type_id>/<int:object_id>/",
        views.draft_preview,
        name="draft_preview",
    ),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/html/", views.stored_html, name="html"),
    path("<int:pk>/download/", views.download, name="download"),
    path("<int:pk>/verify/", views.verify, name="verify"),
    path("<int:pk>/retry/", views.retry, name="retry"),
]
