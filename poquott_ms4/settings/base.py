"""Settings shared by every environment.

Everything that differs between a laptop, CI and the village's server comes from
the environment (see `.env.example`); the embedded default needs no PostgreSQL,
Redis or mail server: SQLite, kombu's filesystem broker and e-mail as files in var/.
"""

import ipaddress
from pathlib import Path

import environ
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent.parent
# A relative VAR_DIR (the Makefile's default "var") is taken from the project folder.
VAR_DIR = BASE_DIR / environ.Env().str("VAR_DIR", default="var")

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

SECRET_KEY = env.str("SECRET_KEY", default="insecure-local-only-key-change-me")
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_fsm",
    "simple_history",
    "crispy_forms",
    "crispy_bootstrap5",
    "csp",
    "kernel",  # the workflow kernel, roles, the chronology, citations (the bottom)
    "limits",  # the database-backed attempt counters (below cases)
    "documents",  # the document pipeline: kinds, rendering, issued copies (below cases)
    "outbox",  # every e-mail a row first, delivered by the worker (below cases)
    "deadlines",  # the legal clocks: calendar, engine, deadlines, reminders (below cases)
    "intake",  # resident reports, Open311, the public pages (below cases)
    "cases",
    "inspections",
    "enforcement",
    "ledger",
    "reporting",  # the annual report and the maps (above every case app)
    "fieldwork",  # the inspector's day offline (above every case app)
    "portal",  # the respondent's page (above every case app; its demo prints last)
    "operations",  # the health check and the backups (above every app)
    "jobs",
]

MIDDLEWARE = [
    "poquott_ms4.middleware.EdgeMiddleware",  # trusted proxies; private, no-store
    "django.middleware.security.SecurityMiddleware",
    "kernel.input_guard.InputGuardMiddleware",  # NUL characters: 400, never the DB
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "poquott_ms4.middleware.PublicReadCorsMiddleware",  # public data read elsewhere
    "poquott_ms4.middleware.DatabaseUnavailableMiddleware",  # 503: "not saved, try again"
]

ROOT_URLCONF = "poquott_ms4.urls"
WSGI_APPLICATION = "poquott_ms4.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "cases.context_processors.site",
            ],
        },
    },
]

DATABASES = {
    "default": env.db_url(
        "DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'poquott_ms4.sqlite3'}"
    )
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False  # services own their transactions
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several processes (web, worker, beat) share the file: wait rather than fail.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.str("REDIS_URL", default="")

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            # A Redis that does not answer costs a request a second or so, never
            # a hang: the limits that use the cache then let the request through
            # (limits.failsafe) and /healthz answers 503.
            "OPTIONS": {
                "socket_connect_timeout": env.float("CACHE_TIMEOUT_SECONDS", default=1),
                "socket_timeout": env.float("CACHE_TIMEOUT_SECONDS", default=1),
            },
        }
    }
else:
    # A file cache is shared by every process of the embedded default, so the
    # sign-in throttle and the report rate limit hold across them.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache"),
        }
    }

