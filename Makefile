# Two commands for a newcomer (see README):  make lab   and   make test
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: lab test setup lint typecheck unit notebooks browser classroom class bench clean

$(STAMP): pyproject.toml $(wildcard gamelib/fugitive/belief/*.c gamelib/passante/*.c)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[notebook,test]"
	$(PY) -m ipykernel install --sys-prefix --name python3 >/dev/null
	touch $(STAMP)

setup: $(STAMP)

## Set everything up and open the first notebook in JupyterLab.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)
lab: $(STAMP)
	$(VENV)/bin/jupyter lab $(ROOT_FLAG) notebooks/00_start_here.ipynb

## Set up what the tests need and run all of them: lint, types, unit/property/widget tests, notebooks
## (nbval), and the browser tests (JupyterLab + Voila in headless chromium; skipped when chromium is absent).
test: $(STAMP)
	$(VENV)/bin/ruff check gamelib widgets tests benchmarks
	$(VENV)/bin/ruff format --check gamelib widgets tests benchmarks
	$(VENV)/bin/mypy
	$(PY) -m pytest tests notebooks --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg -p no:cacheprovider

lint:
	$(VENV)/bin/ruff check gamelib widgets tests benchmarks
typecheck:
	$(VENV)/bin/mypy
unit: $(STAMP)
	$(PY) -m pytest tests
notebooks: $(STAMP)
	$(PY) -m pytest notebooks --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg
## Browser tests only (installs Debian chromium if missing: needs root or sudo).
browser: $(STAMP)
	bash .ci/install-browser.sh $(VENV)
	$(PY) -m pytest tests/browser -m browser -p no:cacheprovider

## A game notebook as a code-free app for class:  make classroom NB=01_fugitive  (GAMELIB_LANGUAGE=fr: in French)
## POOL kernels run the notebook before anyone connects (preheated), so a page is usable in seconds;
## PYTHONPYCACHEPREFIX keeps the compiled library for every new kernel (docs/classroom.md).
NB ?= 01_fugitive
POOL ?= 2
GAMELIB_LANGUAGE ?= en
classroom: $(STAMP)
	mkdir -p $(VENV)/pycache
	GAMELIB_LANGUAGE=$(GAMELIB_LANGUAGE) PYTHONPYCACHEPREFIX=$(CURDIR)/$(VENV)/pycache \
	  $(VENV)/bin/voila notebooks/$(NB).ipynb --strip_sources=True --theme=light \
	  --preheat_kernel=True --pool_size=$(POOL)

## Class play: the teacher's dashboard and the join page (docs/classroom.md):  make class CLASS_HOST=192.168.1.20
## Serves notebooks/class/ on CLASS_PORT; the join page's kernels are preheated (CLASS_POOL of them).
CLASS_HOST ?= $(shell hostname -I 2>/dev/null | cut -d' ' -f1)
CLASS_PORT ?= 8866
CLASS_POOL ?= 4
class: $(STAMP)
	mkdir -p $(HOME)/gamelib-class
	GAMELIB_JOIN_URL=http://$(or $(CLASS_HOST),localhost):$(CLASS_PORT)/voila/render/join.ipynb \
	PYTHONPYCACHEPREFIX=$(HOME)/gamelib-class/pycache \
	$(VENV)/bin/voila notebooks/class --strip_sources=True --theme=light --no-browser \
	  --Voila.ip=0.0.0.0 --port=$(CLASS_PORT) --preheat_kernel=True --pool_size=0 \
	  --VoilaKernelManager.kernel_pools_config='{"join.ipynb": {"pool_size": $(CLASS_POOL)}}'

bench: $(STAMP)
	for f in benchmarks/*.py; do $(PY) $$f; done
clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
