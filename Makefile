# Quickstart: `make run` (starts the app on http://127.0.0.1:8501) and `make test`.
# Each target creates .venv when it is missing and installs what it needs (once per
# change of the requirements files).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PORT   ?= 8501

.PHONY: run test bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.installed-run: requirements.txt | $(PY)
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt | $(PY)
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@ $(VENV)/.installed-run

run: $(VENV)/.installed-run
	$(PY) -m streamlit run app.py --server.address 127.0.0.1 --server.port $(PORT) \
		--server.headless true --browser.gatherUsageStats false

# pytest exits with 5 when no tests are collected: make treats that as a failure.
test: $(VENV)/.installed-dev
	$(PY) -m pytest

bench: $(VENV)/.installed-dev
	$(PY) -m benchmarks.trace_overhead
	$(PY) -m benchmarks.training_speed
	$(PY) -m benchmarks.generation --threads 1

clean:
	rm -rf $(VENV) test-artifacts .pytest_cache
