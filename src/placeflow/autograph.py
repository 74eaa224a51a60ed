"""placeflow.autograph: the AutoGraph rewrite `function` applies (tensor if/while -> cond/while_loop)."""

import types

from .api.autograph import do_not_convert, to_code  # noqa: F401

experimental = types.ModuleType("placeflow.autograph.experimental", "AutoGraph options: do_not_convert.")
experimental.do_not_convert = do_not_convert
from .api.check_numerics import Feature as _Feature, set_loop_options as _set_loop_options  # noqa: E402
from .api.check_numerics import set_verbosity  # noqa: E402,F401

experimental.Feature, experimental.set_loop_options = _Feature, _set_loop_options
