"""One program for TensorFlow and placeflow: a tf.Module with variables, a signature, branches, a loop and a
variable update, saved and loaded; the loaded object's results. Run as a script
(`python saved_model_programs.py <export dir>`) it saves with whichever `tf` it imports (placeflow when
PLACEFLOW_AS_TF=1) and prints the export directory."""

import json
import os
import sys


class _Builder:
    """Makes the module class for a given `tf` (TensorFlow or placeflow)."""

    @staticmethod
    def module(tf):
        class Model(tf.Module):
            def __init__(self):
                super().__init__()
                self.w = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="w")
                self.b = tf.Variable([0.5, -0.5], name="b")
                self.steps = [tf.Variable(1.0, name="s0"), tf.Variable(2, name="s1")]

            @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")])
            def __call__(self, x):
                return tf.matmul(x, self.w) + self.b

            @tf.function
            def branchy(self, x):
                y = tf.cond(tf.reduce_sum(x) > 0, lambda: x * 2.0, lambda: -x)
                _, z = tf.while_loop(lambda i, z: i < self.steps[1], lambda i, z: (i + 1, z + self.steps[0]),
                                     [tf.constant(0), y])
                return {"y": y, "z": z[::2], "n": tf.shape(z)[0]}

            @tf.function
            def bump(self):
                self.b.assign_add([1.0, 1.0])
                return self.b.read_value()
        return Model()


def build_and_save(tf, export_dir):
    """The module, used once (so each function has a trace), then saved with its signature."""
    model = _Builder.module(tf)
    model(tf.constant([[1.0, 1.0]]))
    model.branchy(tf.constant([1.0, -3.0, 5.0]))
    model.bump()
    tf.saved_model.save(model, export_dir, signatures={"serving_default": model.__call__,
                                                       "branchy": model.branchy.get_concrete_function(
                                                           tf.TensorSpec([3], tf.float32))})
    return model


def loaded_results(tf, export_dir) -> dict:
    """What the loaded object computes, as plain values."""
    loaded = tf.saved_model.load(export_dir)
    out = {"call": loaded(tf.constant([[2.0, 0.0], [0.0, 1.0]])).numpy().tolist()}
    branchy = loaded.branchy(tf.constant([1.0, -3.0, 5.0]))
    out["branchy"] = {k: v.numpy().tolist() for k, v in sorted(branchy.items())}
    out["bump"] = loaded.bump().numpy().tolist()
    out["b_after_bump"] = loaded.b.numpy().tolist()
    out["signature_keys"] = sorted(loaded.signatures)
    served = loaded.signatures["serving_default"](x=tf.constant([[1.0, 1.0]]))
    out["serving_default"] = {k: v.numpy().tolist() for k, v in served.items()}
    out["branchy_signature"] = {k: v.numpy().tolist() for k, v in
                                sorted(loaded.signatures["branchy"](x=tf.constant([-1.0, -1.0, 1.0])).items())}
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(loaded(tf.constant([[1.0, 2.0]])))
    out["gradients"] = [g.numpy().tolist() for g in tape.gradient(y, [loaded.w, loaded.b])]
    return out


if __name__ == "__main__":
    if os.environ.get("PLACEFLOW_AS_TF"):
        import placeflow as tf_module
    else:
        import tensorflow as tf_module
    build_and_save(tf_module, sys.argv[1])
    print(json.dumps({"saved": sys.argv[1]}))
