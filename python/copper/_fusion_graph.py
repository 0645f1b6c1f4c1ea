"""The expression graph that copper.fuse records (and that automatic fusion will record):
nodes of elementwise work over kernel inputs, with at most reductions on top. Shapes and
dtypes are resolved when a node is made, so the code generator only spells them."""
import numpy as _np

# Kernel inputs: a parameter of the fused function, a basic-indexing view of one (applied
# when the kernel runs), or a constant of the traced code (a kernel scalar parameter, so the
# generated source does not depend on its value).
INPUT, UFUNC, CAST, WHERE, REDUCE = "input", "ufunc", "cast", "where", "reduce"

# Python scalars are weak (NEP 50): the dtype a kernel parameter holds them in.
_WEAK_DTYPES = {bool: _np.dtype(bool), int: _np.dtype("int64"), float: _np.dtype("float64"),
                complex: _np.dtype("complex128")}


class Unfusable(Exception):
    """Raised while tracing when the function is valid but not one kernel: copper.fuse runs it eagerly."""


class Node:
    """One value of the graph. ``args`` are Nodes; ``attr`` depends on ``op``:
    input: (source, index) with source ('arg', k, indices) or ('const', value);
    ufunc: (functor name, loop input dtypes, loop output dtype, copper ufunc name);
    cast: None; where: None; reduce: (kind, axes, keepdims, accumulator dtype)."""

    __slots__ = ("op", "dtype", "shape", "args", "attr", "weak")

    def __init__(self, op, dtype, shape, args=(), attr=None, weak=None):
        self.op = op
        self.dtype = _np.dtype(dtype)
        self.shape = tuple(shape)
        self.args = tuple(args)
        self.attr = attr
        self.weak = weak  # the Python type of a weak scalar input, else None

    @property
    def is_scalar_input(self):
        return self.op == INPUT and self.scalar

    @property
    def scalar(self):
        """Whether this input is passed by value (a scalar), not as an array."""
        return self.op == INPUT and self.attr[1]


def weak_dtype(value):
    """The kernel dtype of a Python scalar, or raise Unfusable (ints beyond 64 bits)."""
    t = type(value)
    if t is int and not -(1 << 63) <= value < (1 << 64):
        raise Unfusable("a Python int beyond 64 bits")
    if t is int and value >= (1 << 63):
        return _np.dtype("uint64")
    return _WEAK_DTYPES[t]


def python_scalar_type(value):
    """int/float/complex/bool for Python scalars (weak under NEP 50), else None."""
    t = type(value)
    return t if t in _WEAK_DTYPES else None


def topological(outputs, leaves=()):
    """Nodes reachable from ``outputs``, each after its arguments; ``leaves`` are not entered."""
    order, seen = [], {id(n) for n in leaves}
    stack = [(n, False) for n in reversed(outputs)]
    while stack:
        node, ready = stack.pop()
        if ready:
            order.append(node)
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.append((node, True))
        stack.extend((a, False) for a in reversed(node.args) if id(a) not in seen)
    return order


def inputs_of(nodes):
    """The input nodes among ``nodes``, in order."""
    return [n for n in nodes if n.op == INPUT]
