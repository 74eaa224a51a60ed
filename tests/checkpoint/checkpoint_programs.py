"""Programs that build objects to checkpoint, run the same under TensorFlow 2.21 and placeflow
(`build(tf)` -> a tf.train.Checkpoint whose variables hold fixed values; `values(checkpoint)` -> what a
restore must bring back). record_tf_checkpoints.py saves them with TF (the fixtures) and restores
placeflow's saves with TF; test_checkpoint_interchange.py saves them with placeflow and compares bytes."""

import numpy as np


def _fill(variable, seed: int):
    """Give `variable` a fixed value that depends on its shape, dtype and `seed`."""
    shape = tuple(int(d) for d in variable.shape)
    count = int(np.prod(shape)) if shape else 1
    dtype = variable.dtype if isinstance(variable.dtype, str) else variable.dtype.name
    base = (np.arange(count) * 0.25 - seed * 0.5).reshape(shape)
    if dtype == "string":
        variable.assign(np.asarray([f"s{seed}-{i}".encode() for i in range(count)], dtype=object).reshape(shape)
                        if shape else f"s{seed}".encode())
    elif dtype == "bool":
        variable.assign((np.arange(count) % 2 == seed % 2).reshape(shape))
    elif dtype.startswith("complex"):
        variable.assign((base + 1j * (base + 1)).astype(dtype))
    elif dtype.startswith("int") or dtype.startswith("uint"):
        variable.assign((np.arange(count) + seed).reshape(shape).astype(dtype))
    else:
        variable.assign(base.astype("float32").astype(dtype) if dtype == "bfloat16" else base.astype(dtype))


def module_tree(tf):
    """A tf.Module holding variables of many dtypes, in attributes, lists, dicts and a nested module."""

    class Block(tf.Module):
        def __init__(self):
            super().__init__()
            self.kernel = tf.Variable(tf.zeros([3, 2]), name="kernel")
            self.scale = tf.Variable(tf.zeros([], tf.float64), name="scale")

    class Model(tf.Module):
        def __init__(self):
            super().__init__()
            with tf.name_scope("model"):
                self.w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
                self.b = tf.Variable([0.5, -1.0], name="bias")
            self.block = Block()
            self.layers = [tf.Variable(3), {"k": tf.Variable("hello"), "flags": tf.Variable([True, False, True])},
                           [tf.Variable(tf.zeros([2], tf.uint8))]]
            self.table = {"h": tf.Variable(tf.zeros([4], tf.float16)), "z": tf.Variable(tf.zeros([2], tf.complex64))}
            self.empty = []
            self.counts = tf.Variable(tf.zeros([2, 2], tf.int64), name="counts")

    model = Model()
    for seed, variable in enumerate(model.variables):
        _fill(variable, seed)
    return tf.train.Checkpoint(model=model, step=tf.Variable(7, dtype=tf.int64))


def keras_sequential_adam(tf):
    """A Keras Sequential model with an Adam optimizer built on it (its slots made), as after training."""
    keras = tf.keras
    keras.backend.clear_session()  # layer names as in a fresh process ('dense'), whatever ran before
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, name="d1"), keras.layers.Dense(2)])
    optimizer = keras.optimizers.Adam(0.01)
    optimizer.build(model.trainable_variables)
    for seed, variable in enumerate(list(model.variables) + list(optimizer.variables)):
        _fill(variable, seed)
    return tf.train.Checkpoint(model=model, optimizer=optimizer)


def keras_functional_with_batchnorm(tf):
    """A functional Keras model with Conv2D, BatchNormalization (non-trainable moving statistics) and Dense."""
    keras = tf.keras
    keras.backend.clear_session()  # layer names as in a fresh process, whatever ran before
    inputs = keras.Input((6, 6, 2))
    x = keras.layers.Conv2D(3, 3, name="conv")(inputs)
    x = keras.layers.BatchNormalization(name="bn")(x)
    x = keras.layers.GlobalAveragePooling2D()(x)
    outputs = keras.layers.Dense(2, name="head")(x)
    model = keras.Model(inputs, outputs)
    for seed, variable in enumerate(model.variables):
        _fill(variable, seed)
    return tf.train.Checkpoint(net=model)


