from django.urls import path

from . import views

app_name = "portal"

urlpatterns = [
    path("", views.enter, name="enter"),
    path("case/", views.home, name="home"),
    path("case/documents/<int:pk>/", views.document, name="document"),
    path("case/contact/", views.contact, name="contact"),
    path("case/reminders/", views.reminders, name="reminders"),
    path("case/notices/<int:notice_pk>/proof/", views.correction, name="correction"),
    path("leave/", views.leave, name="leave"),
]
