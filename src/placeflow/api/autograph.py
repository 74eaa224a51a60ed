"""AutoGraph for `function`: Python `if` and `while` statements whose condition is a tensor become tf.cond and
tf.while_loop, and a `for` loop over a tensor (e.g. `for i in tf.range(n)`) a tf.while_loop over its first
dimension; with Python conditions and iterables they stay Python. The function's source is rewritten once.

The variables a statement assigns (and that exist before it) become the cond outputs or loop variables. A
`while` loop's own break/continue become flags (loop variables) that end the loop or skip the rest of the
body. Statements holding `return` or `yield`, and `for` loops holding break/continue, are left as they are
(a tensor condition there raises OperatorNotAllowedInGraphError). `to_code` shows the rewritten source.
The rewritten function shares the original's globals and closure cells (so later rebindings are seen); its
module gains one global, `__ag__`, the helpers the rewritten statements call.
"""

from __future__ import annotations

import ast
import functools
import inspect
import itertools
import textwrap
import types

from ..eager.convert import convert_to_tensor
from ..framework import graph_mode
from ..eager.tensor import EagerTensor
from ..graph.graph import Tensor as GraphTensor
from . import control_flow
from .tensor_array import TensorArray

UNDEFINED = object()
_ids = itertools.count()


def _is_tensor(value) -> bool:
    return isinstance(value, (EagerTensor, GraphTensor))


# -- runtime helpers the rewritten code calls (as __ag__.<name>) ------------------------------------------------

def not_(value):
    """`not value`, elementwise for a tensor."""
    return control_flow.math_ops.logical_not(value) if _is_tensor(value) else not value


def or_(a, b):
    """`a or b` for flags that may be tensors."""
    if _is_tensor(a) or _is_tensor(b):
        return control_flow.math_ops.logical_or(convert_to_tensor(a), convert_to_tensor(b))
    return a or b


def and_(a, b_fn):
    """`a and b_fn()`: b_fn runs only when a is a tensor or true; Python values keep Python's result."""
    if not _is_tensor(a):
        return b_fn() if a else a
    return control_flow.math_ops.logical_and(a, convert_to_tensor(b_fn()))


def or_else(a, b_fn):
    """`a or b_fn()`: b_fn runs only when a is a tensor or false; Python values keep Python's result."""
    if not _is_tensor(a):
        return a if a else b_fn()
    return control_flow.math_ops.logical_or(a, convert_to_tensor(b_fn()))


def if_exp(test, true_fn, false_fn):
    """`true_fn() if test else false_fn()`: a tf.cond when test is a tensor (only the chosen branch runs)."""
    if _is_tensor(test):
        return control_flow.cond(test, true_fn, false_fn)
    return true_fn() if test else false_fn()


def get_state(*getters) -> tuple:
    """The current values of the statement's variables (UNDEFINED for one not assigned yet)."""
    values = []
    for getter in getters:
        try:
            values.append(getter())
        except NameError:
            values.append(UNDEFINED)
    return tuple(values)


def while_stmt(test, body, state, set_state, names) -> None:
    """`while test(): body()`: a tf.while_loop over the defined variables when the test is a tensor."""
    condition = test()
    if not _is_tensor(condition):
        while condition:
            body()
            condition = test()
        return
    carried = _Carried(state, set_state, names)

    def loop_test(*values):
        carried.enter(values)
        return test()

    def loop_body(*values):
        carried.enter(values)
        body()
        return carried.leave()

    carried.enter(control_flow.while_loop(loop_test, loop_body, list(carried.initial)))


class _Carried:
    """The variables a converted loop carries: those defined before it (an undefined one stays the body's own),
    set from the loop's values on entering each trace and read back, typed as they entered, when it ends."""

    def __init__(self, state, set_state, names):
        self._state, self._set_state, self._names = state, set_state, names
        self._all = state()
        self._live = [i for i, value in enumerate(self._all) if value is not UNDEFINED]
        self.initial = tuple(_loop_value(self._all[i]) for i in self._live)

    def enter(self, values) -> None:
        """Set the variables to the loop's `values`."""
        full = list(self._all)
        for i, value in zip(self._live, values):
            full[i] = value
        self._set_state(tuple(full))

    def leave(self) -> list:
        """The variables' values after the body, each as the loop carries it."""
        after = self._state()
        return [_like(after[i], self.initial[k], self._names[i]) for k, i in enumerate(self._live)]


_RETURN_IN_LOOP = ("a return statement cannot be placed inside this TensorFlow loop; this may happen if a return "
                   "statement depends on a static Python condition such as a hyperparameter.\nplaceflow: set a "
                   "result variable and break out of the loop, then return it after the loop.")


