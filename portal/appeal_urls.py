from django.urls import path

from . import appeal_views

app_name = "portal_appeal"

urlpatterns = [
    path("notice/<int:notice_pk>/", appeal_views.appeal_new, name="new"),
    path("receipt/<int:pk>/", appeal_views.appeal_receipt, name="receipt"),
]
