# Two commands do all set-up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.placeflow-installed

TF_VENV ?= /tmp/placeflow-tf-venv

.PHONY: demo test bench clean record-tf record-keras

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	@# torch.distributed (gloo) for the multi-worker tests, only from a wheel already on this machine (pip's
	@# find-links): PyPI's default torch is a multi-GB CUDA build. Without it those tests skip, saying why.
	$(PY) -m pip install --quiet --no-index --no-deps 'torch>=2.4' 2>/dev/null && \
	  $(PY) -m pip install --quiet 'torch>=2.4' || \
	  echo "placeflow: no local torch wheel: the multi-worker tests will skip (pip install 'placeflow[distributed]')"
	$(PY) -m pip install --quiet 'ray>=2.40' || echo "placeflow: Ray is not installable here: the launch --ray tests will skip"
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/placeflow demo

test: $(STAMP)
	$(PY) -m pytest

bench: $(STAMP)
	for b in benchmarks/*.py; do $(PY) $$b || exit 1; done

# Re-record tests/conformance/tf_2_21.json from real TensorFlow, in a scratch venv outside the repo (never part
# of `make test`; TensorFlow is not a dependency of placeflow).
record-tf:
	test -x $(TF_VENV)/bin/python || $(PYTHON) -m venv $(TF_VENV)
	$(TF_VENV)/bin/python -c "import tensorflow" 2>/dev/null || $(TF_VENV)/bin/pip install --quiet tensorflow-cpu==2.21.0
	$(TF_VENV)/bin/python tests/conformance/record_tf.py
	$(TF_VENV)/bin/python tests/runtime/record_tf_error_classes.py
	$(TF_VENV)/bin/python tests/badinputs/record_tf_bad_inputs.py
	$(TF_VENV)/bin/python tests/tnp/record_tf_tnp.py
	$(TF_VENV)/bin/python tests/ctc/record_tf_ctc.py
	$(TF_VENV)/bin/python tests/special/record_tf_special.py
	$(TF_VENV)/bin/python tests/nn_more/record_tf_nn_more.py
	$(TF_VENV)/bin/python tests/image_more/record_tf_image_more.py
	$(TF_VENV)/bin/python tests/io_queue_audio/record_tf_io_queue_audio.py
	$(TF_VENV)/bin/python tests/linalg_more/record_tf_linalg_more.py
	$(TF_VENV)/bin/python tests/io_protos/record_tf_io_protos.py
	$(TF_VENV)/bin/python tests/specs_misc/record_tf_specs_misc.py
	$(TF_VENV)/bin/python tests/random_more/record_tf_random_more.py
	$(TF_VENV)/bin/python tests/data_more/record_tf_data_more.py --with-placeflow
	$(TF_VENV)/bin/python tests/distribute_more/record_tf_distribute_more.py
	PLACEFLOW_PYTHON=$(PY) $(TF_VENV)/bin/python tests/misc_names/record_tf_misc_names.py
	$(TF_VENV)/bin/python tests/extension_types/record_tf_extension_types.py
	$(TF_VENV)/bin/python tests/raw_ops/record_tf_raw_ops.py
	$(TF_VENV)/bin/python tests/ops/record_tf_op_dtypes.py
	$(TF_VENV)/bin/python tests/memory/record_tf_memory.py
	PLACEFLOW_PYTHON=$(PY) $(TF_VENV)/bin/python tests/summary/record_tf_reads.py
	$(TF_VENV)/bin/python tests/api/record_tf_api.py
	PYTHONPATH=src $(TF_VENV)/bin/python tests/data/record_tf_tfrecords.py
	$(TF_VENV)/bin/python tests/graph/record_tf_session_soft.py > tests/graph/tf_session_soft.json
	$(TF_VENV)/bin/python tests/graph/record_tf_graph_errors.py > tests/graph/tf_graph_errors.json
	PLACEFLOW_PYTHON=$(PY) $(TF_VENV)/bin/python tests/checkpoint/record_tf_checkpoints.py
	PLACEFLOW_PYTHON=$(PY) $(TF_VENV)/bin/python tests/saved_model/record_tf_saved_model.py
	$(TF_VENV)/bin/python -c "import PIL" 2>/dev/null || $(TF_VENV)/bin/pip install --quiet pillow
	$(TF_VENV)/bin/python tests/api/record_tf_image_codecs.py tests/api/tf_image_codecs.json

# Re-record tests/keras/fixtures (Keras 3's files and numbers) and check that Keras reads placeflow's files.
record-keras:
	test -x $(TF_VENV)/bin/python || $(PYTHON) -m venv $(TF_VENV)
	$(TF_VENV)/bin/python -c "import tensorflow" 2>/dev/null || $(TF_VENV)/bin/pip install --quiet tensorflow-cpu==2.21.0
	$(TF_VENV)/bin/python tests/keras/record_keras_files.py

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache
