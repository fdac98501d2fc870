from django.urls import path

from . import views

app_name = "annual"

urlpatterns = [
    path("", views.index, name="index"),
    path("frozen/<int:pk>/", views.frozen, name="frozen"),
    path("frozen/<int:pk>/csv/", views.frozen_csv, name="frozen_csv"),
    path("frozen/<int:pk>/step/<slug:transition>/", views.frozen_step, name="step"),
    path("frozen/<int:pk>/comments/add/", views.comment_add, name="comment_add"),
    path("<str:year>/", views.year_page, name="year"),
    path("<str:year>/csv/", views.year_csv, name="year_csv"),
    path("<str:year>/freeze/", views.freeze, name="freeze"),
    path("<str:year>/<slug:metric>/", views.drilldown, name="count"),
]