def python_iterable(iterable):
    """The iterable of a loop that returns from inside: a tensor's is refused, as by TensorFlow."""
    if _is_tensor(iterable):
        raise NotImplementedError(_RETURN_IN_LOOP)
    return iterable


def python_test(value):
    """The test of a while loop that returns from inside: a tensor is refused, as by TensorFlow."""
    if _is_tensor(value):
        raise NotImplementedError(_RETURN_IN_LOOP)
    return value


def for_stmt(iterable, body, state, set_state, names, keep_going=None) -> None:
    """`for item in iterable: body(item)`: over a tensor's first dimension, a tf.while_loop with an index;
    keep_going() is False once the body broke out (None: the loop has no break). A dataset inside a graph
    becomes a tf.while_loop that pulls its elements when the graph runs."""
    elements = getattr(iterable, "_autograph_elements", None)
    if elements is not None and graph_mode.active() is not None:
        return _for_over_elements(elements(), body, state, set_state, names, keep_going)
    if not _is_tensor(iterable):
        for item in iterable:
            if keep_going is not None and not _python_truth(keep_going()):
                break
            body(item)
        return
    from . import array_ops, indexing
    length = array_ops.shape(iterable)[0]
    carried = _Carried(state, set_state, names)

    def loop_body(index, *values):
        carried.enter(values)
        body(indexing.gather(iterable, index))
        return [index + 1] + carried.leave()

    def loop_test(index, *values):
        if keep_going is None:
            return index < length
        carried.enter(values)
        return and_(keep_going(), lambda: index < length)

    results = control_flow.while_loop(loop_test, loop_body, [convert_to_tensor(0), *carried.initial])
    carried.enter(results[1:])


def _python_truth(value) -> bool:
    if _is_tensor(value):
        raise NotImplementedError("A break inside a Python loop depended on a tensor: iterate over a tensor (e.g. "
                                  "tf.range) so the loop becomes a tf.while_loop.")
    return bool(value)


def _for_over_elements(source, body, state, set_state, names, keep_going) -> None:
    """A for loop over a source of elements pulled by ops (a dataset): a tf.while_loop whose variables are
    (has_value, the current element's parts, the loop's variables)."""
    start, fetch, pack = source
    token = start()
    has_value, parts = fetch(token)
    carried = _Carried(state, set_state, names)

    def loop_test(has, element, values):
        if keep_going is None:
            return has
        carried.enter(values)
        return and_(keep_going(), lambda: has)

    def loop_body(has, element, values):
        carried.enter(values)
        body(pack(element))
        next_has, next_parts = fetch(token)
        return [next_has, next_parts, carried.leave()]

    results = control_flow.while_loop(loop_test, loop_body, [has_value, parts, list(carried.initial)])
    carried.enter(results[2])


def if_stmt(test, if_true, if_false, state, set_state, names, in_both=(), true_assigns=()) -> None:
    """`if test: if_true() else: if_false()`: a tf.cond over the assigned variables when test is a tensor.
    A variable becomes an output when it existed before or both branches assign it; one only a branch
    assigns is that branch's own (undefined after, as TF), except the function's return value, which the
    other branch fills with zeros (its return flag says the zeros are never returned)."""
    if not _is_tensor(test):
        if test:
            if_true()
        else:
            if_false()
        return
    initial = state()
    outputs = [i for i, name in enumerate(names)
               if initial[i] is not UNDEFINED or name in in_both or name.startswith(RETURN_VALUE)]
    specs: dict = {}

    def branch(fn):
        def run():
            set_state(initial)
            fn()
            after = state()
            values = []
            for i in outputs:
                if after[i] is UNDEFINED:
                    values.append(_zeros_like_spec(specs, i, names[i]))
                else:
                    values.append(_loop_value(after[i]))
                    specs.setdefault(i, values[-1])
            return tuple(values) + (convert_to_tensor(0),)  # never empty
        return run

    only_false = any(name.startswith(RETURN_VALUE) and name not in true_assigns for name in names)
    if only_false:  # trace the branch that sets the return value first: the other copies its spec
        results = control_flow.cond(not_(test), branch(if_false), branch(if_true))
    else:
        results = control_flow.cond(test, branch(if_true), branch(if_false))
    final = list(initial)
    for i, value in zip(outputs, results):
        final[i] = value
    set_state(tuple(final))


RETURN_VALUE = "__ag_retval"


