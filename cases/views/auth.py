from urllib.parse import urlsplit

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView, PasswordResetView

from kernel.site_url import site_url
from limits import ratelimit, throttle


class ThrottledSignInMixin:
    """The failed sign-in cool-off of `limits.throttle`, for any authentication
    form: during a cool-off even the right password is refused."""

    def clean(self):
        username = self.cleaned_data.get("username") or ""
        ip = throttle.client_ip(self.request)
        if throttle.is_throttled(username, ip):
            raise forms.ValidationError(
                "Too many failed sign-ins. Please wait %(minutes)s minutes and try "
                "again, or ask the village office to reset your password.",
                code="throttled",
                params={"minutes": throttle.cooloff_minutes()},
            )
        try:
            cleaned = super().clean()
        except forms.ValidationError:
            throttle.record_failure(username, ip)
            raise
        throttle.clear(username, ip)
        return cleaned


class ThrottledAuthenticationForm(ThrottledSignInMixin, AuthenticationForm):
    pass


class ThrottledAdminAuthenticationForm(ThrottledSignInMixin, AdminAuthenticationForm):
    """/admin/login/: the same cool-off, counted in the same buckets as the
    staff sign-in (a guess at one counts against the other)."""


class StaffLoginView(LoginView):
    form_class = ThrottledAuthenticationForm
    template_name = "registration/login.html"
    redirect_authenticated_user = True


class ThrottledPasswordResetView(PasswordResetView):
    """The password-reset form, limited per address and per e-mail address asked
    for (ratelimit.PASSWORD_RESET); over the limit the form says so, with 429,
    and no e-mail is sent. The e-mail's link is SITE_URL's scheme and host, never
    the Host the form was posted to (127.0.0.1 behind Compose's health check, or
    a forged header)."""

    @property
    def extra_email_context(self):
        # Overrides the protocol and domain Django takes from the request.
        address = urlsplit(site_url())
        return {
            "protocol": address.scheme,
            "domain": address.netloc,
            "site_name": settings.VILLAGE["name"],
        }

    def form_valid(self, form):
        email = form.cleaned_data["email"].strip().lower()
        from_address = ratelimit.hit(ratelimit.PASSWORD_RESET, self.request)
        for_email = ratelimit.hit(ratelimit.PASSWORD_RESET, self.request, subject=email)
        if from_address and for_email:
            return super().form_valid(form)
        form.add_error(  # the form's template shows the e-mail field's errors only
            "email",
            "Too many password-reset requests in a short time. Please wait about "
            f"{ratelimit.PASSWORD_RESET.minutes} minutes, or call the village office "
            f"at {settings.VILLAGE['phone']}.",
        )
        return self.render_to_response(self.get_context_data(form=form), status=429)
