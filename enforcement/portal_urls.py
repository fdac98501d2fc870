from django.urls import path

from . import portal_views

app_name = "portal_appeal"

urlpatterns = [
    path("notice/<int:notice_pk>/", portal_views.appeal_new, name="new"),
    path("receipt/<int:pk>/", portal_views.appeal_receipt, name="receipt"),
]