def _zeros_like_spec(specs, index, name):
    """Zeros standing in for a return value a branch does not set (traced after the branch that does)."""
    from . import array_ops
    other = specs.get(index)
    if other is None or other.shape is None or None in tuple(other.shape):
        raise NotImplementedError(f"A tf.function returns from one branch of a tensor `if` only: placeflow needs the "
                                  f"returned value's shape to be fully known there, got {other!r}. Return from both "
                                  f"branches, or assign a result variable and return it after the if.")
    return array_ops.zeros(list(other.shape), other.dtype)


def return_value(getter):
    """The function's lowered return value (None when no return ran)."""
    value = get_state(getter)[0]
    return None if value is UNDEFINED else value


def _loop_value(value):
    """A variable as a loop or branch carries it: a TensorArray as is, anything else as a tensor."""
    return value if isinstance(value, TensorArray) else convert_to_tensor(value)


def _like(value, reference, name):
    if isinstance(reference, TensorArray):
        if not isinstance(value, TensorArray):
            raise TypeError(f"'{name}' enters the loop as a TensorArray but the loop body makes it {value!r}.")
        return value
    tensor = convert_to_tensor(value) if not _is_tensor(value) else value
    if tensor.dtype != reference.dtype:
        if not _is_tensor(value):
            return convert_to_tensor(value, dtype=reference.dtype)
        raise TypeError(f"'{name}' enters the loop as {reference.dtype.name} but the loop body makes it "
                        f"{tensor.dtype.name}.")
    return tensor


# -- the rewrite -------------------------------------------------------------------------------------------------

class _Assigned(ast.NodeVisitor):
    """Names a statement list assigns (not inside nested functions or classes)."""

    def __init__(self):
        self.names: list = []

    def visit_Name(self, node):  # noqa: N802 - ast's method name
        if isinstance(node.ctx, ast.Store) and node.id not in self.names:
            self.names.append(node.id)

    def visit_FunctionDef(self, node):  # noqa: N802
        pass

    visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = visit_FunctionDef


class _Escapes(ast.NodeVisitor):
    """Whether a statement list holds break/continue/return/yield that would leave a converted body."""

    def __init__(self):
        self.found = False

    def _mark(self, node):
        self.found = True

    visit_Break = visit_Continue = visit_Return = visit_Yield = visit_YieldFrom = _mark

    def visit_FunctionDef(self, node):  # noqa: N802
        pass

    visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = visit_FunctionDef


def _assigned(statements) -> list:
    visitor = _Assigned()
    for statement in statements:
        visitor.visit(statement)
    return [n for n in visitor.names if n != "__ag_values" and not n.startswith("__ag_item")]


def _escapes(statements) -> bool:
    visitor = _Escapes()
    for statement in statements:
        visitor.visit(statement)
    return visitor.found


