"""One rule for photos' originals (with their GPS and camera data): a resident's
report photo and a respondent's proof photo alike are the SMO's only
(kernel.roles.may_read_originals); the clerk reads the copies without metadata."""

import pytest
from django.urls import reverse

from intake.models import Report
from intake.services import report_submit
from kernel.roles import Role, may_read_originals
from kernel.uploads import process_image_upload
from portal.models import CorrectionSubmission

from ..reports.helpers import category, png_bytes, upload
from .test_proof_of_correction import pdf, photo_with_exif, send_proof, signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def originals(owner_code, issued_notice):
    """The original of a report photo and of a proof photo, and a proof PDF."""
    report = report_submit(
        channel=Report.Channel.WEB,
        fields={"description": "Oil in the drain", "address": "Washington Street"},
        pollutant_categories=[category("oil-fuel")],
        photos=[process_image_upload(upload("x.png", png_bytes()))],
    )
    send_proof(signed_in(owner_code), issued_notice, files=[photo_with_exif(), pdf()])
    files = list(CorrectionSubmission.objects.get().files.all())
    proof_photo = next(f for f in files if f.is_photo)
    proof_pdf = next(f for f in files if not f.is_photo)
    return {
        "report photo": reverse(
            "reports:photo_original", args=[report.photos.get().pk]
        ),
        "proof photo": reverse(
            "portal_staff:correction_file", args=[proof_photo.pk, "original"]
        ),
        "proof PDF": reverse(
            "portal_staff:correction_file", args=[proof_pdf.pk, "original"]
        ),
        "proof photo's copy": reverse(
            "portal_staff:correction_file", args=[proof_photo.pk, "display"]
        ),
    }


@pytest.mark.parametrize("kind", ["report photo", "proof photo"])
def test_a_photos_original_is_the_smos_only(client_as, originals, kind):
    url = originals[kind]
    assert client_as("clerk").get(url).status_code == 403
    response = client_as("smo").get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/octet-stream"
    assert response["Content-Disposition"].startswith("attachment")
    if kind == "proof photo":
        assert b"SecretCam" in b"".join(response.streaming_content)


def test_the_clerk_still_reads_the_copy_and_a_pdf_sent_as_proof(client_as, originals):
    clerk = client_as("clerk")
    assert clerk.get(originals["proof photo's copy"]).status_code == 200
    assert clerk.get(originals["proof PDF"]).status_code == 200


def test_the_rule_is_one_role(django_user_model):
    from django.contrib.auth.models import Group

    smo = django_user_model.objects.create_user("o-smo", password="x" * 20)
    smo.groups.add(Group.objects.get_or_create(name=Role.SMO.value)[0])
    clerk = django_user_model.objects.create_user("o-clerk", password="x" * 20)
    clerk.groups.add(Group.objects.get_or_create(name=Role.CLERK.value)[0])
    assert may_read_originals(smo) and not may_read_originals(clerk)
