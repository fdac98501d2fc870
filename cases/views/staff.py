"""Staff pages. The case-lifecycle work fills these in."""

from django.shortcuts import render

from ..roles import Role, role_required


@role_required(*Role)
def dashboard(request):
    return render(request, "cases/dashboard.html")