# The signed-in user is read with their roles in one query (kernel/role_backend.py).
# ModelBackend stays second so that sessions signed in before keep working.
AUTHENTICATION_BACKENDS = [
    "kernel.role_backend.RoleBackend",
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {
        "NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"
    },
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "cases:dashboard"
LOGOUT_REDIRECT_URL = "public:home"

# Failed sign-ins: a cool-off, never a permanent lock-out (a village hall shares
# one address). Counted per (username, address) and, more loosely, per address.
LOGIN_THROTTLE_PER_USER = env.int("LOGIN_THROTTLE_PER_USER", default=5)
LOGIN_THROTTLE_PER_IP = env.int("LOGIN_THROTTLE_PER_IP", default=30)
LOGIN_THROTTLE_COOLOFF_SECONDS = env.int("LOGIN_THROTTLE_COOLOFF_SECONDS", default=900)
# The respondent's page (portal): wrong access codes, per address (an
# IPv6 /64 counts as one address, limits.addresses).
PORTAL_THROTTLE_PER_IP = env.int("PORTAL_THROTTLE_PER_IP", default=10)
PORTAL_THROTTLE_COOLOFF_SECONDS = env.int(
    "PORTAL_THROTTLE_COOLOFF_SECONDS", default=900
)
# A respondent's session: signed, for one case, ended after two idle hours.
PORTAL_SESSION_SECONDS = env.int("PORTAL_SESSION_SECONDS", default=7200)
# Reports from one address (web form): count per window of seconds
# (limits/ratelimit.py reads REPORT_RATE_LIMIT = (count, seconds)).
REPORT_RATE_LIMIT = (
    env.int("REPORT_RATE_LIMIT_COUNT", default=10),
    env.int("REPORT_RATE_LIMIT_SECONDS", default=3600),
)
# Wrong Open311 api_keys from one address per window of seconds; past it every
# key from there is refused with 429 until the window ends (intake.open311.keys).
OPEN311_WRONG_KEY_LIMIT = (
    env.int("OPEN311_WRONG_KEY_LIMIT_COUNT", default=20),
    env.int("OPEN311_WRONG_KEY_LIMIT_SECONDS", default=3600),
)

# Staff sessions last a working day, counted from sign-in (SESSION_SAVE_EVERY_REQUEST
# stays off, so activity does not stretch it), and end when the browser closes:
# the village hall's computers are shared. Sessions are in the database (Django's
# default engine), so a Redis outage signs nobody out.
SESSION_COOKIE_AGE = env.int("SESSION_COOKIE_AGE", default=12 * 60 * 60)
SESSION_EXPIRE_AT_BROWSER_CLOSE = env.bool(
    "SESSION_EXPIRE_AT_BROWSER_CLOSE", default=True
)

# The reverse proxies in front of the site (addresses or networks, the format of
# gunicorn's --forwarded-allow-ips, which the Dockerfile sets from the same
# variable). Only a request from one of them may set X-Forwarded-For/-Proto
# (poquott_ms4.middleware). With TRUSTED_PROXY_COUNT = N proxies in a row, the
# visitor's address, which every limit keys on, is the Nth entry from the right
# of X-Forwarded-For (limits.throttle.client_ip); 0 = REMOTE_ADDR.
TRUSTED_PROXIES = env.list("TRUSTED_PROXIES", default=[])
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
for _proxy in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy)  # strict, as gunicorn is
    except ValueError as exc:
        raise ImproperlyConfigured(
            f"TRUSTED_PROXIES: {_proxy!r} is not an address or network ({exc})."
        ) from exc
if TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured("TRUSTED_PROXY_COUNT cannot be negative.")

LANGUAGE_CODE = "en-us"
TIME_ZONE = "America/New_York"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_ROOT = Path(env.str("MEDIA_ROOT", default=str(VAR_DIR / "media")))
# Nothing uploaded is served from MEDIA_URL: every file goes through a view that
# checks who is asking. MEDIA_URL is set only because Django wants one.
MEDIA_URL = "/private-media-not-served/"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = 30 * 1024 * 1024

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

# E-mail: files under var/mail unless EMAIL_URL names an SMTP server.
EMAIL_URL = env.str("EMAIL_URL", default="")
if EMAIL_URL:
    vars().update(env.email_url("EMAIL_URL"))
    # A relay that accepts the connection and then hangs must not hold a worker
    # for ever: the attempt fails and the outbox retries it.
    EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=30)
