# cmc — two commands set everything up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
# llama.cpp's native build picks AMX kernels that crash (SIGSEGV) on these Xeons: build for AVX2.
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON

.PHONY: install demo test qwen clean

install: $(VENV)/.installed

$(VENV)/.installed: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(PY) -m pip install --quiet -r requirements.txt
	$(PY) -c "import cmc; print('embedded model:', cmc.embedded_model_path())"
	$(PY) -c "import cmc; print('prompts kept:', len(cmc.warm_prompts()))"
	touch $@

demo: install $(VENV)/.qwen
	@rm -rf .demo && mkdir -p .demo
	$(PY) cmc.py add --file examples/meeting.txt --db .demo/memory.db
	$(PY) cmc.py facts --all --db .demo/memory.db
	$(PY) cmc.py ask "On which floor is the weekly meeting?" --db .demo/memory.db

# The default reader, Qwen2.5-Coder-1.5B (1.1 GB): `ask` uses it when installed, gemma when not.
# Both install steps compute each prompt's fixed part once (warm_prompts), so a fresh machine's
# first `add` does not.
qwen: $(VENV)/.qwen

$(VENV)/.qwen: requirements-qwen.txt $(VENV)/.installed
	$(PY) -m pip install --quiet -r requirements-qwen.txt
	$(PY) -c "import cmc; print('qwen model:', cmc.qwen_model_path())"
	$(PY) -c "import cmc; print('prompts kept:', len(cmc.warm_prompts()))"
	touch $@

test: install
	$(PY) -m pytest -q

clean:
	rm -rf $(VENV) .demo .pytest_cache
