from django.urls import path

from .views import staff

app_name = "cases"

urlpatterns = [
    path("", staff.dashboard, name="dashboard"),
]