else:
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    EMAIL_FILE_PATH = str(VAR_DIR / "mail")
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="stormwater@poquott.example")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# The village: printed on letterhead, e-mails and public pages. Settings, not template text.
# Where the site is served, for the links of e-mails and calendar feeds (which
# are read outside the site and need an absolute address). No trailing slash.
# Unset, a page, a feed or an Open311 document names the host it was asked on
# (request.build_absolute_uri; ALLOWED_HOSTS refuses any other host), and what
# has no request (the worker's e-mails) says http://127.0.0.1:$PORT, the port of
# `make run` (kernel.site_url).
SITE_URL_SET = bool(env.str("SITE_URL", default="").strip())
SITE_URL = env.str(
    "SITE_URL", default=f"http://127.0.0.1:{env.int('PORT', default=8000)}"
).rstrip("/")
VILLAGE = {
    "name": env.str("VILLAGE_NAME", default="Incorporated Village of Poquott"),
    "short_name": env.str("VILLAGE_SHORT_NAME", default="Poquott"),
    "address": env.str(
        "VILLAGE_ADDRESS", default="45 Birchwood Avenue, Poquott, New York 11733"
    ),
    "phone": env.str("VILLAGE_PHONE", default="(631) 476-4043"),
    "smo_name": env.str("SMO_NAME", default="Stormwater Management Officer"),
    "smo_email": env.str("SMO_EMAIL", default="stormwater@poquott.example"),
    "smo_phone": env.str("SMO_PHONE", default="(631) 476-4043"),
    "clerk_office": env.str(
        "CLERK_OFFICE", default="Village Clerk, 45 Birchwood Avenue, Poquott, NY 11733"
    ),
    "site_url": SITE_URL,
    # Where and how the Village is paid (issue 27): printed on the notice's fine,
    # the receipt and the respondent's page (documents.contracts.how_to_pay).
    "payable_to": env.str(
        "VILLAGE_PAYABLE_TO", default="Incorporated Village of Poquott"
    ),
    "payment_methods": env.str(
        "VILLAGE_PAYMENT_METHODS",
        default="by check or money order payable to the Village, in cash, or by "
        "card at the window",
    ),
    "payment_office": env.str(
        "VILLAGE_PAYMENT_OFFICE",
        default="Village Clerk, 45 Birchwood Avenue, Poquott, NY 11733",
    ),
    "office_hours": env.str(
        "VILLAGE_OFFICE_HOURS", default="Monday to Friday, 9:00 AM to 4:00 PM"
    ),
}

# Deadlines (R-SUS-1 default of two business days; reminder schedule in business days
# before the due date; 0 = on the day). See deadlines/.
SUSPENSION_NOTICE_BUSINESS_DAYS = env.int("SUSPENSION_NOTICE_BUSINESS_DAYS", default=2)
REMINDER_BUSINESS_DAYS_BEFORE = env.list(
    "REMINDER_BUSINESS_DAYS_BEFORE", cast=int, default=[5, 1, 0]
)
STAFF_DIGEST_RECIPIENTS = env.list("STAFF_DIGEST_RECIPIENTS", default=[])
# The hour (local) of the daily staff digest; after it the sweep also makes any
# digest the beat task could not (broker down at that hour).
STAFF_DIGEST_HOUR = env.int("STAFF_DIGEST_HOUR", default=7)

# The outbox (outbox/services.py): every e-mail is a row first.
# Attempts per message before it is "failed" (the SMO's outbox page).
OUTBOX_MAX_ATTEMPTS = env.int("OUTBOX_MAX_ATTEMPTS", default=6)
# Pause before the n-th retry: base × 2^(n-1), at most the cap (30 s … 16 min).
OUTBOX_RETRY_BACKOFF_SECONDS = env.int("OUTBOX_RETRY_BACKOFF_SECONDS", default=30)
OUTBOX_RETRY_BACKOFF_MAX_SECONDS = env.int(
    "OUTBOX_RETRY_BACKOFF_MAX_SECONDS", default=1800
)
# A row still pending this long after it was written or last handed to the broker
# is handed again by the sweep (broker down at commit, worker killed mid-send).
OUTBOX_REQUEUE_AFTER_SECONDS = env.int("OUTBOX_REQUEUE_AFTER_SECONDS", default=300)