class _Rewriter(ast.NodeTransformer):
    """Rewrites `if` and `while` statements of one function body into __ag__ calls."""

    def visit_FunctionDef(self, node):  # noqa: N802 - a nested function is rewritten with its parent (so one
        if _convertible_nested(node):        # passed to tf.cond or tf.while_loop is converted, as in TF)
            _convert_definition(node)
        return node

    def visit_AsyncFunctionDef(self, node):  # noqa: N802 - kept as written
        return node

    visit_ClassDef = visit_AsyncFunctionDef

    def visit_While(self, node):  # noqa: N802
        prelude, _ = _lower_loop_jumps(node)  # break/continue become flags (loop variables) and guards
        names = _assigned(node.body)  # before nested statements turn into helper functions
        self.generic_visit(node)
        if node.orelse or _escapes(node.body):
            if _returns(node.body):  # TensorFlow refuses a return inside a loop whose test is a tensor
                node.test = _ag("python_test", node.test)
            return prelude + [node] if prelude else node
        index = next(_ids)
        test_name, body_name = f"__ag_test_{index}", f"__ag_body_{index}"
        return _located(node, prelude + _helpers(names, index) + [
            _def(test_name, [ast.Return(value=node.test)], []),
            _def(body_name, node.body or [ast.Pass()], names),
            _call("while_stmt", [ast.Name(test_name, ast.Load()), ast.Name(body_name, ast.Load()),
                                 ast.Name(f"__ag_state_{index}", ast.Load()),
                                 ast.Name(f"__ag_set_{index}", ast.Load()), _names_tuple(names)]),
        ])

    def visit_For(self, node):  # noqa: N802
        prelude, broke = _lower_loop_jumps(node, for_loop=True)
        names = _assigned(node.body + [ast.Assign([node.target], ast.Constant(None))])
        self.generic_visit(node)
        if node.orelse or _escapes(node.body) or isinstance(node, ast.AsyncFor):
            if _returns(node.body):  # TensorFlow refuses a return inside a loop over a tensor
                node.iter = _ag("python_iterable", node.iter)
            return prelude + [node] if prelude else node
        index = next(_ids)
        body_name = f"__ag_for_body_{index}"
        item = ast.arg(f"__ag_item_{index}")
        body = [ast.Assign([node.target], ast.Name(item.arg, ast.Load()))] + node.body
        definition = _def(body_name, body, names)
        definition.args.args = [item]
        keep_going = ast.Constant(None) if broke is None else _lambda(_ag("not_", ast.Name(broke, ast.Load())))
        return _located(node, prelude + _helpers(names, index) + [
            definition,
            _call("for_stmt", [node.iter, ast.Name(body_name, ast.Load()), ast.Name(f"__ag_state_{index}", ast.Load()),
                               ast.Name(f"__ag_set_{index}", ast.Load()), _names_tuple(names), keep_going]),
        ])

    def visit_IfExp(self, node):  # noqa: N802 - `a if test else b` with a tensor test becomes a cond
        self.generic_visit(node)
        return ast.copy_location(_ag("if_exp", node.test, _lambda(node.body), _lambda(node.orelse)), node)

    def visit_BoolOp(self, node):  # noqa: N802 - `a and b` / `a or b` on tensors become logical_and/or
        self.generic_visit(node)
        helper = "and_" if isinstance(node.op, ast.And) else "or_else"
        result = node.values[-1]
        for value in reversed(node.values[:-1]):
            result = _ag(helper, value, _lambda(result))
        return ast.copy_location(result, node)

    def visit_UnaryOp(self, node):  # noqa: N802 - `not t` on a tensor becomes logical_not
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return ast.copy_location(_ag("not_", node.operand), node)
        return node

    def visit_Lambda(self, node):  # noqa: N802 - lambdas keep their expressions (a lambda passed to tf.cond
        return _CallsConverted().visit(node)   # must stay a plain function); the functions they call convert

    def visit_Call(self, node):  # noqa: N802 - the functions a converted function calls convert too (TF's
        self.generic_visit(node)   # recursive conversion): `f(x)` becomes `__ag__.callee(f)(x)`
        return _converted_callee(node)

    def visit_If(self, node):  # noqa: N802
        names = _assigned(node.body + node.orelse)  # before nested statements turn into helper functions
        in_both = [n for n in _assigned(node.body) if n in _assigned(node.orelse)]
        true_assigns = _assigned(node.body)
        self.generic_visit(node)
        if _escapes(node.body) or _escapes(node.orelse):
            return node
        index = next(_ids)
        true_name, false_name = f"__ag_if_true_{index}", f"__ag_if_false_{index}"
        return _located(node, _helpers(names, index) + [
            _def(true_name, node.body or [ast.Pass()], names),
            _def(false_name, node.orelse or [ast.Pass()], names),
            _call("if_stmt", [node.test, ast.Name(true_name, ast.Load()), ast.Name(false_name, ast.Load()),
                              ast.Name(f"__ag_state_{index}", ast.Load()), ast.Name(f"__ag_set_{index}", ast.Load()),
                              _names_tuple(names), _names_tuple(in_both), _names_tuple(true_assigns)]),
        ])


def _converted_callee(node):
    """`f(...)` as `__ag__.callee(f)(...)`, except AutoGraph's own helpers and super()."""
    func = node.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "__ag__":
        return node
    if isinstance(func, ast.Name) and (func.id == "super" or func.id.startswith("__ag")):
        return node
    node.func = ast.copy_location(_ag("callee", func), func)
    return node


class _CallsConverted(ast.NodeTransformer):
    """Only the calls of an expression (a lambda's body) rewritten to convert their functions."""

    def visit_Call(self, node):  # noqa: N802
        self.generic_visit(node)
        return _converted_callee(node)


def _located(origin, statements: list) -> list:
    """Generated statements take the lines of the statement they replace (tracebacks name the user's line)."""
    located = next((node for node in ast.walk(origin) if getattr(node, "lineno", None) is not None), None)
    if located is None:  # the statement was generated itself (a lowered break): fix_missing_locations places it
        return statements
    for statement in statements:
        for child in ast.walk(statement):
            if "lineno" in child._attributes and getattr(child, "lineno", None) is None:
                child.lineno = child.end_lineno = located.lineno  # the statement's first line (`while ...:`)
                child.col_offset = child.end_col_offset = located.col_offset
    return statements


