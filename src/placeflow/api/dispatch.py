"""TensorFlow's type-based dispatch (tf.experimental.dispatch_for_api and the elementwise variants): a public API
function called with a user type (say an ExtensionType MaskedTensor) runs the function registered for it.

How placeflow does it: registering a dispatcher for an API function replaces that function, in every placeflow
namespace that exports it (tf.add and tf.math.add alike), with a wrapper. The wrapper looks for dispatch only
when an argument (or an element of a list argument) is an instance of a type some dispatcher names: calls with
tensors, arrays and Python numbers go straight to the function. When the last dispatcher of an API is
unregistered the original function is put back. So dispatch applies to calls made through the public names
after registration (not to a reference taken earlier, and not to Python operators such as `x + y`, which
TensorFlow does not dispatch either).

APIs that dispatch: any placeflow public function passed to dispatch_for_api; the unary elementwise APIs in
UNARY_ELEMENTWISE_APIS, the binary ones in BINARY_ELEMENTWISE_APIS and the binary asserts in
BINARY_ASSERT_APIS (those placeflow has)."""

from __future__ import annotations

import functools
import inspect
import sys
import types
import typing

from ..eager.tensor import EagerTensor
from ..framework import tf_types

_ORIGINAL = "_placeflow_dispatch_original"

UNARY_ELEMENTWISE_APIS = (
    "math.abs", "math.acos", "math.acosh", "math.angle", "math.asin", "math.asinh", "math.atan", "math.atanh",
    "math.ceil", "math.conj", "math.cos", "math.cosh", "math.digamma", "math.erf", "math.erfc", "math.erfinv",
    "math.exp", "math.expm1", "math.floor", "math.imag", "math.is_finite", "math.is_inf", "math.is_nan",
    "math.lgamma", "math.log", "math.log1p", "math.log_sigmoid", "math.logical_not", "math.ndtri",
    "math.negative", "math.real", "math.reciprocal", "math.reciprocal_no_nan", "math.rint", "math.round",
    "math.rsqrt", "math.sigmoid", "math.sign", "math.sin", "math.sinh", "math.softplus", "math.sqrt",
    "math.square", "math.tan", "math.tanh", "nn.elu", "nn.relu", "nn.relu6", "nn.selu", "nn.softsign",
    "nn.leaky_relu", "nn.gelu", "nn.silu", "cast", "saturate_cast", "identity", "ones_like", "zeros_like",
    "debugging.check_numerics", "bitwise.invert", "strings.length", "strings.lower", "strings.upper",
    "strings.strip", "strings.to_number", "strings.as_string")
BINARY_ELEMENTWISE_APIS = (
    "math.add", "math.subtract", "math.multiply", "math.divide", "math.truediv", "math.floordiv",
    "math.floormod", "math.maximum", "math.minimum", "math.pow", "math.equal", "math.not_equal", "math.greater",
    "math.greater_equal", "math.less", "math.less_equal", "math.logical_and", "math.logical_or",
    "math.logical_xor", "math.squared_difference", "math.atan2", "math.xdivy", "math.xlogy", "math.xlog1py",
    "math.divide_no_nan", "math.multiply_no_nan", "truncatediv", "truncatemod", "math.igamma",
    "math.igammac", "math.zeta", "math.polygamma", "bitwise.bitwise_and", "bitwise.bitwise_or",
    "bitwise.bitwise_xor", "bitwise.left_shift", "bitwise.right_shift")
BINARY_ASSERT_APIS = (
    "debugging.assert_equal", "debugging.assert_none_equal", "debugging.assert_less",
    "debugging.assert_less_equal", "debugging.assert_greater", "debugging.assert_greater_equal")

_DISPATCHERS: dict = {}     # original API function -> [(checker, target)]
_TYPES: dict = {}           # original API function -> tuple of the classes its dispatchers name


# -- annotations ------------------------------------------------------------------------------------------------

def _check_annotation(annotation) -> None:
    origin = typing.get_origin(annotation)
    if origin is typing.Union or origin in (list, typing.List):
        for arg in typing.get_args(annotation):
            _check_annotation(arg)
        return
    if not isinstance(annotation, type):
        raise ValueError(f"Type annotation {annotation!r} is not currently supported by dispatch.  Supported "
                         f"annotations: type objects,  List[...], and Union[...]")


def _matches(value, annotation) -> bool:
    origin = typing.get_origin(annotation)
    if origin is typing.Union:
        return any(_matches(value, arg) for arg in typing.get_args(annotation))
    if origin in (list, typing.List):
        (item,) = typing.get_args(annotation) or (object,)
        return isinstance(value, (list, tuple)) and all(_matches(v, item) for v in value)
    if annotation is EagerTensor:  # tf.Tensor: graph tensors are tensors too (inside a function)
        return isinstance(value, tf_types.Tensor)
    return isinstance(value, annotation)


