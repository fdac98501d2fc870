from django.urls import path

from jobs.exports import export_paths

from . import views

app_name = "inspections"

urlpatterns = [
    path("", views.index, name="index"),
    *export_paths("export", views.inspection_export, "export"),
    path("calendar/", views.calendar, name="calendar"),
    path("new/", views.inspection_new, name="inspection_new"),
    path("<int:pk>/", views.inspection_detail, name="inspection_detail"),
    path("<int:pk>/step/<slug:name>/", views.inspection_step, name="inspection_step"),
    path("<int:pk>/<slug:action>/", views.inspection_action, name="inspection_action"),
    path("photos/<int:pk>/", views.inspection_photo, name="inspection_photo"),
    path("warrants/<int:pk>/", views.warrant_detail, name="warrant_detail"),
    path(
        "warrants/<int:pk>/step/<slug:name>/", views.warrant_step, name="warrant_step"
    ),
    path("premises/<int:pk>/", views.premises_detail, name="premises_detail"),
    path("facilities/", views.facility_list, name="facility_list"),
    path("facilities/new/", views.facility_edit, name="facility_new"),
    path("facilities/<int:pk>/", views.facility_detail, name="facility_detail"),
    path("facilities/<int:pk>/edit/", views.facility_edit, name="facility_edit"),
    path("proof/<int:pk>/", views.proof_record, name="proof_record"),
    path("equipment/<int:pk>/", views.equipment_detail, name="equipment_detail"),
    path("bmps/new/", views.bmp_new, name="bmp_new"),
    path("bmps/<int:pk>/", views.bmp_detail, name="bmp_detail"),
    path("outfalls/", views.outfall_list, name="outfall_list"),
    *export_paths("outfalls/export", views.outfall_export, "outfall_export"),
    path("outfalls/new/", views.outfall_edit, name="outfall_new"),
    path("outfalls/<int:pk>/", views.outfall_detail, name="outfall_detail"),
    path("outfalls/<int:pk>/edit/", views.outfall_edit, name="outfall_edit"),
    path("outfalls/<int:pk>/screen/", views.screening_new, name="screening_new"),
    path("screenings/<int:pk>/", views.screening_detail, name="screening_detail"),
    path(
        "screenings/<int:pk>/photos/",
        views.screening_photo_new,
        name="screening_photo_new",
    ),
    path("screening-photos/<int:pk>/", views.screening_photo, name="screening_photo"),
    path("spills/", views.spill_list, name="spill_list"),
    path("spills/new/", views.spill_new, name="spill_new"),
    path("spills/<int:pk>/", views.spill_detail, name="spill_detail"),
    path("spills/<int:pk>/step/<slug:name>/", views.spill_step, name="spill_step"),
    path("spills/<int:pk>/open-case/", views.spill_open_case, name="spill_open_case"),
    path("dye-tests/", views.dyetest_list, name="dyetest_list"),
    path("approvals/", views.approval_list, name="approval_list"),
]