class _Jumps(ast.NodeVisitor):
    """Whether statements hold a break/continue of the loop being looked at (not of loops nested in it)."""

    def __init__(self):
        self.found = False

    def _mark(self, node):
        self.found = True

    visit_Break = visit_Continue = _mark

    def _skip(self, node):
        pass

    visit_While = visit_For = visit_AsyncFor = visit_FunctionDef = visit_AsyncFunctionDef = _skip
    visit_ClassDef = visit_Lambda = _skip


def _has_jump(statements) -> bool:
    visitor = _Jumps()
    for statement in statements:
        visitor.visit(statement)
    return visitor.found


def _flag(name, value):
    return ast.Assign([ast.Name(name, ast.Store())], ast.Constant(value))


def _ag(helper, *args):
    return ast.Call(func=ast.Attribute(ast.Name("__ag__", ast.Load()), helper, ast.Load()), args=list(args),
                    keywords=[])


def _lower(statements, brk, cnt):
    """The statements with break/continue turned into flag assignments and what follows them guarded; None
    when a jump sits where this cannot follow (inside with/try/match)."""
    out = []
    for position, statement in enumerate(statements):
        if isinstance(statement, ast.Break):
            return out + [_flag(brk, True)]
        if isinstance(statement, ast.Continue):
            return out + [_flag(cnt, True)]
        if not _has_jump([statement]):
            out.append(statement)
            continue
        if not isinstance(statement, ast.If):
            return None
        body, orelse = _lower(statement.body, brk, cnt), _lower(statement.orelse, brk, cnt)
        if body is None or orelse is None:
            return None
        statement.body, statement.orelse = body or [ast.Pass()], orelse
        out.append(statement)
        rest = statements[position + 1:]
        if rest:
            guarded = _lower(rest, brk, cnt)
            if guarded is None:
                return None
            jumped = _ag("or_", ast.Name(brk, ast.Load()), ast.Name(cnt, ast.Load()))
            out.append(ast.If(test=_ag("not_", jumped), body=guarded, orelse=[]))
        return out
    return out


def _lower_loop_jumps(node, for_loop=False):
    """Rewrite a loop's own break/continue (in place) into flags: (the flag set-up statements, the break
    flag's name or None). A while loop's test checks the flag itself; a for loop hands it to for_stmt."""
    if node.orelse or not _has_jump(node.body):
        return [], None
    index = next(_ids)
    brk, cnt = f"__ag_break_{index}", f"__ag_continue_{index}"
    lowered = _lower(node.body, brk, cnt)
    if lowered is None:
        return [], None
    node.body = [_flag(cnt, False)] + lowered
    if not for_loop:
        node.test = _ag("and_", _ag("not_", ast.Name(brk, ast.Load())), _lambda(node.test))
    return [_flag(brk, False), _flag(cnt, False)], brk


def _lambda(body):
    return ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[],
                                         kwarg=None, defaults=[]), body=body)


class _Returns(ast.NodeVisitor):
    """Whether statements return from the function (not from functions nested in them)."""

    def __init__(self):
        self.found = False

    def visit_Return(self, node):  # noqa: N802
        self.found = True

    def _skip(self, node):
        pass

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = _skip


def _returns(statements) -> bool:
    visitor = _Returns()
    for statement in statements:
        visitor.visit(statement)
    return visitor.found


class _LoopReturns(ast.NodeVisitor):
    """Whether a return sits inside a loop (TensorFlow refuses those for tensor loops; kept as written)."""

    def __init__(self):
        self.found = False

    def _loop(self, node):
        self.found = self.found or _returns(node.body)

    visit_While = visit_For = visit_AsyncFor = _loop

    def _skip(self, node):
        pass

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = _skip


def _lower_returns(statements):
    """Returns inside `if` statements become `do_return = True; retval = value` and what follows them is
    guarded by `if not do_return`; None when a return sits where this cannot follow (with/try/match)."""
    out = []
    for position, statement in enumerate(statements):
        if isinstance(statement, ast.Return):
            value = statement.value if statement.value is not None else ast.Constant(None)
            return out + [_flag(f"{RETURN_VALUE}_flag", True), ast.Assign([ast.Name(RETURN_VALUE, ast.Store())], value)]
        if not _returns([statement]):
            out.append(statement)
            continue
        if not isinstance(statement, ast.If):
            return None
        body, orelse = _lower_returns(statement.body), _lower_returns(statement.orelse)
        if body is None or orelse is None:
            return None
        statement.body, statement.orelse = body or [ast.Pass()], orelse
        out.append(statement)
        rest = statements[position + 1:]
        if rest:
            guarded = _lower_returns(rest)
            if guarded is None:
                return None
            out.append(ast.If(test=_ag("not_", ast.Name(f"{RETURN_VALUE}_flag", ast.Load())), body=guarded, orelse=[]))
        return out
    return out


