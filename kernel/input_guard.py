"""Input the database cannot hold is refused before any view reads it.

PostgreSQL text cannot contain a NUL character: a "\\x00" in a parameter that
reaches a query (an Open311 field, an API key, the iCal token, a staff list's
filter, a case number in the path) ends as a DataError, a 500. Rather than guard
every field, InputGuardMiddleware answers 400 to any request whose path, query
string or form fields (names, values and uploaded file names, not the files'
contents, which are decoded as images) contain one.

ascii_digits is the check for "a number typed by someone": str.isdigit is also
true for "²" and other Unicode digits, which int() and the database refuse, and
for 5,000 digits, which int() refuses too.

article_number_clean is the one check of a USPS certified-mail article number,
wherever one is typed (a notice's service, a notice of hearing's sending, the
mailing of the Board's decision, a suspension's notice of reasons)."""

from collections.abc import Callable

from django.core.exceptions import ValidationError
from django.http import HttpResponse, JsonResponse

NOT_ALLOWED = "The request contains a character that is not allowed."
NUL = "\x00"


MAX_DIGITS = 18  # an id fits PostgreSQL's bigint; int() refuses 4,300 digits


def ascii_digits(value, *, max_digits: int = MAX_DIGITS) -> bool:
    """True for 1 to max_digits characters, each 0-9."""
    return (
        isinstance(value, str)
        and 0 < len(value) <= max_digits
        and value.isascii()
        and value.isdigit()
    )


# A USPS certified-mail article number: 20 or 22 digits, printed in groups
# separated by spaces (stored without them).
ARTICLE_NUMBER_LENGTHS = (20, 22)
ARTICLE_NUMBER_MISSING = "Give the certified mail article number."
ARTICLE_NUMBER_INVALID = (
    "A certified mail article number has 20 or 22 digits (spaces are allowed), "
    "as printed on the green card or the receipt."
)


def article_number_clean(value, *, required: bool = True) -> str:
    """The article number's digits, spaces removed; "" when none is given and
    none is `required`. Raises ValidationError (plain words, no code's text)
    when it is missing but required, or is not 20 or 22 digits 0-9."""
    digits = "".join((value or "").split())
    if not digits:
        if required:
            raise ValidationError(ARTICLE_NUMBER_MISSING, code="required")
        return ""
    if len(digits) not in ARTICLE_NUMBER_LENGTHS or not ascii_digits(
        digits, max_digits=max(ARTICLE_NUMBER_LENGTHS)
    ):
        raise ValidationError(ARTICLE_NUMBER_INVALID, code="invalid")
    return digits


def _contains_nul(pairs) -> bool:
    return any(NUL in key or any(NUL in v for v in values) for key, values in pairs)


def _has_nul(request) -> bool:
    if NUL in request.path or _contains_nul(request.GET.lists()):
        return True
    if request.method != "POST":
        return False
    try:
        post, files = request.POST, request.FILES
    except OSError:  # the client went away; the view's own reading says so
        return False
    if _contains_nul(post.lists()):
        return True
    return any(
        NUL in key or any(NUL in (f.name or "") for f in uploads)
        for key, uploads in files.lists()
    )


# How an interface with its own error format answers the refusal: (path prefix,
# answer(request, message) -> response), filled by the app that owns the
# interface in its AppConfig.ready() (Open311's JSON and XML errors: cases).
_ANSWERS: list[tuple[str, Callable[[object, str], HttpResponse | None]]] = []


def register_refusal_answer(
    prefix: str, answer: Callable[[object, str], HttpResponse | None]
) -> None:
    """Requests under `prefix` get `answer(request, NOT_ALLOWED)` (None: the
    plain answer). Registering the same pair twice keeps one."""
    if (prefix, answer) not in _ANSWERS:
        _ANSWERS.append((prefix, answer))


def _refusal(request) -> HttpResponse:
    path = request.path
    for prefix, answer in _ANSWERS:
        if path.startswith(prefix):
            response = answer(request, NOT_ALLOWED)
            if response is not None:
                return response
    if path.startswith("/api/"):
        return JsonResponse({"error": NOT_ALLOWED}, status=400)
    return HttpResponse(
        NOT_ALLOWED, status=400, content_type="text/plain; charset=utf-8"
    )


class InputGuardMiddleware:
    """Early in MIDDLEWARE: a request carrying a NUL character gets a 400."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if _has_nul(request):
            return _refusal(request)
        return self.get_response(request)
