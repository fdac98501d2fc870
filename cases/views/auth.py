from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView

from .. import throttle


class ThrottledAuthenticationForm(AuthenticationForm):
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


class StaffLoginView(LoginView):
    form_class = ThrottledAuthenticationForm
    template_name = "registration/login.html"
    redirect_authenticated_user = True