def _lower_function_returns(definition) -> None:
    """Lower the function's returns (in place) when one sits inside an `if`, so tensor ifs can convert."""
    nested = any(isinstance(s, ast.If) and _returns([s]) for s in ast.walk(definition) if s is not definition)
    loops = _LoopReturns()
    for statement in definition.body:
        loops.visit(statement)
    if not nested or loops.found:
        return
    lowered = _lower_returns(definition.body)
    if lowered is None:
        return
    start = _after_docstring(definition)
    getter = _lambda(ast.Name(RETURN_VALUE, ast.Load()))
    definition.body = definition.body[:start] + [_flag(f"{RETURN_VALUE}_flag", False)] + lowered[start:] + [
        ast.Return(_ag("return_value", getter))]


def _names_tuple(names):
    return ast.Tuple([ast.Constant(n) for n in names], ast.Load())


def _def(name, body, nonlocal_names):
    statements = ([ast.Nonlocal(list(nonlocal_names))] if nonlocal_names else []) + list(body)
    return ast.FunctionDef(name=name, args=ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[],
                                                         kw_defaults=[], kwarg=None, defaults=[]),
                           body=statements, decorator_list=[], returns=None, type_params=[])


def _helpers(names, index):
    """__ag_state_N() -> the variables' values; __ag_set_N(values) assigns them."""
    getters = [ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[],
                                             kwarg=None, defaults=[]), body=ast.Name(n, ast.Load())) for n in names]
    state = _def(f"__ag_state_{index}", [ast.Return(value=ast.Call(
        func=ast.Attribute(ast.Name("__ag__", ast.Load()), "get_state", ast.Load()), args=getters, keywords=[]))], [])
    setter_body = [ast.Nonlocal(list(names))] if names else []
    for position, name in enumerate(names):
        unset = ast.Delete([ast.Name(name, ast.Del())])
        unset.ag_generated = True  # an undefined variable becomes undefined again (a branch sees no other's)
        setter_body.append(ast.If(
            test=ast.Compare(ast.Subscript(ast.Name("__ag_values", ast.Load()), ast.Constant(position), ast.Load()),
                             [ast.IsNot()], [ast.Attribute(ast.Name("__ag__", ast.Load()), "UNDEFINED", ast.Load())]),
            body=[ast.Assign([ast.Name(name, ast.Store())],
                             ast.Subscript(ast.Name("__ag_values", ast.Load()), ast.Constant(position), ast.Load()))],
            orelse=[ast.Try(body=[unset], handlers=[ast.ExceptHandler(type=ast.Name("NameError", ast.Load()), name=None,
                                                                      body=[ast.Pass()])], orelse=[], finalbody=[])]))
    setter = ast.FunctionDef(name=f"__ag_set_{index}", args=ast.arguments(
        posonlyargs=[], args=[ast.arg("__ag_values")], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
        defaults=[]), body=setter_body or [ast.Pass()], decorator_list=[], returns=None, type_params=[])
    return [state, setter]


def _call(helper, args):
    return ast.Expr(ast.Call(func=ast.Attribute(ast.Name("__ag__", ast.Load()), helper, ast.Load()), args=args,
                             keywords=[]))


def _converted_tree(code):
    """The rewritten module tree of the function whose code object is `code` (its own source, even for a
    decorator's wrapper, whose __wrapped__ inspect.getsource(fn) would follow), and its definition."""
    source = textwrap.dedent(inspect.getsource(code))
    tree = ast.parse(source)
    ast.increment_lineno(tree, code.co_firstlineno - 1)  # tracebacks and op frames name the user's lines
    definition = tree.body[0]
    if not isinstance(definition, (ast.FunctionDef, ast.AsyncFunctionDef)):
        raise ValueError("not a function definition")
    definition.decorator_list = []
    _convert_definition(definition)
    return ast.fix_missing_locations(tree), definition


def _convert_definition(definition) -> None:
    """Rewrite one function definition's body in place (its nested definitions too, as TF converts them)."""
    _lower_function_returns(definition)
    definition.body = [_Rewriter().visit(statement) for statement in definition.body]
    definition.body = [s for item in definition.body for s in (item if isinstance(item, list) else [item])]
    _flatten_lists(definition)
    names = sorted(_helper_nonlocals(definition))
    if names:  # `if False: y = None` makes y a local of the function (the helpers' nonlocal needs one), unset
        binding = ast.If(test=ast.Constant(False), body=[ast.Assign([ast.Name(n, ast.Store())], ast.Constant(None))
                                                          for n in names], orelse=[])
        definition.body.insert(_after_docstring(definition), binding)


