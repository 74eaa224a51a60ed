"""placeflow.autograph: the AutoGraph rewrite `function` applies (tensor if/while -> cond/while_loop)."""

from .api.autograph import to_code  # noqa: F401
