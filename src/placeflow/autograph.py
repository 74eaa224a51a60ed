"""placeflow.autograph: the AutoGraph rewrite `function` applies (tensor if/while -> cond/while_loop)."""

import types

from .api.autograph import do_not_convert, to_code  # noqa: F401

experimental = types.ModuleType("placeflow.autograph.experimental", "AutoGraph options: do_not_convert.")
experimental.do_not_convert = do_not_convert
