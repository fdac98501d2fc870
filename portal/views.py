"""The respondent's page (issue 18): enter the code printed on the papers, then
see that party's own records of the case, with what is due and by when."""

from django.contrib import messages
from django.http import FileResponse, Http404
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from documents import services as document_services
from kernel.actions import attempt_errors
from kernel.uploads import MAX_FILES
from limits.throttle import client_ip

from . import selectors, services, throttle
from .session import close_session, current_access, open_session, respondent_required

WRONG = (
    "That code does not open a page. Check it against your letter (four groups of "
    "four letters and digits, such as K7Q4-MZ8P-3HXR-T9WD) or call the office."
)


@never_cache
@require_http_methods(["GET", "POST"])
def enter(request):
    """The code form. A wrong, revoked or malformed code gets one and the same
    answer; wrong codes are counted per address (an IPv6 /64 as one) and
    logged. Once an address is over the limit it waits, whatever it types; no
    code is ever locked, so strangers cannot lock a holder out."""
    if request.method == "GET":
        if current_access(request) is not None:
            return render(request, "portal/enter.html", {"open": True})
        return render(request, "portal/enter.html", {})
    code = request.POST.get("code", "")
    address = client_ip(request)
    if throttle.is_throttled(address):
        return render(
            request,
            "portal/enter.html",
            {"throttled": True, "minutes": throttle.cooloff_minutes()},
            status=429,
        )
    access = services.portal_open(code=code, address=address)
    if access is None:
        throttle.record_failure(address)
        services.log_wrong_code(code, address)
        return render(request, "portal/enter.html", {"wrong": WRONG}, status=200)
    open_session(request, access)
    return redirect("portal:home")


@never_cache
@respondent_required
def home(request):
    access = request.portal
    return render(
        request,
        "portal/home.html",
        {
            "access": access,
            "case": access.case,
            "party": access.party,
            "notices": selectors.notices_for(access),
            "documents": selectors.documents_for(access),
            "contact_requests": selectors.contact_requests_of(access)[:5],
        },
    )


@never_cache
@respondent_required
def document(request, pk):
    """One of the party's own documents, the stored PDF (verified by its hash)."""
    found = selectors.document_for(request.portal, pk)
    if found is None:
        raise Http404("No such document of yours")
    matches, _ = document_services.document_verify(found)
    if not matches:
        raise Http404("This document cannot be served now; call the office")
    response = FileResponse(
        found.pdf.open("rb"),
        as_attachment=False,
        filename=found.download_name,
        content_type="application/pdf",
    )
    response["Cache-Control"] = "private, no-store"
    return response


@require_POST
def leave(request):
    close_session(request)
    messages.info(request, "You have left your case page. Your code still works.")
    return redirect("portal:enter")


@never_cache
@respondent_required
@require_http_methods(["GET", "POST"])
def contact(request):
    """New contact details, sent as a request the SMO confirms (notices go to
    the address of record)."""
    access = request.portal
    values = {
        name: request.POST.get(name, "")
        for name in ("mailing_address", "email", "phone")
    }
    errors = []
    if request.method == "POST":
        sent, refused = attempt_errors(
            lambda: services.contact_request_submit(
                access=access, address=client_ip(request), **values
            )
        )
        errors = [text for texts in refused.values() for text in texts]
        if sent is not None:
            messages.success(
                request,
                "Thank you: your new details are sent to the Stormwater Management "
                "Officer, who confirms them. Until then, letters go to the address "
                "of record shown here.",
            )
            return redirect("portal:home")
    return render(
        request,
        "portal/contact.html",
        {"access": access, "party": access.party, "values": values, "errors": errors},
        status=400 if errors else 200,
    )


@require_POST
@respondent_required
def reminders(request):
    email = "" if request.POST.get("off") else request.POST.get("email", "")
    access, refused = attempt_errors(
        lambda: services.reminders_set(
            access=request.portal, address=client_ip(request), email=email
        )
    )
    if refused:
        messages.error(
            request, " ".join(t for texts in refused.values() for t in texts)
        )
    else:
        messages.success(
            request,
            f"Reminders of your dates will be e-mailed to {access.reminder_email}."
            if access.reminder_email
            else "E-mail reminders are off.",
        )
    return redirect("portal:home")


@never_cache
@respondent_required
@require_http_methods(["GET", "POST"])
def correction(request, notice_pk):
    """Proof that the work a notice requires is done: a statement with photos
    or PDFs, for the SMO to accept or reject (portal.corrections)."""
    from . import corrections

    access = request.portal
    notice = corrections.correctable_notice(access, notice_pk)
    if notice is None:
        raise Http404("No notice of yours that requires work")
    statement = request.POST.get("statement", "")
    errors = {}
    if request.method == "POST":
        sent, errors = attempt_errors(
            lambda: corrections.correction_submit(
                access=access,
                notice=notice,
                statement=statement,
                uploads=request.FILES.getlist("files"),
                address=client_ip(request),
            )
        )
        if sent is not None:
            messages.success(
                request,
                "Thank you: your proof is sent to the Stormwater Management Officer, "
                "who reviews it. This page shows the outcome. Until the notice is "
                "recorded complied, its dates still run.",
            )
            return redirect("portal:home")
    return render(
        request,
        "portal/correction_form.html",
        {
            "access": access,
            "notice": notice,
            "statement": statement,
            "errors": errors,
            "max_files": MAX_FILES,
        },
        status=400 if errors else 200,
    )
