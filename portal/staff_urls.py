"""The staff's side of the respondent's page, mounted at /staff/ (namespace
"portal_staff"): issue and revoke codes, decide what respondents sent."""

from django.urls import path

from . import staff_views

app_name = "portal_staff"

urlpatterns = [
    path(
        "cases/<str:number>/portal/<int:party_pk>/issue/",
        staff_views.issue,
        name="issue",
    ),
    path(
        "cases/<str:number>/portal/codes/<int:pk>/revoke/",
        staff_views.revoke,
        name="revoke",
    ),
    path(
        "cases/<str:number>/portal/contact/<int:pk>/<slug:decision>/",
        staff_views.contact_decide,
        name="contact_decide",
    ),
    path(
        "cases/<str:number>/portal/proof/<int:pk>/<slug:decision>/",
        staff_views.correction_decide,
        name="correction_decide",
    ),
    path(
        "portal-files/<int:pk>/<slug:which>/",
        staff_views.correction_file,
        name="correction_file",
    ),
]
