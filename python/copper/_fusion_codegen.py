"""Kernel source from a fusion graph (copper._fusion_graph): one ElementwiseKernel for
elementwise work, one ReductionKernel for a reduction with the elementwise work that
feeds it (premap) and that consumes its result (postmap). Every op is the built-in
ufunc's own functor (copper::ops::invoke<Op, R>, with ops::cast between loop types), so
fused results are the eager ones bit for bit; kernels are cached by their source, which
depends on the graph's structure and dtypes, never on scalar values."""
import atexit
import threading

import numpy as _np

from copper import _core
from copper._fusion_graph import INPUT, UFUNC, CAST, WHERE, Unfusable, topological

# The C++ type copper's op functors compute on, per dtype.
_OPS_TYPES = {
    "bool": "bool", "int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t", "uint16": "uint16_t",
    "int32": "int32_t", "uint32": "uint32_t", "int64": "int64_t", "uint64": "uint64_t",
    "float16": "copper::ops::half", "float32": "float", "float64": "double",
    "complex64": "copper::ops::complex<float>", "complex128": "copper::ops::complex<double>",
}
# NumPy's ufunc names whose functor has another name.
_FUNCTOR_ALIASES = {"divide": "true_divide", "abs": "absolute", "conj": "conjugate", "bitwise_not": "invert",
                    "bitwise_invert": "invert", "mod": "remainder", "pow": "power", "acos": "arccos",
                    "asin": "arcsin", "atan": "arctan", "acosh": "arccosh", "asinh": "arcsinh", "atanh": "arctanh",
                    "atan2": "arctan2", "bitwise_left_shift": "left_shift", "bitwise_right_shift": "right_shift"}


def ops_type(dtype):
    return _OPS_TYPES[_np.dtype(dtype).name]


def functor_name(ufunc_name):
    return _FUNCTOR_ALIASES.get(ufunc_name, ufunc_name)


def _load(node, name):
    """The statement's right side that reads kernel parameter ``name`` as the op type."""
    kind = node.dtype.kind
    if node.dtype == _np.float16:
        return f"copper::ops::half{{{name}.bits}}"
    if kind == "c":
        return f"{name}.ops()"
    return name


def _store(dtype, name, value):
    """The statement that writes op-typed ``value`` (already of ``dtype``) to parameter ``name``."""
    if _np.dtype(dtype) == _np.float16:
        return f"{name}.bits = {value}.bits;"
    return f"{name} = {value};"


def _cast(to, src_dtype, value):
    if _np.dtype(to) == _np.dtype(src_dtype):
        return value
    return f"copper::ops::cast<{ops_type(to)}>({value})"


class _Body:
    """Statements computing nodes into locals ``_fN`` (op types), reading inputs by name."""

    def __init__(self, names):
        self.names = names  # id(input node) -> parameter name
        self.lines = []
        self.var = {}

    def value(self, node):
        return self.var[id(node)]

    def emit(self, nodes):
        for node in nodes:
            if id(node) in self.var:
                continue
            self.var[id(node)] = v = f"_f{len(self.var)}"
            self.lines.append(f"const {ops_type(node.dtype)} {v} = {self._expr(node)};")

    def _expr(self, node):
        if node.op == INPUT:
            return _load(node, self.names[id(node)])
        if node.op == CAST:
            (a,) = node.args
            return _cast(node.dtype, a.dtype, self.value(a))
        if node.op == WHERE:
            c, a, b = node.args
            return (f"{_cast(bool, c.dtype, self.value(c))} ? {_cast(node.dtype, a.dtype, self.value(a))} : "
                    f"{_cast(node.dtype, b.dtype, self.value(b))}")
        if node.op == UFUNC:
            functor, loop_in, loop_out = node.attr[:3]
            args = ", ".join(_cast(t, a.dtype, self.value(a)) for t, a in zip(loop_in, node.args))
            call = f"copper::ops::invoke<copper::ops::{functor}, {ops_type(loop_out)}>({args})"
            return _cast(node.dtype, loop_out, call)
        raise Unfusable(f"no code for a {node.op} node")


def _param(dtype, name):
    return f"{_np.dtype(dtype).name} {name}"


def _kernel_name(name):
    clean = "".join(c if c.isalnum() or c == "_" else "_" for c in name)
    return "fused_" + clean.strip("_")


_cache = {}
_cache_lock = threading.Lock()
atexit.register(_cache.clear)  # kernels are nanobind objects: free them before copper._core goes


def _kernel(cls, key, *args, **kwargs):
    """One kernel object per source: copper's memo and compile caches then work across traces."""
    with _cache_lock:
        k = _cache.get(key)
        if k is None:
            k = _cache[key] = cls(*args, **kwargs)
        return k


def _input_names(inputs):
    """Parameter names for the kernel inputs: arrays ``inK``, scalars ``sK``."""
    return {id(n): ("s" if n.scalar else "in") + str(k) for k, n in enumerate(inputs)}


