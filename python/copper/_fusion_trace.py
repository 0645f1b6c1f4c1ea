"""copper.fuse's tracer: the decorated function runs once per argument signature on
proxy objects that record a graph (copper._fusion_graph) instead of computing. Proxies
answer operators, indexing, methods, copper's ufuncs (through a hook in the ufunc type)
and the module functions wrapped by ``traced_functions``. Dtypes and errors come from
copper itself (the same call on empty arrays), NumPy's loop selection from
``ufunc.resolve_dtypes``; shapes from NumPy's broadcasting rules."""
import atexit
import functools

import numpy as _np

from copper import _core
from copper._fusion_graph import (INPUT, UFUNC, CAST, WHERE, REDUCE, Node, Unfusable, python_scalar_type,
                                  weak_dtype)
from copper._fusion_codegen import accumulator_dtype, functor_name

_BRANCH_MESSAGE = ("copper.fuse: an array inside a fused function has no Python scalar value "
                   "(branch with copper.where instead of if/while)")


class BranchError(TypeError):
    """A traced value was asked for its truth or Python scalar value (CuPy raises TypeError)."""


class Tracer:
    """The graph of one trace: its inputs, and the parameters written in place."""

    def __init__(self):
        self.inputs = []   # input nodes, in kernel argument order
        self.writes = {}   # parameter index -> node of its final value
        self.viewed = set()  # parameters read through an index
        self.reductions = 0

    def input(self, source, dtype, shape, scalar, weak=None):
        node = Node(INPUT, dtype, shape, attr=(source, scalar), weak=weak)
        self.inputs.append(node)
        return node

    def parameter(self, k, value):
        """A proxy for argument ``k`` (a copper array, NumPy scalar or Python scalar)."""
        if isinstance(value, _core.ndarray):
            return Proxy(self, self.input(("arg", k, ()), value.dtype, value.shape, False), param=k)
        if isinstance(value, _np.generic):
            return Proxy(self, self.input(("arg", k, ()), value.dtype, (), True))
        t = python_scalar_type(value)
        if t is None:
            raise Unfusable(f"argument of type {type(value).__name__}")
        return Proxy(self, self.input(("arg", k, ()), weak_dtype(value), (), True, weak=t))

    def operand(self, value):
        """A node for a ufunc operand: a proxy's, or a constant of the traced code."""
        if isinstance(value, Proxy):
            if value._tracer is not self:
                raise Unfusable("a proxy of another trace")
            return value._node
        if isinstance(value, _np.generic) and value.dtype.kind in "biufc":
            return self.input(("const", value), value.dtype, (), True)
        t = python_scalar_type(value)
        if t is not None:
            return self.input(("const", value), weak_dtype(value), (), True, weak=t)
        raise Unfusable(f"operand of type {type(value).__name__}")


# ---- dtypes and errors as copper's eager call gives them (once per combination) ----

def _sample(node):
    """An operand of an eager call that decides only dtypes: an empty array, or the weak scalar."""
    if node.weak is not None:
        value = node.attr[0][1] if node.attr[0][0] == "const" else node.weak(0)
        return value
    return _core.empty((0,), node.dtype)


@functools.lru_cache(maxsize=4096)
def _eager_dtype(name, key, out_dtype):
    ufunc = getattr(_core, name)
    args = [k[2] if k[0] == "w" else _core.empty((0,), k[1]) for k in key]
    if out_dtype is None:
        return _np.dtype(ufunc(*args).dtype)
    out = _core.empty((0,), out_dtype)
    ufunc(*args, out=out)
    return _np.dtype(out_dtype)


def _dtype_key(node):
    if node.weak is None:
        return ("a", node.dtype.str)
    value = node.attr[0][1] if node.attr[0][0] == "const" else node.weak(0)
    return ("w", node.weak, value)  # the type too: 0 == 0.0 == False as cache keys


def _numpy_ufunc(name):
    f = getattr(_np, name, None)
    if f is None and name == "clip":
        f = _np._core.umath.clip
    if not isinstance(f, _np.ufunc):
        raise Unfusable(f"no NumPy loop table for {name}")
    return f


def broadcast(shapes):
    try:
        return _np.broadcast_shapes(*shapes)
    except ValueError as e:
        raise Unfusable(str(e)) from None


