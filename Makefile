# Two commands do everything on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
PORT ?= 8000
# The worker and the site read PORT too (cases.site_url: the default SITE_URL).
export PORT
VAR_DIR ?= var
export VAR_DIR

.PHONY: run test prod-check lint format bench check-system vendor docs clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' || \
	  { echo "Python 3.11 or newer is needed (set PYTHON=...)."; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) || \
	  { echo "Could not create $(VENV): install python3-venv (apt-get install python3-venv)."; exit 1; }
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	@touch $(STAMP)

# WeasyPrint needs Pango and HarfBuzz from the system; say so plainly when missing.
check-system:
	@missing=""; \
	for lib in libpango-1.0.so.0 libpangoft2-1.0.so.0 libharfbuzz-subset.so.0; do \
	  { ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null; } | grep -q "$$lib" || missing="$$missing $$lib"; \
	done; \
	fc-list 2>/dev/null | grep -q . || missing="$$missing fonts"; \
	if [ -n "$$missing" ]; then \
	  echo "Missing system packages for WeasyPrint:$$missing"; \
	  echo "On Debian/Ubuntu: sudo apt-get install libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core fonts-liberation2"; \
	  exit 1; \
	fi

run: $(STAMP) check-system
	@mkdir -p $(VAR_DIR)
	$(BIN)/python manage.py migrate --noinput -v0
	$(BIN)/python manage.py load_demo_data
	@echo ""
	@echo "  Site:     http://127.0.0.1:$(PORT)/   (staff: http://127.0.0.1:$(PORT)/staff/)"
	@echo "  Sign in:  smo / clerk / attorney / inspector / admin, password demo-password"
	@echo "  E-mail:   written as files to var/mail/"
	@echo "  Ctrl-C stops the site and the worker."
	@echo ""
	@# Ctrl-C: stop the two by their ids and wait for them (not `kill 0`, which
	@# signals this shell too and re-enters its own trap until it crashes).
	@$(BIN)/celery -A poquott_ms4 worker -B --pool=solo --loglevel=INFO \
	  --schedule=$(VAR_DIR)/celerybeat-schedule & worker=$$!; \
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT) --noreload & site=$$!; \
	trap 'trap "" INT TERM; kill $$site $$worker 2>/dev/null; wait; echo "Stopped."; exit 0' INT TERM; \
	wait

test: $(STAMP) check-system
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# The production stack end to end, with faults (.ci/prod_check.py; README
# "Production check"). PROD_CHECK_ARGS="--skip-fault redis" leaves one out.
prod-check: $(STAMP) check-system
	$(BIN)/python .ci/prod_check.py $(PROD_CHECK_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# On PostgreSQL only: DATABASE_URL, or this machine's local server by default.
bench: $(STAMP) check-system
	DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/ms4_bench} \
	  $(BIN)/python bench/run.py $(BENCH_ARGS)

# Re-copy the front-end packages into static/vendor: the exact versions of
# package-lock.json (npm ci), so two runs copy the same files.
vendor:
	npm ci --no-audit --no-fund
	mkdir -p static/vendor/bootstrap static/vendor/leaflet static/vendor/axe-core static/vendor/idb static/vendor/workbox
	cp node_modules/bootstrap/dist/css/bootstrap.min.css* node_modules/bootstrap/dist/js/bootstrap.bundle.min.js* node_modules/bootstrap/LICENSE static/vendor/bootstrap/
	cp -r node_modules/leaflet/dist/leaflet.js node_modules/leaflet/dist/leaflet.js.map node_modules/leaflet/dist/leaflet.css node_modules/leaflet/dist/images node_modules/leaflet/LICENSE static/vendor/leaflet/
	cp node_modules/axe-core/axe.min.js node_modules/axe-core/LICENSE static/vendor/axe-core/
	cp node_modules/idb/build/umd.js static/vendor/idb/idb.umd.js
	cp node_modules/idb/LICENSE static/vendor/idb/
	cp node_modules/workbox-sw/build/workbox-sw.js* node_modules/workbox-sw/LICENSE static/vendor/workbox/
	cp node_modules/workbox-core/build/workbox-core.prod.js* node_modules/workbox-routing/build/workbox-routing.prod.js* node_modules/workbox-strategies/build/workbox-strategies.prod.js* static/vendor/workbox/

# The transition diagrams and the clock table under docs/, generated from the code.
docs: $(STAMP)
	$(BIN)/python manage.py transitions_doc

clean:
	rm -rf var/ .pytest_cache