PROGRAMS = {"module_tree": module_tree, "keras_sequential_adam": keras_sequential_adam,
            "keras_functional_with_batchnorm": keras_functional_with_batchnorm}


def scramble(tf, checkpoint) -> None:
    """Overwrite every variable reachable from `checkpoint` (so that a restore has something to do)."""
    for variable in _variables(checkpoint):
        _fill(variable, 17)


def _variables(checkpoint) -> list:
    out, seen, queue = [], set(), [checkpoint]
    while queue:
        obj = queue.pop(0)
        for child in obj._trackable_children().values():
            if id(child) in seen:
                continue
            seen.add(id(child))
            if all(hasattr(child, a) for a in ("assign", "shape", "dtype", "numpy")):
                out.append(child)
            queue.append(child)
    return out


def saved_values(tf, prefix: str) -> dict:
    """{key: value as JSON} of every tensor saved at `prefix` but the object graph."""
    reader = tf.train.load_checkpoint(prefix)
    return {key: as_json(reader.get_tensor(key)) for key in sorted(reader.get_variable_to_shape_map())
            if key != "_CHECKPOINTABLE_OBJECT_GRAPH"}


def as_json(value):
    """A saved value as JSON: (dtype name, nested list; bytes as text; complex as [re, im] pairs)."""
    array = np.asarray(value)
    if array.dtype == object or array.dtype.kind == "S":
        return ["string", [v.decode() if isinstance(v, bytes) else v for v in array.reshape(-1).tolist()],
                list(array.shape)]
    if array.dtype.kind == "c":
        return [str(array.dtype), [[float(v.real), float(v.imag)] for v in array.reshape(-1)], list(array.shape)]
    return [str(array.dtype), array.astype(np.float64 if array.dtype.kind == "f" else array.dtype)
            .reshape(-1).tolist(), list(array.shape)]


# -- behaviour cases: each returns JSON, compared between TF (recorded) and placeflow ------------------------------

def _outcome(fn):
    try:
        result = fn()
    except Exception as error:  # noqa: BLE001 - the class and text are the recorded outcome
        return {"raises": type(error).__name__, "message": str(error)}
    return {"value": result}


def case_restore_errors(tf, directory):
    """Shape and dtype mismatches, a missing path, a non-trackable argument, and what each status asserts."""
    path = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0])).save(f"{directory}/a")
    outcomes = {
        "shape": _outcome(lambda: tf.train.Checkpoint(v=tf.Variable([1.0, 2.0, 3.0])).restore(path) and None),
        "missing": _outcome(lambda: tf.train.Checkpoint(v=tf.Variable(1.0)).restore(f"{directory}/nothing") and None),
        "not_trackable": _outcome(lambda: tf.train.Checkpoint(v=1) and None),
    }
    replaced = tf.Variable([5.0, 6.0])
    outcomes["same_shape_restores"] = _outcome(lambda: tf.train.Checkpoint(v=replaced).restore(path) and None)
    outcomes["value_after_restore"] = replaced.numpy().tolist()
    status = tf.train.Checkpoint(v=tf.Variable([0.0, 0.0]), other=tf.Variable(1.0)).restore(path)
    empty = tf.train.Checkpoint().restore(path)
    none = tf.train.Checkpoint().restore(None)
    for label, each in (("extra_object", status), ("empty_root", empty), ("no_path", none)):
        for method in ("assert_consumed", "assert_existing_objects_matched", "assert_nontrivial_match"):
            outcomes[f"{label}.{method}"] = _outcome(lambda: getattr(each, method)() and None)
        outcomes[f"{label}.type"] = type(each).__name__
    return outcomes


def case_save_write_read(tf, directory):
    """save numbers and records, write does neither, read restores save_counter too."""
    import os
    checkpoint = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0]))
    first, second = checkpoint.save(f"{directory}/a"), checkpoint.save(f"{directory}/a")
    written = checkpoint.write(f"{directory}/w")
    with open(f"{directory}/checkpoint") as handle:
        state_text = handle.read()
    fresh = tf.train.Checkpoint(v=tf.Variable([0.0, 0.0]))
    fresh.read(first)
    return {"paths": [os.path.basename(p) for p in (first, second, written)], "files": sorted(os.listdir(directory)),
            "state": state_text, "written_keys": [k for k, _ in tf.train.list_variables(written)],
            "read_counter": int(fresh.save_counter.numpy()), "read_value": fresh.v.numpy().tolist(),
            "latest": os.path.basename(tf.train.latest_checkpoint(directory)),
            "missing_dir_latest": tf.train.latest_checkpoint(f"{directory}/none"),
            "reader_missing": _outcome(lambda: tf.train.load_checkpoint(f"{directory}/none") and None),
            "get_missing": _outcome(lambda: tf.train.load_checkpoint(first).get_tensor("nope")),
            "load_variable": tf.train.load_variable(directory, "v/.ATTRIBUTES/VARIABLE_VALUE").tolist()}