def _classes(annotation) -> set:
    """The user classes an annotation names (tensors and Python types are not dispatch triggers)."""
    if typing.get_origin(annotation) is not None:
        return set().union(*(_classes(arg) for arg in typing.get_args(annotation)))
    if annotation in (EagerTensor, type(None), int, float, bool, str, bytes, complex, object):
        return set()
    return {annotation}


# -- the API functions ------------------------------------------------------------------------------------------

def _original(api):
    return getattr(api, _ORIGINAL, api)


def _namespaces():
    """placeflow and the modules reachable from it (its public namespaces and their submodules)."""
    root = sys.modules["placeflow"]
    seen, stack = {id(root)}, [root]
    while stack:
        module = stack.pop()
        yield module
        for value in list(vars(module).values()):
            if isinstance(value, types.ModuleType) and id(value) not in seen and \
                    value.__name__.split(".")[0] == "placeflow":
                seen.add(id(value))
                stack.append(value)


def _rebind(replacements: dict) -> None:
    """Replace each key of `replacements` by its value wherever a placeflow namespace exports it (one walk)."""
    if not replacements:
        return
    by_id = {id(old): new for old, new in replacements.items()}  # the keys are alive: their ids are theirs
    for module in _namespaces():
        for name, value in list(vars(module).items()):
            if id(value) in by_id:
                setattr(module, name, by_id[id(value)])


def _supports_dispatch(api) -> bool:
    return isinstance(api, types.FunctionType) and (api.__module__ or "").startswith("placeflow.") and \
        not getattr(api, "_placeflow_refusal", False)


def _wrapper(original):
    signature = inspect.signature(original)

    @functools.wraps(original)
    def dispatching(*args, **kwargs):
        classes = _TYPES.get(original, ())
        if classes and _any_instance(args, kwargs, classes):
            target = _chosen(original, signature.bind(*args, **kwargs).arguments)
            if target is not None:
                return target(*args, **kwargs)
        return original(*args, **kwargs)
    setattr(dispatching, _ORIGINAL, original)
    return dispatching


def _chosen(original, arguments):
    """The one dispatch target whose signature the arguments match (None if none; ValueError if several)."""
    found = []
    for checker, target in _DISPATCHERS.get(original, ()):
        if target not in found and checker(arguments):
            found.append(target)
    if len(found) > 1:
        raise ValueError(f"Multiple dispatch targets that were registered with tf.dispatch_for ({found[0]!r} and "
                         f"{found[1]!r}) match the arguments to {original.__name__}; unregister one "
                         f"(tf.experimental.unregister_dispatch_for) or make their signatures exclusive.")
    return found[0] if found else None


def _any_instance(args, kwargs, classes) -> bool:
    for value in (*args, *kwargs.values()):
        if isinstance(value, classes):
            return True
        if value.__class__ in (list, tuple) and any(isinstance(v, classes) for v in value):
            return True
    return False


def _register(registrations, classes) -> None:
    """Add (original API function, checker, target) registrations, wrapping the APIs not wrapped yet."""
    fresh = {}
    for original, checker, target in registrations:
        if original not in _DISPATCHERS:
            _DISPATCHERS[original] = []
            fresh[original] = _wrapper(original)
        _DISPATCHERS[original].append((checker, target))
        _TYPES[original] = tuple(set(_TYPES.get(original, ())) | set(classes))
    _rebind(fresh)


# -- tf.experimental.dispatch_for_api ---------------------------------------------------------------------------

def dispatch_for_api(api, *signatures):
    """Decorator: run the decorated function instead of `api` when the arguments match one of `signatures`
    (dicts of parameter name to type; default: the decorated function's annotations)."""
    original = _original(api)
    if not _supports_dispatch(original):
        raise ValueError(f"{api!r} does not support dispatch: dispatch_for_api takes a placeflow public API "
                         f"function such as tf.math.add.")
    api_signature = inspect.signature(original)

    def decorator(target):
        chosen = signatures or (_annotations_of(target),)
        checkers, classes = [], set()
        for signature in chosen:
            for name, annotation in signature.items():
                if name not in api_signature.parameters:
                    raise ValueError(f"signature includes annotation for unknown parameter {name!r}.")
                _check_annotation(annotation)
                classes |= _classes(annotation)
            checkers.append(_checker(dict(signature)))
        _check_target_signature(target, api_signature)
        _register([(original, checker, target) for checker in checkers], classes)
        return target
    return decorator


def _annotations_of(target) -> dict:
    return {name: p.annotation for name, p in inspect.signature(target).parameters.items()
            if p.annotation is not inspect.Parameter.empty}


