"""``copper.fuse``: CuPy's explicit fusion decorator. The function is traced once per
argument signature (dtypes and shapes of the arrays, types of the scalars) into a graph
(copper._fusion_trace), which becomes one generated kernel (copper._fusion_codegen):
an ElementwiseKernel, or a ReductionKernel when the result is a reduction of elementwise
work. Graphs that are not one kernel (several reductions, elementwise work on a
reduction's result with other arrays, indexing of computed values) and calls that
raise run the function eagerly, as without the decorator, so results never differ."""
import functools
import os
import threading

import numpy as _np

from copper import _core, _fusion_eval
from copper._fusion_graph import INPUT, REDUCE, UFUNC, Unfusable, inputs_of, topological, weak_dtype
from copper._fusion_codegen import elementwise_kernel, reduction_kernel
from copper._fusion_trace import BranchError, Proxy, Tracer

__all__ = ["fuse", "Fusion"]

_EAGER = "eager"

# CPU arrays: compile the generated kernel with the host compiler (True), or evaluate the
# graph block by block with copper's eager operations (False: no compiler at run time).
compile_on_cpu = os.environ.get("COPPER_FUSE_CPU", "") == "compile"


def _arg_key(a):
    if isinstance(a, _core.ndarray):
        return ("a", a.dtype.str, a.shape)
    if isinstance(a, _np.generic):
        return ("n", a.dtype.str)
    if a is None:
        return ("none",)
    if type(a) in (bool, int, float, complex):
        return ("p", type(a), weak_dtype(a).str)
    raise Unfusable(f"argument of type {type(a).__name__}")


def _flatten(value, slots):
    """The return value's structure with each traced value replaced by ('slot', k)."""
    if isinstance(value, Proxy):
        slots.append(value)
        return ("slot", len(slots) - 1)
    if isinstance(value, (tuple, list)):
        return (type(value), [_flatten(v, slots) for v in value])
    if value is None or isinstance(value, (bool, int, float, complex, _np.generic)):
        return ("const", value)
    raise Unfusable(f"a fused function returning {type(value).__name__}")


def _rebuild(template, values):
    if template[0] == "slot":
        return values[template[1]]
    if template[0] == "const":
        return template[1]
    kind, items = template
    return kind(_rebuild(t, values) for t in items)


def _input_value(node, args, typed=True):
    """An input's value at run time; ``typed``: scalars as their kernel dtype, else weak
    Python scalars as they are (for eager evaluation)."""
    source = node.attr[0]
    if source[0] == "const":
        value = source[1]
    else:
        _, k, indices = source
        value = args[k]
        for key in indices:
            value = value[key]
    if node.scalar and (typed or node.weak is None):
        return node.dtype.type(value)
    return value


class _Plan:
    """How one signature runs: a kernel, its inputs, what it writes, what is returned."""

    def __init__(self, tracer, proxies, result, name):
        slots = []
        self.template = _flatten(result, slots)
        self.returns = []    # per slot: ('arg', k), ('out', j) or ('value', constant)
        outputs = []         # nodes the kernel writes into new arrays
        for p in slots:
            node = p._node
            if p._param is not None or (node.op == INPUT and node.scalar and node.attr[0][0] == "arg"):
                self.returns.append(("arg", p._param if p._param is not None else node.attr[0][1]))
            elif node.op == INPUT and node.scalar:
                self.returns.append(("value", node.attr[0][1]))
            else:
                if not any(o is node for o in outputs):
                    outputs.append(node)
                self.returns.append(("out", next(j for j, o in enumerate(outputs) if o is node)))
        self.outputs = outputs
        self.writes = sorted(tracer.writes.items())
        graph = topological(outputs + [n for _, n in self.writes])
        reductions = [n for n in graph if n.op == REDUCE]
        used = {id(n) for n in inputs_of(graph)}
        self.inputs = [n for n in tracer.inputs if id(n) in used]
        self.weak_checks = _weak_int_checks(graph)
        self.kernel = self.reduce = None
        if not outputs and not self.writes:
            return
        if not reductions:
            self._elementwise(name)
        elif len(reductions) == 1 and len(outputs) == 1 and not self.writes:
            self._reduction(reductions[0], name)
        else:
            raise Unfusable("more than one kernel")

    def _elementwise(self, name):
        shapes = [n.shape for n in self.outputs] + [n.shape for _, n in self.writes]
        self.shape = shapes[0]
        if any(s != self.shape for s in shapes):
            raise Unfusable("outputs of different shapes")
        self.reduce = None
        self.kernel = elementwise_kernel(self.inputs, self.outputs + [n for _, n in self.writes], name)

    def _reduction(self, node, name):
        (out,) = self.outputs
        post_inputs = inputs_of(topological([out], leaves=[node]))
        if any(not n.scalar for n in post_inputs):
            raise Unfusable("arrays combined with a reduction's result")
        self.reduce = node
        self.kernel = reduction_kernel(self.inputs, node, out, name)

    def run(self, args):
        if self.kernel is not None and not compile_on_cpu and _on_cpu(args):
            return self._evaluate(args)
        values = [_input_value(n, args) for n in self.inputs]
        results = []
        if self.kernel is not None and self.reduce is None:
            device = next(a for a in args if isinstance(a, _core.ndarray)).device
            results = [_core.empty(self.shape, n.dtype, device=device) for n in self.outputs]
            self.kernel(*values, *results, *[args[k] for k, _ in self.writes])
        elif self.kernel is not None:
            _, axes, keepdims, _ = self.reduce.attr
            results = [self.kernel(*values, axis=axes, keepdims=keepdims)]
        out = []
        for kind, j in self.returns:
            out.append(args[j] if kind == "arg" else results[j] if kind == "out" else j)
        return _rebuild(self.template, out)


    def _evaluate(self, args):
        """The graph by copper's eager operations (copper._fusion_eval), block by block."""
        values = [_input_value(n, args, typed=False) for n in self.inputs]
        device = next(a for a in args if isinstance(a, _core.ndarray)).device
        if self.reduce is not None:
            (output,) = self.outputs
            results = [_core.empty(output.shape, output.dtype, device=device)]
            _fusion_eval.run_reduction(self.inputs, values, output, self.reduce, results[0])
        else:
            results = [_core.empty(self.shape, n.dtype, device=device) for n in self.outputs]
            targets = results + [args[k] for k, _ in self.writes]
            _fusion_eval.run_elementwise(self.inputs, values, self.outputs + [n for _, n in self.writes], targets,
                                         self.shape)
        out = [args[j] if kind == "arg" else results[j] if kind == "out" else j for kind, j in self.returns]
        return _rebuild(self.template, out)