def elementwise_kernel(inputs, outputs, name):
    """An ElementwiseKernel reading ``inputs`` (input nodes, in kernel argument order) and
    writing one parameter per node of ``outputs``; its arguments are the inputs' values,
    then one array per output."""
    from copper._kernels import ElementwiseKernel
    names = _input_names(inputs)
    body = _Body(names)
    body.emit(topological(list(outputs)))
    outs = [f"out{k}" for k in range(len(outputs))]
    stores = [_store(n.dtype, o, body.value(n)) for n, o in zip(outputs, outs)]
    in_params = ", ".join(_param(n.dtype, names[id(n)]) for n in inputs)
    out_params = ", ".join(_param(n.dtype, o) for n, o in zip(outputs, outs))
    operation = "\n".join(body.lines + stores)
    kname = _kernel_name(name)
    return _kernel(ElementwiseKernel, ("E", in_params, out_params, operation, kname), in_params, out_params,
                   operation, kname, preamble=_core._fusion_ops_source())


# Per reduction kind: the functor combining two accumulators (None: logical), identity.
_REDUCERS = {"sum": ("add", "0"), "prod": ("multiply", "1"), "max": ("maximum", None), "min": ("minimum", None),
             "all": (None, "true"), "any": (None, "false"), "nansum": ("add", "0"), "nanprod": ("multiply", "1")}


def accumulator_dtype(kind, dtype):
    """What a reduction accumulates in: its result dtype, float16 widened to float32."""
    if kind in ("all", "any"):
        return _np.dtype(bool)
    return _np.dtype("float32") if _np.dtype(dtype) == _np.float16 else _np.dtype(dtype)


def _map_value(kind, src, acc, value):
    """The premap's last step: the reduced input as the accumulator type."""
    if kind in ("nansum", "nanprod") and src.dtype.kind in "fc":
        neutral = "0" if kind == "nansum" else "1"
        isnan = f"copper::ops::invoke<copper::ops::isnan, bool>({value})"
        return f"({isnan} ? {ops_type(acc)}({neutral}) : {_cast(acc, src.dtype, value)})"
    return _cast(acc, src.dtype, value)


def reduction_kernel(inputs, reduce_node, output, name):
    """A ReductionKernel for ``output``: elementwise work of the ``reduce_node`` (one
    reduction of elementwise work over ``inputs``) and of scalar inputs. Arguments: the
    inputs' values; ``axis``/``keepdims`` are the reduce node's."""
    from copper._kernels import ReductionKernel
    kind, _axes, _keepdims, acc = reduce_node.attr
    (src,) = reduce_node.args
    names = _input_names(inputs)
    acc_t = ops_type(acc)
    params = ", ".join(f"{_fn_param_type(n)} {names[id(n)]}" for n in inputs)
    pre = _Body(names)
    pre.emit(topological([src]))
    mapped = _map_value(kind, src, acc, pre.value(src))
    map_fn = (f"__device__ inline {acc_t} _fused_map({params}) {{\n  " + "\n  ".join(pre.lines) +
              f"\n  return {mapped};\n}}\n")
    scalars = [n for n in inputs if n.scalar]  # array inputs are out of scope after the loop
    post_params = "".join(f", {_fn_param_type(n)} {names[id(n)]}" for n in scalars)
    post_args = "".join(", " + names[id(n)] for n in scalars)
    post = _Body(names)
    post.var[id(reduce_node)] = "_r"
    post.emit([n for n in topological([output], leaves=[reduce_node]) if n is not reduce_node])
    result = post.value(output)
    post_fn = (f"__device__ inline {ops_type(output.dtype)} _fused_post({acc_t} _acc{post_params}) {{\n"
               f"  const {ops_type(reduce_node.dtype)} _r = {_cast(reduce_node.dtype, acc, '_acc')};\n  " +
               "\n  ".join(post.lines) + f"\n  return {result};\n}}\n")
    functor, identity = _REDUCERS[kind]
    if functor is None:
        reduce_expr = "a && b" if kind == "all" else "a || b"
    else:
        reduce_expr = f"copper::ops::invoke<copper::ops::{functor}, {acc_t}>(a, b)"
    call_args = ", ".join(names[id(n)] for n in inputs)
    in_params = ", ".join(_param(n.dtype, names[id(n)]) for n in inputs)
    out_params = _param(output.dtype, "out0")
    map_expr = f"_fused_map({call_args})"
    post_map = _store(output.dtype, "out0", f"_fused_post(a{post_args})")
    if output.dtype == _np.float16:  # _store names a member of the value: bind it first
        post_map = f"{{ const copper::ops::half _h = _fused_post(a{post_args}); out0.bits = _h.bits; }}"
    preamble = _core._fusion_ops_source() + map_fn + post_fn
    kname = _kernel_name(name)
    key = ("R", in_params, out_params, map_expr, reduce_expr, post_map, identity, kname, acc_t, preamble)
    return _kernel(ReductionKernel, key, in_params, out_params, map_expr, reduce_expr, post_map, identity, kname,
                   reduce_type=acc_t, preamble=preamble)


def _fn_param_type(node):
    """A kernel parameter's C++ type as a helper function takes it (CuPy's spellings)."""
    dt = node.dtype
    if dt == _np.float16:
        return "float16"
    if dt.kind == "c":
        return "complex<float>" if dt == _np.complex64 else "complex<double>"
    return {"b": "bool"}.get(dt.kind, ops_type(dt))