def ufunc_node(tracer, name, operands, out=None):
    """The node of ufunc ``name`` over ``operands`` (nodes); ``out``: the node it is written into."""
    if all(n.weak is not None for n in operands):
        raise Unfusable("a ufunc of Python scalars only")  # Python would compute it: keep eager
    key = tuple(_dtype_key(n) for n in operands)
    dtype = _eager_dtype(name, key, None if out is None else out.dtype.str)
    result_dtype = _eager_dtype(name, key, None)
    npu = _numpy_ufunc(name)
    if npu.nout != 1:
        raise Unfusable(f"{name} has {npu.nout} outputs")
    try:
        loop = npu.resolve_dtypes(tuple(n.weak if n.weak is not None else n.dtype for n in operands) + (None,))
    except Exception as e:
        raise Unfusable(str(e)) from None
    if len(set(loop[:-1])) > 1:
        raise Unfusable(f"{name}'s loop {loop} mixes input types")  # NumPy's uint64-vs-int comparisons
    shape = broadcast([n.shape for n in operands])
    node = Node(UFUNC, result_dtype, shape, operands, attr=(functor_name(name), loop[:-1], loop[-1], name))
    if out is not None:
        if broadcast([shape, out.shape]) != out.shape:
            raise Unfusable("output shape mismatch")
        node = Node(CAST, dtype, out.shape, (node,)) if dtype != result_dtype or shape != out.shape else node
    return node


# ---- the proxy ----

_BINARY = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide", "floordiv": "floor_divide",
           "mod": "remainder", "pow": "power", "lshift": "left_shift", "rshift": "right_shift",
           "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor"}
_COMPARE = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal", "gt": "greater", "ge": "greater_equal"}


def _full_key(key):
    """Whether ``x[key] = v`` assigns every element (``...``, ``:`` or a tuple of them)."""
    keys = key if isinstance(key, tuple) else (key,)
    return all(k is Ellipsis or (isinstance(k, slice) and k == slice(None)) for k in keys)


def _basic_index(key):
    keys = key if isinstance(key, tuple) else (key,)
    for k in keys:
        if not (k is None or k is Ellipsis or isinstance(k, slice) or
                (isinstance(k, (int, _np.integer)) and not isinstance(k, (bool, _np.bool_)))):
            raise Unfusable("advanced indexing")


class Proxy:
    """A traced value. ``param``: the argument index when this proxy is an array argument,
    whose in-place updates are written back."""

    __slots__ = ("_tracer", "_node", "_param")
    __array_ufunc__ = None  # NumPy scalars on the left defer to the reflected operators
    __copper_fusion_proxy__ = True

    def __init__(self, tracer, node, param=None):
        self._tracer = tracer
        self._node = node
        self._param = param

    dtype = property(lambda self: self._node.dtype)
    shape = property(lambda self: self._node.shape)
    ndim = property(lambda self: len(self._node.shape))
    size = property(lambda self: int(_np.prod(self._node.shape, dtype=_np.int64)))

    def __repr__(self):
        return f"<copper.fuse traced array {self.dtype} {self.shape}>"

    def __bool__(self):
        raise BranchError(_BRANCH_MESSAGE)

    __int__ = __float__ = __complex__ = __index__ = __bool__

    def __len__(self):
        if not self._node.shape:
            raise TypeError("len() of unsized object")
        return self._node.shape[0]

    def __iter__(self):
        raise Unfusable("iteration over a traced array")

    def _apply(self, name, operands, out=None):
        tracer = self._tracer
        nodes = [tracer.operand(o) for o in operands]
        return Proxy(tracer, ufunc_node(tracer, name, nodes, None if out is None else out._node))

    def _inplace(self, name, other):
        if self._node.op == INPUT and self._node.scalar:
            return self._apply(name, (self, other))  # scalars are immutable: a new value, as in Python
        assign(self, ufunc_node(self._tracer, name, [self._node, self._tracer.operand(other)], self._node))
        return self

    def __neg__(self):
        return self._apply("negative", (self,))

    def __pos__(self):
        return self._apply("positive", (self,))

    def __abs__(self):
        return self._apply("absolute", (self,))

    def __invert__(self):
        return self._apply("invert", (self,))

    def __getitem__(self, key):
        node = self._node
        if node.op != INPUT or node.scalar or node.attr[0][0] != "arg":
            raise Unfusable("indexing a computed value")
        _basic_index(key)
        _, k, indices = node.attr[0]
        if k in self._tracer.writes:
            raise Unfusable("indexing a parameter written in place")
        view = _np.broadcast_to(_np.empty((), node.dtype), node.shape)[key]  # NumPy's shape and IndexError
        self._tracer.viewed.add(k)
        return Proxy(self._tracer, self._tracer.input(("arg", k, indices + (key,)), node.dtype, view.shape, False))

    def __setitem__(self, key, value):
        if self._param is None or not _full_key(key):
            raise Unfusable("assignment to part of an array")
        src = self._tracer.operand(value)
        if broadcast([src.shape, self.shape]) != self.shape:
            raise Unfusable("assignment shape mismatch")
        assign(self, Node(CAST, self.dtype, self.shape, (src,)))

    def astype(self, dtype, order="K", casting=None, subok=None, copy=True):
        return Proxy(self._tracer, Node(CAST, _np.dtype(dtype), self.shape, (self._node,)))

    def copy(self, order="C"):
        return Proxy(self._tracer, Node(CAST, self.dtype, self.shape, (self._node,)))

    def sum(self, axis=None, dtype=None, out=None, keepdims=False):
        return reduce_proxy("sum", self, axis, dtype, out, keepdims)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False):
        return reduce_proxy("prod", self, axis, dtype, out, keepdims)

    def max(self, axis=None, out=None, keepdims=False):
        return reduce_proxy("max", self, axis, None, out, keepdims)

    def min(self, axis=None, out=None, keepdims=False):
        return reduce_proxy("min", self, axis, None, out, keepdims)

    def all(self, axis=None, out=None, keepdims=False):
        return reduce_proxy("all", self, axis, None, out, keepdims)

    def any(self, axis=None, out=None, keepdims=False):
        return reduce_proxy("any", self, axis, None, out, keepdims)


