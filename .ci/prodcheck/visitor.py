"""A visitor behind the TLS proxy: https as far as Django knows, cookies kept
here, and the resident's report as the form asks for it."""

from __future__ import annotations

import io
import re
import uuid
from dataclasses import dataclass
from http import client as http_client
from http.cookies import SimpleCookie

from .common import check


# --- HTTP, as a browser behind the TLS proxy ---------------------------------------
@dataclass
class Response:
    status: int
    headers: dict
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")

    @property
    def location(self) -> str:
        return self.headers.get("location", "")


class Browser:
    """One visitor: cookies kept here (Secure ones too: the proxy speaks https
    to the visitor), every request forwarded as https."""

    def __init__(self, port: int):
        self.port = port
        self.origin = f"https://127.0.0.1:{port}"
        self.cookies: dict[str, str] = {}

    def request(self, method, path, *, body=None, headers=None, timeout=30):
        conn = http_client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        sent = {
            "Host": f"127.0.0.1:{self.port}",
            "X-Forwarded-Proto": "https",
            "User-Agent": "ms4-prod-check",
        }
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if method == "POST":
            sent["Origin"] = self.origin
            sent["Referer"] = self.origin + path
        sent.update(headers or {})
        try:
            conn.request(method, path, body=body, headers=sent)
            raw = conn.getresponse()
            data = raw.read()
            for value in raw.headers.get_all("Set-Cookie") or []:
                jar = SimpleCookie()
                jar.load(value)
                for name, morsel in jar.items():
                    if morsel["max-age"] == "0" or not morsel.value and name:
                        self.cookies.pop(name, None)
                    else:
                        self.cookies[name] = morsel.value
            return Response(
                raw.status, {k.lower(): v for k, v in raw.getheaders()}, data
            )
        finally:
            conn.close()

    def get(self, path, *, follow=True, timeout=30) -> Response:
        for _ in range(6):
            response = self.request("GET", path, timeout=timeout)
            if not (follow and response.status in (301, 302, 303)):
                return response
            path = self._local(response.location)
        return response

    def _local(self, location: str) -> str:
        if location.startswith(self.origin):
            return location[len(self.origin) :] or "/"
        check(location.startswith("/"), f"redirected off the site to {location!r}")
        return location

    def post(self, path, fields: dict, *, files=(), timeout=30) -> Response:
        boundary = uuid.uuid4().hex
        out = io.BytesIO()
        for name, value in fields.items():
            for item in value if isinstance(value, list) else [value]:
                out.write(
                    f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"'
                    f"\r\n\r\n{item}\r\n".encode()
                )
        for name, filename, data, content_type in files:
            out.write(
                f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
                f'filename="{filename}"\r\nContent-Type: {content_type}\r\n\r\n'.encode()
            )
            out.write(data + b"\r\n")
        out.write(f"--{boundary}--\r\n".encode())
        return self.request(
            "POST",
            path,
            body=out.getvalue(),
            headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
            timeout=timeout,
        )


CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
# A page that tells the resident to send the report again (not an error page).
RETRY = re.compile(r"try again|again in a|please wait", re.I)
TRACKING = re.compile(r'id="tracking-code">\s*([^<\s]+)\s*<')


def csrf_token(response: Response) -> str:
    match = CSRF.search(response.text)
    check(match is not None, f"no CSRF token on the page (HTTP {response.status})")
    return match[1]


def form_errors(html: str) -> list[str]:
    """The error texts of a re-rendered form, for the failure message."""
    found = re.findall(
        r'class="[^"]*(?:invalid-feedback|alert-danger|errorlist)[^"]*"[^>]*>(.*?)</',
        html,
        re.S,
    )
    return [" ".join(re.sub(r"<[^>]+>", " ", f).split()) for f in found][:8]


def photo_jpeg() -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (64, 48), (90, 120, 60)).save(out, "JPEG", quality=80)
    return out.getvalue()


PHOTO = None


@dataclass
class Outcome:
    email: str
    status: str  # "ok", "http 500", "error ConnectionResetError", …
    code: str | None = None
    page: str = ""


def submit_report(
    browser: Browser, address: str, *, photo=False, key: str = "", form=None
) -> Outcome:
    """A resident files a report: the form (or `form`, opened before), the POST,
    the confirmation page. `key`: the key the phone made for the report
    (static/js/report-form.js), the same at every sending of it."""
    global PHOTO
    try:
        form = form or browser.get("/report/")
        if form.status != 200:
            return Outcome(address, f"http {form.status}", page=form.text[:300])
        fields = {
            "csrfmiddlewaretoken": csrf_token(form),
            "description": "Grey water with suds running from a pipe to the drain.",
            "address": "12 Shore Road",
            "reporter_email": address,
            "website": "",
        }
        if key:
            fields["client_key"] = key
        files = []
        if photo:
            PHOTO = PHOTO or photo_jpeg()
            files = [("photos", "drain.jpg", PHOTO, "image/jpeg")]
        posted = browser.post("/report/", fields, files=files)
        if posted.status in (429, 503) and RETRY.search(posted.text):
            return Outcome(address, "retry page", page=posted.text[:300])
        if posted.status != 302 or not posted.location.endswith("/report/done/"):
            return Outcome(address, f"http {posted.status}", page=posted.text[:300])
        done = browser.get("/report/done/", follow=False)
        match = TRACKING.search(done.text)
        if done.status != 200 or match is None:
            return Outcome(address, f"done page http {done.status}")
        return Outcome(address, "ok", code=match[1])
    except (OSError, http_client.HTTPException) as exc:
        return Outcome(address, f"error {type(exc).__name__}")
