from django.urls import path

from .views import public

app_name = "public"

urlpatterns = [
    path("", public.home, name="home"),
    path("privacy/", public.privacy, name="privacy"),
]