def _binary(name):
    return (lambda self, other: self._apply(name, (self, other)),
            lambda self, other: self._apply(name, (other, self)),
            lambda self, other: self._inplace(name, other))


for _op, _name in _BINARY.items():
    _f, _r, _i = _binary(_name)
    setattr(Proxy, f"__{_op}__", _f)
    setattr(Proxy, f"__r{_op}__", _r)
    setattr(Proxy, f"__i{_op}__", _i)
def _pow(self, other):
    # As copper's (and NumPy's) `**`: a Python-scalar exponent of 2 on a float array is square().
    if self.dtype.kind == "f" and type(other) in (int, float) and other == 2:
        return self._apply("square", (self,))
    return self._apply("power", (self, other))


Proxy.__pow__ = _pow
for _op, _name in _COMPARE.items():
    setattr(Proxy, f"__{_op}__", (lambda n: lambda self, other: self._apply(n, (self, other)))(_name))
Proxy.__hash__ = None


def assign(proxy, node):
    """``proxy`` now holds ``node``: a parameter's final value is written back by the kernel."""
    if proxy._param is None and proxy._node.op == INPUT and not proxy._node.scalar:
        raise Unfusable("an in-place update of a view")  # eager writes through it into the parameter
    if proxy._param is not None:
        if proxy._param in proxy._tracer.viewed:
            raise Unfusable("a parameter written in place and read through an index")
        proxy._tracer.writes[proxy._param] = node
    proxy._node = node


def _axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    try:
        return tuple(_np.lib.array_utils.normalize_axis_tuple(tuple(int(a) for a in axes), ndim))
    except Exception as e:
        raise Unfusable(str(e)) from None


def reduce_proxy(kind, x, axis, dtype, out, keepdims):
    tracer = x._tracer if isinstance(x, Proxy) else None
    if tracer is None or out is not None:
        raise Unfusable("a reduction with out= or of a constant")
    src = x._node
    axes = _axes(axis, len(src.shape))
    if kind in ("max", "min") and any(src.shape[a] == 0 for a in axes):
        raise Unfusable("an empty reduction without identity")  # eager raises NumPy's ValueError
    if kind in ("sum", "prod", "nansum", "nanprod"):
        sample = getattr(_core, kind)(_core.zeros((1,), src.dtype), dtype=dtype)
        rdtype = _np.dtype(sample.dtype)
    elif kind in ("all", "any"):
        if src.dtype.kind == "c":
            raise Unfusable("all/any of complex values")
        rdtype = _np.dtype(bool)
    else:
        rdtype = src.dtype
    shape = tuple((1 if a in axes else n) for a, n in enumerate(src.shape) if keepdims or a not in axes)
    tracer.reductions += 1
    acc = accumulator_dtype(kind, rdtype)
    return Proxy(tracer, Node(REDUCE, rdtype, shape, (src,), attr=(kind, axes, bool(keepdims), acc)))


