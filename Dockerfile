FROM python:3.11-slim-bookworm
RUN apt-get update && apt-get install -y --no-install-recommends \
      libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core fonts-liberation2 \
      postgresql-client-15 \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY pyproject.toml README.md ./
COPY poquott_ms4 poquott_ms4
COPY cases cases
COPY inspections inspections
COPY enforcement enforcement
RUN pip install --no-cache-dir .
COPY . .
ENV DJANGO_SETTINGS_MODULE=poquott_ms4.settings.production
RUN SECRET_KEY=build-only-not-secret ALLOWED_HOSTS=x DATABASE_URL=sqlite:////tmp/build.sqlite3 \
    python -m poquott_ms4.processes collectstatic
EXPOSE 8000
# poquott_ms4/processes.py holds every command line (web: gunicorn on $PORT,
# forwarded headers believed only from $TRUSTED_PROXIES, empty = from no one; never "*").
CMD ["python", "-m", "poquott_ms4.processes", "web"]
