"""Every implemented TF function takes TF's parameters by TF's names (tests/api/tf_2_21_api.json records each
signature): a user's keyword argument never meets a TypeError, and no TF argument is missing."""

import inspect
import re

from tests.api import test_api_coverage as coverage

# TF's *varargs, whose names a caller cannot pass as keywords; and tf.device, whose TF1 form (compat.v1.device:
# device_name_or_function) placeflow serves with the same object
NAMES_THAT_NEED_NOT_MATCH = {
    "tf.device": {"device_name"}, "tf.experimental.dispatch_for_api": {"signatures"},
    "tf.experimental.numpy.atleast_1d": {"arys"}, "tf.experimental.numpy.atleast_2d": {"arys"},
    "tf.experimental.numpy.atleast_3d": {"arys"}, "tf.experimental.numpy.random.rand": {"size"},
    "tf.experimental.numpy.result_type": {"arrays_and_dtypes"}, "tf.group": {"inputs"}, "tf.io.gfile.join": {"paths"},
    "tf.nest.map_structure": {"structure"}, "tf.print": {"inputs"},
}


def _parameters(signature: str) -> list:
    """The parameter names of a recorded signature string (annotations, defaults and the return type dropped)."""
    depth, end = 0, len(signature)
    for index, char in enumerate(signature):
        depth += char in "([{<"
        depth -= char in ")]}>"
        if depth == 0 and char == ")":
            end = index
            break
    parts, current, depth, quote = [], "", 0, None
    for char in signature[1:end]:
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([{<":
            depth += 1
        elif char in ")]}>":
            depth -= 1
        if char == "," and depth == 0 and not quote:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    parts.append(current.strip())
    return [re.split(r"[:=]", p, 1)[0].strip().lstrip("*") for p in parts if p and p not in ("*", "/")]


def _functions():
    for name, entry in coverage.LISTING["names"].items():
        if entry["kind"] == "function" and entry.get("signature") and not name.startswith("tf.raw_ops.") \
                and not any(name.startswith(prefix) for prefix in coverage.EXCLUDED) \
                and coverage._status(name) == "implemented":
            yield name, entry["signature"]


def test_every_implemented_function_takes_tensorflows_parameters():
    lacking = {}
    for name, signature in _functions():
        try:
            ours = inspect.signature(coverage._resolve(name)).parameters.values()
        except (TypeError, ValueError):  # builtins and classes without a Python signature
            continue
        if any(p.kind == p.VAR_KEYWORD for p in ours):
            continue
        mine = {p.name for p in ours}
        missing = set(_parameters(signature)) - mine - NAMES_THAT_NEED_NOT_MATCH.get(name, set()) - {"args", "kwargs"}
        if missing:
            lacking[name] = sorted(missing)
    assert not lacking, lacking
