# Quickstart: `make run` (starts the app on http://127.0.0.1:8501) and `make test`.
# Each target creates .venv when it is missing and installs what it needs (once per
# change of the requirements files).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PORT   ?= 8501

.PHONY: verse-lm pe-lm run test fuzz bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.installed-run: requirements.txt | $(PY)
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt | $(PY)
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@ $(VENV)/.installed-run

# ui.warmup = `streamlit run`, with PyTorch and the default model warmed from the start
# (GLASSBOX_WARMUP=0 turns that off; ui/warmup.py).
run: $(VENV)/.installed-run
	$(PY) -m ui.warmup run app.py --server.address 127.0.0.1 --server.port $(PORT) \
		--server.headless true --browser.gatherUsageStats false

# pytest exits with 5 when no tests are collected: make treats that as a failure.
# TEST_WORKERS pytest-xdist processes share the tests, a test file (and the fuzz suite) to
# one worker (tests/conftest.py); 0 runs them in this process, one after another.
TEST_WORKERS ?= 2
test: $(VENV)/.installed-dev
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup

# The fuzz suite's long profile (tests/fuzz/, docs/hostile-files.md): many more examples per
# door than `make test`'s ci profile, a new random seed each run. Then the examples each door
# ran and the peak memory of the process against its baseline and the budget.
fuzz: $(VENV)/.installed-dev
	HYPOTHESIS_PROFILE=long $(PY) -m pytest -p no:cacheprovider -q tests/fuzz; status=$$?; \
		$(PY) -m tests.fuzz.report long; exit $$status

# Every benchmark, one after another (they share the cores), each rewriting its section
# of docs/benchmarks.md; then the summary table at the top (figure, target, met?).
# The TransformerLens comparison runs in its own venv (requirements-bench.txt, see
# benchmarks/vs_transformerlens.py); without one it is skipped with a message.
# Browser benchmarks use headless Chromium (CHROMIUM_PATH, default /usr/bin/chromium).
BENCH_VENV ?= /work/venv-bench
bench: $(VENV)/.installed-dev
	$(PY) -m benchmarks.trace_overhead
	$(PY) -m benchmarks.training_speed
	$(PY) -m benchmarks.generation --threads 1
	$(PY) -m benchmarks.patching --threads 1
	$(PY) -m benchmarks.vs_transformers
	$(PY) -m benchmarks.real_size
	$(PY) -m benchmarks.render_payload --skip-bertviz-512
	$(PY) -m benchmarks.browser_latency
	$(PY) -m benchmarks.cold_start
	$(PY) -m benchmarks.first_figure
	$(PY) -m benchmarks.interactions
	$(PY) -m benchmarks.lessons
	$(PY) -m benchmarks.load
	$(PY) -m benchmarks.protocol_load
	$(PY) -m benchmarks.replicas
	$(PY) -m benchmarks.gpu
	@if [ -x "$(BENCH_VENV)/bin/python" ] && "$(BENCH_VENV)/bin/python" -c "import transformer_lens" 2>/dev/null; then \
		"$(BENCH_VENV)/bin/python" -m benchmarks.vs_transformerlens; \
	else \
		echo "benchmarks.vs_transformerlens skipped: no TransformerLens venv at $(BENCH_VENV). Create it with:"; \
		echo "  python -m venv $(BENCH_VENV) && $(BENCH_VENV)/bin/pip install torch==2.13.0 -r requirements-bench.txt -r requirements.txt"; \
	fi
	$(PY) -m benchmarks.summary

# The shipped language models (recipes/verse.py): rebuild the corpus from the Debian
# packages (it says the apt command when they are missing; nothing is installed here),
# train verse-lm and verse-mlm under their wall-clock budgets, evaluate (docs/verse_lm.json).
verse-lm: $(VENV)/.installed-dev
	$(PY) -m cli.verse all

# "Train short, test long" (recipes/pe_lm.py): six small character LMs, one per
# positional scheme, trained at 64 characters for a fixed number of steps on one thread,
# then bits per character at 1x to 8x that length (docs/pe_lm.json, docs/pe_lm.md).
pe-lm: $(VENV)/.installed-dev
	$(PY) -m cli.pe_lm all

clean:
	rm -rf $(VENV) test-artifacts .pytest_cache