def _extent(a):
    """The byte range [lo, hi) an array's elements span."""
    lo = hi = a.data.ptr
    for n, st in zip(a.shape, a.strides):
        if n == 0:
            return (0, 0)
        if st < 0:
            lo += st * (n - 1)
        else:
            hi += st * (n - 1)
    return (lo, hi + a.itemsize)


def _written_aliases(plan, args):
    """Whether a parameter written in place may share memory with another array argument:
    the trace read each argument as a separate value, so such calls run eagerly."""
    arrays = [(k, _extent(a)) for k, a in enumerate(args) if isinstance(a, _core.ndarray) and a.size]
    for k, _ in plan.writes:
        lo, hi = _extent(args[k]) if args[k].size else (0, 0)
        if any(j != k and lo < b_hi and b_lo < hi for j, (b_lo, b_hi) in arrays):
            return True
    return False


def _on_cpu(args):
    return str(next(a for a in args if isinstance(a, _core.ndarray)).device).startswith("cpu")


def _weak_int_checks(graph):
    """(kernel input, loop dtypes) for weak Python int parameters read in narrower integer loops:
    NumPy raises OverflowError for values those loops cannot hold, and compares exactly."""
    checks = {}
    for n in graph:
        if n.op != UFUNC:
            continue
        for a, loop in zip(n.args, n.attr[1]):
            if a.op == INPUT and a.weak is int and a.attr[0][0] == "arg" and loop.kind in "iu":
                checks.setdefault(id(a), (a, set()))[1].add(loop)
    return list(checks.values())


def _weak_ints_fit(plan, args):
    for node, loops in plan.weak_checks:
        v = args[node.attr[0][1]]
        if any(not _np.iinfo(t).min <= v <= _np.iinfo(t).max for t in loops):
            return False
    return True


class Fusion:
    """A function fused by ``copper.fuse``; ``clear_cache()`` forgets its traces."""

    def __init__(self, func, name=None):
        functools.update_wrapper(self, func)
        self.func = func
        self.name = name or getattr(func, "__name__", "fused")
        self._plans = {}
        self._lock = threading.Lock()

    def __repr__(self):
        return f"<copper.fuse of {self.func!r}>"

    def __get__(self, obj, objtype=None):
        return self if obj is None else functools.partial(self, obj)

    def clear_cache(self):
        with self._lock:
            self._plans.clear()

    def plan_kind(self, *args):
        """'elementwise', 'reduction', 'none' or 'eager': how a call with these arguments runs."""
        plan = self._plan(args)
        if plan is _EAGER:
            return _EAGER
        if plan.kernel is None:
            return "none"
        return "elementwise" if plan.reduce is None else "reduction"

    def _plan(self, args):
        try:
            key = tuple(_arg_key(a) for a in args)
        except Unfusable:
            return _EAGER
        plan = self._plans.get(key)
        if plan is None:
            plan = self._trace(args)
            with self._lock:
                self._plans[key] = plan
        return plan

    def _trace(self, args):
        tracer = Tracer()
        try:
            proxies = [None if a is None else tracer.parameter(k, a) for k, a in enumerate(args)]
            result = self.func(*proxies)
            return _Plan(tracer, proxies, result, self.name)
        except BranchError:
            raise
        except Exception:  # noqa: BLE001  not one kernel, or an error eager execution raises itself
            return _EAGER

    def __call__(self, *args, **kwargs):
        if kwargs or any(type(a) is Proxy for a in args):
            return self.func(*args, **kwargs)  # keywords: eager; inside another trace: inlined
        if not any(isinstance(a, _core.ndarray) for a in args):
            return self.func(*args)  # NumPy arrays and scalars: the plain function, as CuPy
        plan = self._plan(args)
        if plan is _EAGER or not _weak_ints_fit(plan, args) or (plan.writes and _written_aliases(plan, args)):
            return self.func(*args)
        try:
            return plan.run(args)
        except _core.CompileError:  # an op without a loop the generated code can call: as unfused
            with self._lock:
                self._plans = {k: (_EAGER if v is plan else v) for k, v in self._plans.items()}
            return self.func(*args)


def fuse(*args, **kwargs):
    """CuPy's ``fuse``: ``@fuse``, ``@fuse()`` or ``@fuse(kernel_name='name')`` turns an
    elementwise function (with at most one final reduction) into one generated kernel."""
    if len(args) == 1 and not kwargs and callable(args[0]):
        return Fusion(args[0])
    unknown = set(kwargs) - {"kernel_name"}
    if unknown or args:
        raise TypeError(f"fuse() got unexpected arguments: {sorted(unknown) or args}")
    return lambda f: Fusion(f, kwargs.get("kernel_name"))
