"""The database not answering is a plain "not saved, try again" (issue 31):
503 with Retry-After, never the server-error page. The production check stops
the real PostgreSQL under a resident's report (.ci/prodcheck/faults.py)."""

import pytest
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from django.test import RequestFactory

from poquott_ms4.middleware import DatabaseUnavailableMiddleware


def _answer(exception):
    middleware = DatabaseUnavailableMiddleware(lambda request: HttpResponse())
    request = RequestFactory().post("/report/")
    return middleware.process_exception(request, exception)


@pytest.mark.parametrize(
    "exception",
    [
        OperationalError("connection failed: Connection refused"),
        InterfaceError("connection already closed"),
    ],
)
def test_a_database_that_does_not_answer_is_503_not_saved_try_again(exception):
    response = _answer(exception)
    assert response.status_code == 503
    assert response["Retry-After"] == "60"
    page = response.content.decode()
    assert "not saved" in page and "try again in a minute" in page


def test_other_errors_keep_the_server_error_page():
    assert _answer(ValueError("a bug")) is None


def test_it_is_the_last_middleware_so_it_sees_the_views_exceptions(settings):
    assert settings.MIDDLEWARE[-1] == (
        "poquott_ms4.middleware.DatabaseUnavailableMiddleware"
    )