def _helper_nonlocals(definition) -> set:
    """The names the generated helpers of `definition` (not of its nested user functions) declare nonlocal."""
    found, pending = set(), list(ast.iter_child_nodes(definition))
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Nonlocal):
            found.update(node.names)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)) and \
                not getattr(node, "name", "").startswith("__ag_"):
            continue
        pending.extend(ast.iter_child_nodes(node))
    return found


def _convertible_nested(node) -> bool:
    """Whether a nested function definition can be rewritten with its parent: not a generator or coroutine, and
    without del/global/nonlocal statements of its own (the helpers' nonlocal scoping would clash with them)."""
    if isinstance(node, ast.AsyncFunctionDef) or node.name.startswith("__ag_"):
        return False
    pending = list(node.body)
    while pending:
        child = pending.pop()
        if isinstance(child, (ast.Yield, ast.YieldFrom, ast.Await, ast.Delete, ast.Global, ast.Nonlocal)):
            return False
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        pending.extend(ast.iter_child_nodes(child))
    return True


def _after_docstring(definition) -> int:
    first = definition.body[0] if definition.body else None
    return 1 if isinstance(first, ast.Expr) and isinstance(getattr(first, "value", None), ast.Constant) and \
        isinstance(first.value.value, str) else 0


def _flatten_lists(node) -> None:
    """NodeTransformer may leave lists of statements inside bodies: splice them in."""
    for field in ("body", "orelse", "finalbody"):
        statements = getattr(node, field, None)
        if isinstance(statements, list):
            flat = []
            for item in statements:
                flat.extend(item if isinstance(item, list) else [item])
            setattr(node, field, flat)
            for child in flat:
                _flatten_lists(child)


def to_code(entity, recursive=True, experimental_optional_features=None) -> str:
    """The source AutoGraph runs for `entity` (placeflow converts the functions it calls when they run, so
    `recursive` shows only the entity's own code; `experimental_optional_features` must be left unset)."""
    if experimental_optional_features is not None:
        raise NotImplementedError("tf.autograph.to_code(experimental_optional_features=...) is not implemented in "
                                  "placeflow; leave it unset.")
    fn = getattr(entity, "python_function", entity)
    fn = getattr(inspect.unwrap(fn), "__func__", inspect.unwrap(fn))
    return ast.unparse(_converted_tree(fn.__code__)[0])


def do_not_convert(func=None):
    """Mark `func` so that AutoGraph leaves it as written (tf.autograph.experimental.do_not_convert); usable as
    a decorator with or without parentheses."""
    if func is None:
        return do_not_convert

    @functools.wraps(func)
    def unconverted(*args, **kwargs):
        return func(*args, **kwargs)
    unconverted._placeflow_do_not_convert = True
    return unconverted


# Packages whose functions AutoGraph never rewrites: their Python control flow is meant as written.
_LIBRARIES = frozenset({"placeflow", "tensorflow", "keras", "numpy", "scipy", "collections", "functools", "inspect",
                        "threading", "copy", "re", "pathlib"})


def convert(fn):
    """`fn` with its tensor if/while statements rewritten and the functions it calls converted when called;
    `fn` itself when its source is unavailable, it is library code, or it is marked with do_not_convert."""
    target = getattr(fn, "__func__", fn)
    if getattr(target, "_placeflow_do_not_convert", False):
        return fn
    if getattr(target, "__name__", "") == "<lambda>" or not inspect.isfunction(target):
        return fn
    if (getattr(target, "__module__", None) or "").split(".")[0] in _LIBRARIES:
        return fn  # library code is left as written (TF's AutoGraph does not convert these packages either)
    if getattr(target, "__code__", None) in _CONVERTED_CODES:
        return fn  # already AutoGraph's rewrite
    try:
        rewritten = _rewritten_code(target.__code__)
    except (OSError, TypeError, ValueError, SyntaxError, IndentationError):
        return fn
    if rewritten is None:
        return fn
    converted = _build(target, rewritten)
    return converted.__get__(fn.__self__) if hasattr(fn, "__self__") else converted


_CONVERTED_CODES: set = set()   # the code objects of rewritten functions (never rewritten again)


