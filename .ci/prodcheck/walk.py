"""The walk over HTTP: a resident's report with a photo and its receipt; the
SMO signs in, opens the dashboard, issues a notice and downloads its PDF."""

from __future__ import annotations

import json
import re

from .common import check, say, wait_for
from .visitor import Browser, csrf_token, form_errors, submit_report


class Walk:
    """Mixed into prod_check.Check (its stack: self.pg, self.app, self.sink…)."""

    def healthz(self) -> tuple[int, dict]:
        response = Browser(self.web_port).get("/healthz", timeout=10)
        try:
            return response.status, json.loads(response.text)
        except ValueError:
            return response.status, {"body": response.text[:200]}

    def happy_path(self) -> None:
        status, body = self.healthz()
        check(
            status == 200 and body.get("status") == "ok",
            f"/healthz is not healthy: {status} {body}",
        )
        say(f"/healthz {status} {body}")

        # Plain http is sent to https (the proxy would never let it through).
        plain = Browser(self.web_port).request(
            "GET", "/", headers={"X-Forwarded-Proto": "http"}
        )
        check(
            plain.status == 301 and plain.location.startswith("https://"),
            f"plain http is not redirected to https ({plain.status})",
        )

        resident = Browser(self.web_port)
        address = self.address("walk", 1)
        outcome = submit_report(resident, address, photo=True)
        check(outcome.status == "ok", f"the resident's report failed: {outcome}")
        check(
            {"csrftoken", "sessionid"} <= set(resident.cookies),
            f"cookies kept: {sorted(resident.cookies)}",
        )
        photos = self.pg.scalar(
            "SELECT count(*) FROM cases_reportphoto p JOIN cases_report r "
            "ON r.id = p.report_id WHERE r.tracking_code = %s",
            outcome.code,
        )
        check(photos == 1, f"the report's photo was not stored ({photos})")
        self.wait_delivered("walk", {address}, timeout=30)
        bodies = self.sink.handler.bodies(address)
        check(
            any(outcome.code in b for b in bodies),
            "the receipt does not give the tracking code",
        )
        say(f"report {outcome.code} filed with a photo; receipt at the SMTP sink")

        staff = self.seed_staff()
        smo = Browser(self.web_port)
        login = smo.get("/accounts/login/")
        posted = smo.post(
            "/accounts/login/",
            {
                "csrfmiddlewaretoken": csrf_token(login),
                "username": "prodcheck-smo",
                "password": staff["password"],
            },
        )
        check(
            posted.status == 302,
            f"the SMO's sign-in was refused ({posted.status}): {posted.text[:300]}",
        )
        dashboard = smo.get("/staff/")
        check(
            dashboard.status == 200 and "Dashboard" in dashboard.text,
            f"the dashboard did not open ({dashboard.status})",
        )
        say("the SMO signed in over https and opened the dashboard")

        new = smo.get(f"/enforcement/case/{staff['case_pk']}/notices/new/")
        check(new.status == 200, f"the notice form did not open ({new.status})")
        # Abatement (§ 132-13 A(3)) goes with a remediation deadline (R-NOV-2).
        check('name="req_abatement"' in new.text, "no abatement on the notice form")
        posted = smo.post(
            f"/enforcement/case/{staff['case_pk']}/notices/new/",
            {
                "csrfmiddlewaretoken": csrf_token(new),
                "recipient": str(staff["party_pk"]),
                "violation_date": staff["violation_date"],
                "findings": "Grey water pumped to the catch basin on Shore Road.",
                "req_abatement": "on",
                "particulars_abatement": "Clean the catch basin on Shore Road.",
                "remediation_days": "10",
                "proposed_fine": "",
            },
        )
        notice = re.search(r"/enforcement/notices/(\d+)/$", posted.location)
        check(
            posted.status == 302 and notice is not None,
            f"the draft notice was not saved ({posted.status}): "
            f"{form_errors(posted.text)}",
        )
        page = smo.get(posted.location)
        issued = smo.post(
            f"/enforcement/notices/{notice[1]}/step/issue/",
            # A binding step: the SMO ticks "I confirm: …" (kernel.confirmations).
            {"csrfmiddlewaretoken": csrf_token(page), "issue-confirm": "on"},
        )
        check(
            issued.status == 302,
            f"the notice was not issued ({issued.status}): {form_errors(issued.text)}",
        )
        page = smo.get(issued.location)
        check("issued" in page.text, "the notice page does not say it was issued")
        document = re.search(r"/staff/documents/(\d+)/", page.text)
        check(document is not None, "the issued notice links no document")
        say(f"notice NOV-{notice[1]} drafted and issued; waiting for its PDF")

        def pdf():
            got = smo.get(f"/staff/documents/{document[1]}/download/")
            return got if got.status == 200 else None

        download = wait_for(pdf, timeout=90, what="the worker to render the PDF")
        check(download.body.startswith(b"%PDF"), "the download is not a PDF")
        check(
            "private" in download.headers.get("cache-control", ""),
            "the PDF is not sent Cache-Control: private",
        )
        say(f"PDF downloaded ({len(download.body):,} bytes, starts %PDF)")
        status, body = self.healthz()
        check(status == 200 and body.get("status") == "ok", f"/healthz: {body}")

    SEED = """
import json, secrets
from django.contrib.auth.models import Group
from django.contrib.auth import get_user_model
from cases.models import CaseParty, CaseSource
from kernel.roles import Role
from cases.services import case_add_party, case_open, case_run_transition

User = get_user_model()
password = secrets.token_urlsafe(16)
users = {}
for name, role in (("prodcheck-smo", Role.SMO), ("prodcheck-clerk", Role.CLERK)):
    user = User.objects.create_user(
        username=name, password=password, email=name + "@poquott.example",
        first_name=name.split("-")[1].title(), last_name="Prodcheck",
    )
    user.groups.add(Group.objects.get(name=role.value))
    users[name] = user
smo = users["prodcheck-smo"]
case = case_open(
    actor=smo, source=CaseSource.PHONE, summary="Grey water to the storm drain",
    new_premises={"address": "12 Shore Road"},
)
case = case_run_transition(case=case, transition="start_investigation", actor=smo)
link = case_add_party(
    case=case, actor=smo, role=CaseParty.Role.OWNER,
    new_party={"name": "Pat Owner", "mailing_address": "12 Shore Road\\nPoquott, NY 11733"},
)
case = case_run_transition(
    case=case, transition="confirm_violation", actor=smo,
    responsible_party=link.party,
    violation_finding="Grey water pumped to the catch basin.",
)
print("SEED " + json.dumps({
    "password": password, "case_pk": case.pk, "party_pk": link.party.pk,
    "violation_date": case.violation_confirmed_on.isoformat(),
}))
"""

    def seed_staff(self) -> dict:
        out = self.app.shell(self.SEED)
        line = next(x for x in out.splitlines() if x.startswith("SEED "))
        say("staff users (SMO, clerk) and a case with a confirmed violation created")
        return json.loads(line[5:])