def case_manager(tf, directory):
    """CheckpointManager numbering, max_to_keep, the state file (timestamps left out) and recovery."""
    import os
    import re
    checkpoint = tf.train.Checkpoint(v=tf.Variable(1.0))
    manager = tf.train.CheckpointManager(checkpoint, directory, max_to_keep=2)
    saved = [manager.save(), manager.save(), manager.save(checkpoint_number=10)]
    with open(f"{directory}/checkpoint") as handle:
        state_text = re.sub(r"(timestamps?: )[0-9.e+]+", r"\1T", handle.read())
    again = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(0.0)), directory, max_to_keep=2)
    restored = again.restore_or_initialize()
    step = tf.Variable(5, dtype=tf.int64)
    stepped = tf.train.CheckpointManager(checkpoint, f"{directory}/s", max_to_keep=None, step_counter=step,
                                         checkpoint_interval=3)
    interval = [stepped.save()]
    step.assign(6)
    interval.append(stepped.save())
    step.assign(9)
    interval.append(stepped.save())
    return {"saved": [os.path.basename(p) for p in saved], "kept": [os.path.basename(p) for p in manager.checkpoints],
            "files": sorted(f for f in os.listdir(directory) if f != "s"), "state": state_text,
            "recovered": os.path.basename(restored), "recovered_value": float(again._checkpoint.v.numpy()),
            "interval": [None if p is None else os.path.basename(p) for p in interval],
            "bad_max": _outcome(lambda: tf.train.CheckpointManager(checkpoint, directory, max_to_keep=0) and None)}


def case_restore_before_build(tf, directory):
    """Restore into a Keras model and optimizer before their variables exist: values arrive when they are made."""
    keras = tf.keras
    saved = keras_sequential_adam(tf)
    path = saved.save(f"{directory}/k")
    model = keras.Sequential([keras.layers.Dense(3, name="d1"), keras.layers.Dense(2)])
    optimizer = keras.optimizers.Adam(0.01)
    status = tf.train.Checkpoint(model=model, optimizer=optimizer).restore(path)
    model.build((None, 4))
    optimizer.build(model.trainable_variables)
    status.assert_consumed()
    return {"weights": [as_json(v.numpy()) for v in model.variables],
            "optimizer": [as_json(v.numpy()) for v in optimizer.variables]}


def case_dtype_mismatch(tf, directory):
    """Restoring a float checkpoint into an int variable: TF's RestoreV2 error, the variable untouched."""
    path = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0])).write(f"{directory}/f")
    target = tf.Variable([7, 8])
    return {"error": _outcome(lambda: tf.train.Checkpoint(v=target).restore(path) and None),
            "after": target.numpy().tolist()}


def case_attributes_made_after_restore(tf, directory):
    """A module's variables assigned after the restore (attributes, list appends, dict entries) get the values."""
    class Holder(tf.Module):
        pass

    saved = Holder()
    saved.a = tf.Variable(1.5)
    saved.items = [tf.Variable([1, 2]), tf.Variable(3.0)]
    saved.named = {"x": tf.Variable(-1.0)}
    path = tf.train.Checkpoint(model=saved).save(f"{directory}/m")
    fresh = Holder()
    status = tf.train.Checkpoint(model=fresh).restore(path)
    fresh.a = tf.Variable(0.0)
    fresh.items = []
    fresh.items.append(tf.Variable([0, 0]))
    fresh.items.append(tf.Variable(0.0))
    fresh.named = {}
    fresh.named["x"] = tf.Variable(0.0)
    status.assert_consumed()
    return {"a": float(fresh.a.numpy()), "items": [fresh.items[0].numpy().tolist(), float(fresh.items[1].numpy())],
            "named": float(fresh.named["x"].numpy()), "list_type": type(fresh.items).__name__,
            "keys": [k for k, _ in tf.train.list_variables(path)]}