# Content Security Policy (django-csp 4): everything from our own origin.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "img-src": ["'self'", "data:", "blob:"] + env.list("CSP_IMG_EXTRA", default=[]),
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    }
}
# An export of more rows than this is written by the worker in the background,
# with a progress page and a download kept for a day (issue 29); smaller ones
# download at once.
EXPORT_BACKGROUND_ROWS = env.int("EXPORT_BACKGROUND_ROWS", default=5000)
# A background job left waiting (or stalled) this long is handed over again.
JOB_REQUEUE_AFTER_SECONDS = env.int("JOB_REQUEUE_AFTER_SECONDS", default=300)
# Map tiles for the report form's pin (optional: the form works without them).
MAP_TILE_URL = env.str("MAP_TILE_URL", default="")

# --- Celery -----------------------------------------------------------------
if REDIS_URL:
    CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL)
    # Connecting to publish gives up after one quick retry (kombu's default keeps
    # trying for the whole connection timeout): a web request handing an outbox
    # row over must not wait on a broker that is down; the sweep hands it later.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "max_retries": 1,
        "interval_start": 0,
        "interval_step": 0.1,
        "interval_max": 0.1,
    }
else:
    # kombu's filesystem transport: a broker that needs no server. Every folder
    # it uses is under VAR_DIR; one left out defaults to the working directory
    # (the exchange tables of "control" were once committed that way).
    CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="filesystem://")
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(VAR_DIR / "broker" / "queue"),
        "data_folder_out": str(VAR_DIR / "broker" / "queue"),
        "processed_folder": str(VAR_DIR / "broker" / "processed"),
        "control_folder": str(VAR_DIR / "broker" / "control"),
        "store_processed": False,
    }
    # The transport expects its folders to exist.
    for _folder in ("queue", "processed", "control"):
        (VAR_DIR / "broker" / _folder).mkdir(parents=True, exist_ok=True)
# Results are not needed: tasks write their outcome to the database.
CELERY_TASK_IGNORE_RESULT = True
# A task acknowledges only after it ran, so a killed worker's task is redelivered;
# every task is idempotent, so a redelivery does no harm.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# One task at a time per process: a long render never holds back a reminder.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
# Do not hang a web request when the broker is down: the database row is the
# outbox and the outbox sweep picks it up.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_PUBLISH_RETRY = False
# The static beat schedule: the reminder sweep finds what is due and what was missed.
CELERY_BEAT_SCHEDULE = {
    # The outbox sweep: re-queue e-mails left pending (see OUTBOX_* above).
    "outbox-sweep": {
        "task": "outbox.tasks.sweep_outbox",
        "schedule": env.int("OUTBOX_SWEEP_SECONDS", default=120),
    },
    "deadline-sweep": {
        "task": "deadlines.tasks.sweep_deadlines",
        "schedule": env.int("DEADLINE_SWEEP_SECONDS", default=300),
    },
    "daily-staff-digest": {
        "task": "deadlines.tasks.send_staff_digests",
        "schedule": crontab(hour=STAFF_DIGEST_HOUR, minute=0),
    },
    # Background jobs (issue 29): hand over again those the broker lost; delete
    # the files past their day.
    "jobs-sweep": {
        "task": "jobs.tasks.sweep_jobs",
        "schedule": env.int("JOB_SWEEP_SECONDS", default=120),
    },
    # A document issued while the broker was down is still "rendering": re-queue it.
    "stale-document-renders": {
        "task": "documents.tasks.enqueue_stale_document_renders",
        "schedule": env.int("DOCUMENT_RESWEEP_SECONDS", default=600),
    },
    # Attempt counters whose window has ended (limits.models.Counter).
    "limits-purge": {
        "task": "limits.tasks.purge_expired_counters",
        "schedule": 3600,
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}

DEMO_DATA_ALLOWED = True