def where_proxy(condition, x, y):
    tracer = next(a._tracer for a in (condition, x, y) if isinstance(a, Proxy))
    nodes = [tracer.operand(a) for a in (condition, x, y)]
    dtype = _np.dtype(_core.where(_core.empty((0,), bool), *[_sample(n) for n in nodes[1:]]).dtype)
    return Proxy(tracer, Node(WHERE, dtype, broadcast([n.shape for n in nodes]), nodes))


def dispatch_ufunc(ufunc, args, kwargs):
    """The ufunc hook: ``copper.<ufunc>(...)`` called with a proxy."""
    name = ufunc.__name__
    out = kwargs.pop("out", None)
    if isinstance(out, tuple):
        out = out[0] if len(out) == 1 else None
    if kwargs or len(args) != ufunc.nin:
        raise Unfusable(f"{name} with keywords {sorted(kwargs)}")
    proxy = next(a for a in list(args) + [out] if isinstance(a, Proxy))
    if out is None:
        return proxy._apply(name, args)
    if not isinstance(out, Proxy):
        raise Unfusable("out= a constant array")
    tracer = out._tracer
    assign(out, ufunc_node(tracer, name, [tracer.operand(a) for a in args], out._node))
    return out


_core._set_fusion_tracer(Proxy, dispatch_ufunc)
atexit.register(_core._set_fusion_tracer, None, None)


def _traced_first(fn, handler):
    """``fn`` (a copper reduction) answering a proxy first argument with ``handler``; one
    type check, so copper's own calls stay cheap."""
    @functools.wraps(fn)
    def wrapper(a, *args, **kwargs):
        if type(a) is Proxy:
            return handler(a, *args, **kwargs)
        return fn(a, *args, **kwargs)
    return wrapper


def _traced_three(fn, handler):
    """``fn`` (where, clip) answering a proxy in any of its three operands with ``handler``."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        n = len(args)
        if (n and type(args[0]) is Proxy) or (n > 1 and type(args[1]) is Proxy) or (n > 2 and type(args[2]) is Proxy):
            return handler(*args, **kwargs)
        return fn(*args, **kwargs)
    return wrapper


def _reduction(kind, with_dtype):
    """The traced form of ``copper.<kind>``: NumPy's (a, axis, [dtype,] out, keepdims)."""
    if with_dtype:
        def traced(a, axis=None, dtype=None, out=None, keepdims=False):
            return reduce_proxy(kind, a, axis, dtype, out, keepdims)
    else:
        def traced(a, axis=None, out=None, keepdims=False):
            return reduce_proxy(kind, a, axis, None, out, keepdims)
    return traced


def _clip(a, a_min=None, a_max=None, out=None, **kwargs):
    if a_min is None or a_max is None or out is not None or kwargs:
        raise Unfusable("clip with a missing bound or keywords")
    return a._apply("clip", (a, a_min, a_max))


def _where(condition, x=None, y=None):
    if x is None or y is None:
        raise Unfusable("where with one argument")
    return where_proxy(condition, x, y)


def traced_functions(namespace):
    """Replacements for copper's non-ufunc functions that a fused function may call."""
    handlers = {"sum": _reduction("sum", True), "prod": _reduction("prod", True),
                "nansum": _reduction("nansum", True), "nanprod": _reduction("nanprod", True),
                "max": _reduction("max", False), "amax": _reduction("max", False),
                "min": _reduction("min", False), "amin": _reduction("min", False),
                "all": _reduction("all", False), "any": _reduction("any", False),
                "where": _where, "clip": _clip}
    return {name: (_traced_three if name in ("where", "clip") else _traced_first)(namespace[name], h)
            for name, h in handlers.items() if name in namespace}