@functools.lru_cache(maxsize=1024)
def _rewritten_code(code):
    """The code object of the rewritten function whose code is `code`, or None when it stays as written."""
    if "__class__" in code.co_freevars or code.co_flags & (inspect.CO_GENERATOR | inspect.CO_COROUTINE |
                                                            inspect.CO_ASYNC_GENERATOR):
        return None  # zero-argument super() needs the class cell; generators and coroutines stay as written
    tree, definition = _converted_tree(code)
    if any(isinstance(node, ast.Delete) and not getattr(node, "ag_generated", False) for node in ast.walk(definition)):
        return None  # `del` of a variable a rewritten statement shares would act on the helper's scope
    if not any(isinstance(node, ast.Name) and node.id == "__ag__" for node in ast.walk(definition)):
        return None  # nothing to convert
    free = code.co_freevars
    definition.name = "__ag_converted"   # not the function's own name, which its body may call (recursion)
    factory = ast.FunctionDef(name="__ag_factory", args=ast.arguments(
        posonlyargs=[], args=[ast.arg(n) for n in free], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
        defaults=[]), body=[definition, ast.Return(ast.Name(definition.name, ast.Load()))], decorator_list=[],
        returns=None, type_params=[])
    module = compile(ast.fix_missing_locations(ast.Module(body=[factory], type_ignores=[])), code.co_filename, "exec")
    factory_code = next(c for c in module.co_consts if isinstance(c, types.CodeType))
    rewritten = next(c for c in factory_code.co_consts if isinstance(c, types.CodeType) and
                     c.co_name == "__ag_converted")
    rewritten = rewritten.replace(co_name=code.co_name, co_qualname=code.co_qualname)
    _CONVERTED_CODES.add(rewritten)
    return rewritten


def _build(fn, rewritten):
    """The rewritten function of `fn`: it runs with the original's globals and closure cells (never a snapshot
    of them)."""
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    fn.__globals__.setdefault("__ag__", _Helpers)
    converted = types.FunctionType(rewritten, fn.__globals__, fn.__name__, fn.__defaults__,
                                   tuple(cells[name] for name in rewritten.co_freevars))
    converted.__kwdefaults__ = fn.__kwdefaults__
    functools.update_wrapper(converted, fn)
    return converted


def callee(f):
    """What a call in converted code calls: while a graph is built, `f` converted when it is a user function,
    method, functools.partial or callable object (TF's recursive conversion); placeflow's functions as they are,
    but map_fn and vectorized_map (whose function argument TF converts) convert theirs. Eagerly, `f` itself."""
    if graph_mode.active() is None:
        return f
    if inspect.isfunction(f) or inspect.ismethod(f):
        higher = _higher_order().get(getattr(f, "__func__", f))
        return _converting_argument(f, higher) if higher is not None else _converted_or_as_is(f)
    if isinstance(f, functools.partial):
        return functools.partial(callee(f.func), *f.args, **f.keywords)
    call = getattr(type(f), "__call__", None)
    if inspect.isfunction(call) and not isinstance(f, type):   # a callable object of a user class
        converted = _converted_or_as_is(call)
        return f if converted is call else converted.__get__(f)
    return f


def _converted_or_as_is(f):
    """convert(f); f as written, with a warning, where the rewrite itself fails (as TF runs it as is)."""
    try:
        return convert(f)
    except Exception as exc:  # noqa: BLE001 - TF: "AutoGraph could not transform ... and will run it as-is"
        import logging
        logging.getLogger("placeflow").warning("AutoGraph could not transform %s and will run it as-is: %s: %s",
                                               getattr(f, "__qualname__", f), type(exc).__name__, exc)
        return f


@functools.lru_cache(maxsize=1)
def _higher_order() -> dict:
    """{placeflow function: the position of its function argument} for the functions whose function argument
    TF converts (map_fn, vectorized_map: autograph.tf_convert in TF's own code)."""
    from . import map_ops
    return {map_ops.map_fn: 0, map_ops.vectorized_map: 0}


def _converting_argument(f, position: int):
    """`f` with its function argument (at `position`, or by its name) converted before the call."""
    name = list(inspect.signature(f).parameters)[position]

    @functools.wraps(f)
    def call(*args, **kwargs):
        if len(args) > position:
            args = args[:position] + (_converted_or_as_is(args[position]),) + args[position + 1:]
        elif name in kwargs:
            kwargs[name] = _converted_or_as_is(kwargs[name])
        return f(*args, **kwargs)
    return call


class _Helpers:
    """What the rewritten code sees as __ag__."""

    UNDEFINED = UNDEFINED
    get_state = staticmethod(get_state)
    while_stmt = staticmethod(while_stmt)
    for_stmt = staticmethod(for_stmt)
    not_, or_, and_ = staticmethod(not_), staticmethod(or_), staticmethod(and_)
    or_else, if_exp = staticmethod(or_else), staticmethod(if_exp)
    if_stmt = staticmethod(if_stmt)
    python_iterable, python_test = staticmethod(python_iterable), staticmethod(python_test)
    return_value = staticmethod(return_value)
    callee = staticmethod(callee)