def case_tf1_saver(tf, directory):
    """A TF1 graph saved by compat.v1 Saver (name-based keys, state file with the paths as given), restored."""
    import os
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        with v1.variable_scope("layer"):
            w = v1.get_variable("w", initializer=[[1.0, 2.0], [3.0, 4.0]])
        b = v1.Variable([0.5], name="b")
        v1.train.get_or_create_global_step()
        bump = w.assign_add(tf.ones([2, 2]))
        saver = v1.train.Saver(max_to_keep=2)
        with v1.Session() as session:
            session.run(v1.global_variables_initializer())
            paths = []
            for i in range(3):
                session.run(bump)
                paths.append(saver.save(session, f"{directory}/model", global_step=i, write_meta_graph=False))
        with v1.Session() as session:
            saver.restore(session, paths[1])
            restored = [session.run(w).tolist(), session.run(b).tolist()]
    with open(f"{directory}/checkpoint") as handle:
        state_text = handle.read()
    directory_name, base = os.path.split(paths[-1])
    return {"files": sorted(os.listdir(directory)), "state": state_text, "restored": restored,
            "variables": [[k, s] for k, s in tf.train.list_variables(paths[-1])],
            "values": saved_values(tf, paths[-1])}


def case_object_checkpoint_into_tf1_saver(tf, directory):
    """compat.v1 Saver restores an object-based checkpoint by the variables' names in its object graph."""
    path = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0], name="weights")).write(f"{directory}/obj")
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        weights = v1.Variable([0.0, 0.0], name="weights")
        saver = v1.train.Saver([weights])
        with v1.Session() as session:
            saver.restore(session, path)
            return session.run(weights).tolist()


def case_python_state_and_views(tf, directory):
    """PythonState saved as a string; TrackableView and CheckpointView of the same objects."""
    class Text(tf.train.experimental.PythonState):
        def __init__(self, text):
            self.text = text

        def serialize(self):
            return self.text

        def deserialize(self, string_value):
            self.text = string_value.decode() if isinstance(string_value, bytes) else string_value

    class Holder(tf.Module):
        pass

    holder = Holder()
    holder.w = tf.Variable(1.0)
    holder.items = [tf.Variable(2.0), tf.Variable(3.0)]
    path = tf.train.Checkpoint(model=holder, note=Text("hello")).write(f"{directory}/s")
    back = Text("")
    tf.train.Checkpoint(note=back).read(path).expect_partial()
    view = tf.train.CheckpointView(path)
    other = Holder()
    other.w = tf.Variable(0.0)
    matched, only_saved, only_live = view.diff(other)
    return {"text": back.text, "keys": [k for k, _ in tf.train.list_variables(path)],
            "live_children": sorted(tf.train.TrackableView.children(holder)),
            "live_descendants": len(tf.train.TrackableView(holder).descendants()),
            "saved_children": view.children(0), "model_children": view.children(view.children(0)["model"]),
            "descendants": view.descendants(), "matched": sorted(matched), "only_saved": only_saved,
            "only_live": len(only_live)}


CASES = {"restore_errors": case_restore_errors, "save_write_read": case_save_write_read, "manager": case_manager,
         "restore_before_build": case_restore_before_build, "dtype_mismatch": case_dtype_mismatch,
         "attributes_made_after_restore": case_attributes_made_after_restore, "tf1_saver": case_tf1_saver,
         "object_checkpoint_into_tf1_saver": case_object_checkpoint_into_tf1_saver,
         "python_state_and_views": case_python_state_and_views}


def save_all(tf, directory: str) -> dict:
    """Save every program under `directory/<name>/ckpt-1`; returns {name: prefix}."""
    return {name: build(tf).save(f"{directory}/{name}/ckpt") for name, build in PROGRAMS.items()}


if __name__ == "__main__":  # python checkpoint_programs.py <tensorflow|placeflow> <directory>
    import importlib
    import json
    import sys
    print(json.dumps(save_all(importlib.import_module(sys.argv[1]), sys.argv[2])))
