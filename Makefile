# make demo  - set up .venv if needed, score the bundled Cold Start example
# make test  - set up .venv if needed, run the tests
# make bench - time the scorer on generated workloads of growing size (beside the Perl
#              scorer when ../ColdStart has it; BENCH_ARGS="--no-perl" skips it), the
#              claim tasks beside their reference scorers when found (CLAIMS_BENCH_ARGS),
#              whole tracks (TRACK_BENCH_ARGS, by default a FEVER track of 100 runs x
#              100,029 claims too), the tests' calibration on exchangeable runs, the
#              track page (make bench-page alone), then the
#              leaderboard's scoring program against a direct run, and the toolkit's
#              validatekb and resolvequeries beside the Perl's (KB_BENCH_ARGS), the whole
#              python -m scorer -kb beside the Perl chain (KB_SCORE_BENCH_ARGS), validatesf
#              and python -m scorer -validate beside the Perl's validate-then-score
#              (VALIDATE_BENCH_ARGS)
# make regen-golden - rewrite fixtures/*/expected from the current code (review the diff!)
# make docs  - set up .venv if needed, build the site into docs/_build/html
#              (index.html); any warning fails the build (make test checks it too)
# make dist  - build the sdist and the wheel into dist/ (PyPA's build: the wheel
#              from the sdist) and check their metadata as the package index would

PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
STAMP   = $(VENV)/.installed-stamp
DEMO    = fixtures/coldstart/demo/input
OUT     = out/demo

.PHONY: demo test bench bench-page regen-golden docs dist clean

# (uninstall: the distribution's name before sharedtask-scorer, in a .venv made then)
$(STAMP): setup.cfg pyproject.toml Makefile
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip uninstall --quiet --yes scorer 2>/dev/null || true
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[test,docs]'
	touch $(STAMP)

demo: $(STAMP)
	rm -rf $(OUT) && mkdir -p $(OUT)
	cd $(DEMO) && $(CURDIR)/$(PY) -m scorer -expand CSSF17 -queries qids.txt \
	    -bootstrap 200 -seed 1 \
	    -output_file $(CURDIR)/$(OUT)/run -error_file $(CURDIR)/$(OUT)/run.errlog \
	    ldc-query.xml qrel.txt DEMORUN.tab.txt
	@echo
	@cat $(OUT)/run.summary
	@echo
	@echo "Reports written to $(OUT)/: run.sf run.ldcmax run.ldcmean run.summary run.ap run.debug"
	@echo "  run.sample run.samplescores run.confidence run.apconfidence run.bootsamples run.params run.errlog"

test: $(STAMP)
	$(PY) -m pytest -q

bench: $(STAMP)
	$(PY) bench/run_bench.py $(BENCH_ARGS)
	$(PY) bench/claims_bench.py $(CLAIMS_BENCH_ARGS)
	$(PY) bench/track_bench.py $(TRACK_BENCH_ARGS)
	$(PY) bench/calibration_bench.py
	$(PY) bench/page_bench.py
	$(PY) bench/competition_bench.py
	$(PY) bench/kb_bench.py $(KB_BENCH_ARGS)
	$(PY) bench/kb_score_bench.py $(KB_SCORE_BENCH_ARGS)
	$(PY) bench/validate_bench.py $(VALIDATE_BENCH_ARGS)
	$(PY) bench/validate_score_bench.py $(VALIDATE_BENCH_ARGS)

bench-page: $(STAMP)
	$(PY) bench/page_bench.py

# -E: a fresh read every time, since the generated reference follows the code.
docs: $(STAMP)
	rm -rf docs/_build
	$(PY) -m sphinx -E -W --keep-going -q -b html docs docs/_build/html
	@echo "docs built: docs/_build/html/index.html"

dist: $(STAMP)
	$(PY) tests/helpers/distribution.py dist

regen-golden: $(STAMP)
	$(PY) tests/helpers/golden.py --regen
	$(PY) tests/helpers/diff_cases.py --regen

clean:
	rm -rf out build dist docs/_build *.egg-info .pytest_cache