def _checker(signature):
    def check(arguments) -> bool:
        return all(name in arguments and _matches(arguments[name], annotation)
                   for name, annotation in signature.items())
    return check


def _plain(signature: inspect.Signature) -> str:
    return str(signature.replace(parameters=[p.replace(annotation=inspect.Parameter.empty)
                                             for p in signature.parameters.values()],
                                 return_annotation=inspect.Signature.empty))


def _check_target_signature(target, api_signature) -> None:
    ours = inspect.signature(target)
    if _plain(ours) != _plain(api_signature):
        raise ValueError(f"Dispatch function's signature {_plain(ours)} does not match API's signature "
                         f"{_plain(api_signature)}.")


# -- the elementwise variants -----------------------------------------------------------------------------------

def _api_functions(names):
    """The placeflow functions of `names` ('math.add') that exist (refusals left out)."""
    root = sys.modules["placeflow"]
    found = []
    for dotted in names:
        value = root
        for part in dotted.split("."):
            try:
                value = getattr(value, part)
            except (AttributeError, NotImplementedError):
                value = None
                break
        if value is not None and _supports_dispatch(_original(value)) and _original(value) not in found:
            found.append(_original(value))
    return found


def _elementwise(names, types_, handler_call):
    def decorator(handler):
        for annotation in types_:
            _check_annotation(annotation)
        classes = set().union(*(_classes(t) for t in types_))
        registrations = []
        for api in _api_functions(names):
            params = list(inspect.signature(api).parameters)
            checker = _positional_checker(params[:len(types_)], types_)
            registrations.append((api, checker, _elementwise_target(api, len(types_), handler, handler_call)))
        _register(registrations, classes)
        return handler
    return decorator


def _positional_checker(names, types_):
    def check(arguments) -> bool:
        return all(name in arguments and _matches(arguments[name], t) for name, t in zip(names, types_))
    return check


def _elementwise_target(api, count, handler, handler_call):
    """A dispatch target calling `handler(api with its other arguments bound, *the first `count` arguments)`."""
    signature = inspect.signature(api)

    def target(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        names = list(bound.arguments)
        values = [bound.arguments[n] for n in names[:count]]
        rest = {n: bound.arguments[n] for n in names[count:]}
        return handler_call(handler, api, values, rest)
    target._placeflow_handler = handler
    return target


def _call_with_bound_rest(handler, api, values, rest):
    return handler(functools.partial(api, **rest), *values)


def dispatch_for_unary_elementwise_apis(x_type):
    """Decorator: `handler(api_func, x)` runs for every unary elementwise API (UNARY_ELEMENTWISE_APIS) called
    with an `x` of `x_type`; the API's other arguments are bound into `api_func`."""
    return _elementwise(UNARY_ELEMENTWISE_APIS, (x_type,), _call_with_bound_rest)


def dispatch_for_binary_elementwise_apis(x_type, y_type):
    """Decorator: `handler(api_func, x, y)` runs for every binary elementwise API (BINARY_ELEMENTWISE_APIS)
    called with an `x` of `x_type` and a `y` of `y_type`."""
    return _elementwise(BINARY_ELEMENTWISE_APIS, (x_type, y_type), _call_with_bound_rest)


def dispatch_for_binary_elementwise_assert_apis(x_type, y_type):
    """Decorator: `handler(assert_func, x, y)` runs for the binary asserts (BINARY_ASSERT_APIS:
    tf.debugging.assert_equal, assert_less, ...); message, summarize and name are bound into `assert_func`."""
    return _elementwise(BINARY_ASSERT_APIS, (x_type, y_type), _call_with_bound_rest)


def unregister_dispatch_for(dispatch_target) -> None:
    """Remove every dispatch registration of `dispatch_target` (a function decorated by a dispatch_for_*)."""
    found, emptied = False, []
    for original in list(_DISPATCHERS):
        kept = [(c, t) for c, t in _DISPATCHERS[original]
                if t is not dispatch_target and getattr(t, "_placeflow_handler", None) is not dispatch_target]
        if len(kept) != len(_DISPATCHERS[original]):
            found = True
            _DISPATCHERS[original] = kept
        if not kept:
            emptied.append(original)
    if not found:
        raise ValueError(f"Function {dispatch_target!r} was not registered using a `@dispatch_for_*` decorator.")
    _uninstall(emptied)


def _uninstall(originals) -> None:
    """Put the original functions back in place of their wrappers."""
    wrappers = {}
    for original in originals:
        del _DISPATCHERS[original]
        _TYPES.pop(original, None)
    for module in _namespaces():
        for value in list(vars(module).values()):
            if isinstance(value, types.FunctionType) and getattr(value, _ORIGINAL, None) in originals:
                wrappers[value] = value._placeflow_dispatch_original
    _rebind(wrappers)
