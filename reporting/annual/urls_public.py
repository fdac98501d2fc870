from django.urls import path

from . import views

app_name = "public_annual"

urlpatterns = [
    path("", views.public_list, name="list"),
    path("<int:pk>/", views.public_detail, name="detail"),
    path("<int:pk>/pdf/", views.public_pdf, name="pdf"),
    path("<int:pk>/comment/", views.public_comment, name="comment"),
]
