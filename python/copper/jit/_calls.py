"""Calls inside a translated function: casts (int, numpy.float32, ...), Python builtins
(abs, min, max, len), math and NumPy functions, the jit intrinsics (thread indices,
shared memory, atomics, warp shuffles and votes) and calls of other Python functions,
which become __device__ functions specialised on their argument types."""
import builtins
import math
import types

import numpy as np

from copper.jit import _intrinsics as I
from copper.jit._translate import _FLOAT_FUNCS, _FLOAT_FUNCS2, _PREDICATES, _ATOMIC_TYPES, _error
from copper.jit._types import ArrayT, dname, BOOL, FLOAT64, INT32, INT64, OBJECT, TUPLE, UINT32, Val, c_name, cast, \
    promote

_NUMPY_NAMED = set(_FLOAT_FUNCS) | set(_FLOAT_FUNCS2) | _PREDICATES | {
    "abs", "absolute", "minimum", "maximum", "square", "negative", "where", "sign"}


def _args(tr, node, names, optional=()):
    """Positional and keyword arguments of a call by parameter name (ast nodes)."""
    if len(node.args) > len(names):
        raise tr.type_error(node, f"expected at most {len(names)} arguments")
    got = dict(zip(names, node.args))
    for kw in node.keywords:
        if kw.arg not in names or kw.arg in got:
            raise tr.type_error(node, f"unexpected keyword argument {kw.arg!r}")
        got[kw.arg] = kw.value
    for n in names:
        if n not in got and n not in optional:
            raise tr.type_error(node, f"missing argument {n!r}")
    return got


def _scalars(tr, node):
    if node.keywords:
        raise tr.type_error(node, "keyword arguments are not accepted here")
    return [tr.scalar(tr.expr(a), a) for a in node.args]


def _const_int(tr, v, node, what):
    if v.is_scalar and v.is_lit and isinstance(v.const, int):
        return v.const
    if v.is_scalar and isinstance(v.const, np.integer):
        return int(v.const)
    raise tr.type_error(node, f"{what} must be an integer known when the kernel is translated")


def _is_numpy_function(obj):
    name = getattr(obj, "__name__", None)
    if name not in _NUMPY_NAMED:
        return False
    if isinstance(obj, np.ufunc):
        return True
    module = getattr(obj, "__module__", None) or type(obj).__module__ or ""
    return module.split(".")[0] in ("numpy", "copper")


def call(tr, obj, node):
    if isinstance(obj, I.Intrinsic):
        return _intrinsic(tr, obj, node)
    if obj is builtins.range:
        raise tr.unsupported(node, "range() outside a for loop")
    if obj in (builtins.int, builtins.float, builtins.bool) or (
            isinstance(obj, type) and issubclass(obj, np.generic)):
        (v,) = _scalars(tr, node)
        dt = np.dtype({builtins.int: "int64", builtins.float: "float64", builtins.bool: "bool"}.get(obj, obj))
        c_name(dt)
        if v.is_lit:
            return tr.const_val(dt.type(v.const), node) if obj not in (int, float, bool) else \
                tr.const_val(obj(v.const), node)
        weak = tr.python_math and obj in (int, float, bool)  # a Python number again (NEP 50: weak)
        if dt == BOOL:
            return Val(f"({v.code} != 0)", BOOL, weak)
        return Val(cast(v, dt), dt, weak)
    if obj is builtins.len:
        (a,) = node.args
        arr = tr.expr(a)
        if not isinstance(arr.type, ArrayT):
            raise tr.type_error(node, "len() needs an array")
        return tr.dim(arr, 0)
    if obj in (builtins.abs, builtins.min, builtins.max, builtins.pow):
        return _builtin_math(tr, obj, node)
    if getattr(math, getattr(obj, "__name__", ""), None) is obj and callable(obj):
        return _math(tr, obj.__name__, _scalars(tr, node), node, python=tr.python_math)
    if _is_numpy_function(obj):
        return _math(tr, obj.__name__, _scalars(tr, node), node, python=False)
    target = getattr(obj, "_jit_device_function", None) or (obj if isinstance(obj, types.FunctionType) else None)
    if target is not None:
        return _device_call(tr, target, node)
    raise tr.unsupported(node, f"a call of {obj!r}")


def _builtin_math(tr, obj, node):
    vals = _scalars(tr, node)
    if obj is builtins.pow:
        if len(vals) != 2:
            raise tr.unsupported(node, "pow() with other than two arguments")
        import ast
        return tr.binop(ast.Pow(), vals[0], vals[1], node)
    if obj is builtins.abs:
        return _math(tr, "abs", vals, node, python=True)
    if len(vals) < 2:
        raise tr.unsupported(node, f"{obj.__name__}() of fewer than two numbers")
    out = vals[0]
    for v in vals[1:]:
        if out.is_lit and v.is_lit:
            out = tr.const_val(obj(out.const, v.const), node)
            continue
        dt = promote(out, v)
        out = Val(f"_jit_{obj.__name__}({cast(out, dt)}, {cast(v, dt)})", dt)
    return out


def _math(tr, name, vals, node, python):
    """math.NAME / numpy.NAME on scalars. python: Python's math (float64 results; floor, ceil
    and trunc give int64); else NumPy's ufunc rules (float32 stays float32)."""
    if all(v.is_lit for v in vals) and vals:
        fn = getattr(math, name, None) or getattr(np, name)
        try:
            return tr.const_val(fn(*[v.const for v in vals]), node)
        except (ValueError, OverflowError, ZeroDivisionError):
            pass
    n = len(vals)
    if name in ("abs", "absolute"):
        (v,) = vals
        if v.type.kind in "iub":
            return Val(f"_jit_abs({cast(v, v.type)})", v.type) if v.type.kind != "b" else v
        return tr.wrap(tr.float_call("fabs", [v], v.type), v.type)
    if name in ("minimum", "maximum"):
        dt = promote(*vals)
        return Val(f"_jit_{name}({cast(vals[0], dt)}, {cast(vals[1], dt)})", dt)
    if name == "square":
        (v,) = vals
        return tr.wrap(f"({cast(v, v.type)} * {cast(v, v.type)})", v.type)
    if name == "negative":
        return tr.wrap(f"(-{vals[0].code})", vals[0].type)
    if name == "sign":
        (v,) = vals
        dt = v.type
        return Val(f"(({c_name(dt)})(({v.code} > 0) - ({v.code} < 0)))", dt)
    if name == "where":
        c = vals[0]
        dt = promote(vals[1], vals[2])
        return Val(f"({c.code} ? {cast(vals[1], dt)} : {cast(vals[2], dt)})", dt)
    if name in _PREDICATES:
        (v,) = vals
        if v.type.kind in "iub":
            return tr.const_val(name == "isfinite", node)
        ct = np.dtype("float32") if v.type.itemsize <= 4 else FLOAT64
        return Val(f"(bool){name}({cast(v, ct)})", BOOL)
    if name == "log" and n == 2:
        a, b = (_math(tr, "log", [v], node, python) for v in vals)
        return tr.binop(__import__("ast").Div(), a, b, node)
    if name in ("degrees", "radians"):
        (v,) = vals
        dt = _float_result(vals[0].type, python)
        factor = 180.0 / math.pi if name == "degrees" else math.pi / 180.0
        return tr.wrap(f"({cast(v, dt)} * {cast(tr.const_val(factor, node), dt)})", dt)
    if (n == 1 and name in _FLOAT_FUNCS) or (n == 2 and name in _FLOAT_FUNCS2):
        dt = promote(*vals) if n == 2 else vals[0].type
        out = _float_result(dt, python)
        if python and name in ("floor", "ceil", "trunc"):
            return Val(f"((long long){tr.float_call(name, vals, out)})", INT64, True)
        result = tr.wrap(tr.float_call(name, vals, out), out)
        result.weak = python  # Python's math returns a Python float
        return result
    raise tr.unsupported(node, f"{name}() with {n} arguments")


def _float_result(dt, python):
    if python or dt.kind in "iub":
        return FLOAT64
    return dt


def _grid(tr, node, size):
    (nv,) = node.args
    n = _const_int(tr, tr.expr(nv), node, "grid()/gridsize() ndim")
    if n not in (1, 2, 3):
        raise _error(ValueError, tr.where(node), "grid()/gridsize() ndim must be 1, 2 or 3")
    fmt = "((long long)blockDim.{0} * gridDim.{0})" if size else \
        "((long long)blockIdx.{0} * blockDim.{0} + threadIdx.{0})"
    vals = [Val(fmt.format(a), INT64, positive=size) for a in "xyz"[:n]]
    return vals[0] if n == 1 else Val(vals, TUPLE)


def _device_only(tr, node, what):
    if not tr.module.device:
        raise tr.unsupported(node, f"{what} outside a GPU kernel (copper.vectorize functions are elementwise)")


def _intrinsic(tr, obj, node):
    _device_only(tr, node, obj.name)
    kind = obj.kind
    if kind in ("grid", "gridsize"):
        return _grid(tr, node, kind == "gridsize")
    if kind == "laneid":
        return Val("_jit_laneid()", UINT32)
    if kind == "syncthreads":
        return Val("__syncthreads()", None)
    if kind == "syncwarp":
        got = _args(tr, node, ["mask"], optional=["mask"])
        mask = cast(tr.scalar(tr.expr(got["mask"]), node), UINT32) if "mask" in got else "0xffffffffu"
        return Val(f"__syncwarp({mask})", None)
    if kind in ("shared_memory", "local_memory", "numba_shared", "numba_local"):
        return _array_decl(tr, obj, node)
    if kind == "atomic":
        return _atomic(tr, obj, node)
    if kind == "shfl":
        got = _args(tr, node, ["mask", "var", "lane", "width"], optional=["width"])
        mask = cast(tr.scalar(tr.expr(got["mask"]), node), UINT32)
        var = tr.scalar(tr.expr(got["var"]), node)
        dt = var.type
        if dname(dt) not in ("int32", "uint32", "int64", "uint64", "float32", "float64"):
            raise tr.type_error(node, f"{obj.name} does not take {dt}")
        lane = cast(tr.scalar(tr.expr(got["lane"]), node), INT32)
        width = cast(tr.scalar(tr.expr(got["width"]), node), INT32) if "width" in got else "32"
        return Val(f"__{obj.name}({mask}, {cast(var, dt)}, {lane}, {width})", dt)
    if kind == "vote":
        got = _args(tr, node, ["mask", "predicate"])
        mask = cast(tr.scalar(tr.expr(got["mask"]), node), UINT32)
        pred = tr.condition(got["predicate"]).code
        if obj.name == "ballot_sync":
            return Val(f"__ballot_sync({mask}, {pred})", UINT32)
        return Val(f"(__{obj.name}({mask}, {pred}) != 0)", BOOL)
    if kind == "warpsize":
        raise tr.type_error(node, "warpsize is a value, not a function")
    raise tr.unsupported(node, f"the intrinsic {obj.name}")


def _array_decl(tr, obj, node):
    if obj.kind in ("numba_shared", "numba_local"):
        got = _args(tr, node, ["shape", "dtype"])
        shape_node, dtype_node = got["shape"], got["dtype"]
    else:
        got = _args(tr, node, ["dtype", "size", "alignment"], optional=["size", "alignment"])
        shape_node, dtype_node = got.get("size"), got["dtype"]
    dt = tr.dtype_of(tr.expr(dtype_node), node)
    shape = None if shape_node is None else tr.expr(shape_node)
    if shape is not None and shape.type is OBJECT and shape.const is None:
        shape = None  # size=None
    dims = None
    if shape is not None:
        items = shape.code if shape.type is TUPLE else [shape]
        dims = tuple(_const_int(tr, v, node, "a shared/local array size") for v in items)
        if dims == (0,) and obj.kind == "numba_shared":
            dims = None
    shared = obj.kind in ("shared_memory", "numba_shared")
    name = tr.temp().replace("_jit_t", "_jit_smem" if shared else "_jit_local")
    ct = c_name(dt)
    if dims is None:
        if not shared:
            raise tr.type_error(node, "a local array needs a size")
        if not any("_jit_dynamic_smem" in h for h in tr.hoisted):
            tr.hoisted.append("  extern __shared__ __align__(16) unsigned char _jit_dynamic_smem[];")
        tr.hoisted.append(f"  {ct}* {name} = reinterpret_cast<{ct}*>(_jit_dynamic_smem);")
        return Val(name, ArrayT(dt, 1, "shared"))
    if any(d <= 0 for d in dims):
        raise _error(ValueError, tr.where(node), f"array sizes must be positive, got {dims}")
    tr.hoisted.append(f"  {'__shared__ ' if shared else ''}{ct} {name}{''.join(f'[{d}]' for d in dims)};")
    return Val(name, ArrayT(dt, len(dims), "shared" if shared else "local", dims))


def _atomic(tr, obj, node):
    op = obj.name.split("_", 1)[1] if obj.name.startswith("atomic_") else obj.name.split(".", 1)[1]
    if op == "compare_and_swap":  # Numba: compare_and_swap(array, old, new) on array[0]
        got = _args(tr, node, ["array", "old", "value"])
        arr = tr.expr(got["array"])
        idx = [Val("0", INT64, True, 0)] * (arr.type.ndim if isinstance(arr.type, ArrayT) else 1)
        op, cmp_node = "cas", got["old"]
    else:
        names = ["array", "index", "cmp", "value"] if op == "cas" else ["array", "index", "value"]
        got = _args(tr, node, names)
        arr = tr.expr(got["array"])
        iv = tr.expr(got["index"])
        idx = iv.code if iv.type is TUPLE else [iv]
        cmp_node = got.get("cmp") or got.get("old")
    if not isinstance(arr.type, ArrayT):
        raise tr.type_error(node, f"{obj.name} needs an array as its first argument")
    dt = arr.type.dtype
    if dname(dt) not in _ATOMIC_TYPES[op]:
        raise tr.type_error(node, f"{obj.name} does not support {dt} (CUDA has it for "
                                  f"{', '.join(sorted(_ATOMIC_TYPES[op]))})")
    elem = "&(" + tr.element(arr, idx, node).code + ")"
    value = cast(tr.scalar(tr.expr(got["value"]), node), dt)
    i64 = dname(dt) == "int64"
    if op == "cas":
        cmp = cast(tr.scalar(tr.expr(cmp_node), node), dt)
        fn = "_jit_atomic_cas_i64" if i64 else "atomicCAS"
        return Val(f"{fn}({elem}, {cmp}, {value})", dt)
    if op == "sub" and dname(dt) not in ("int32", "uint32"):
        op, value = "add", f"({c_name(dt)})(-{value})" if dt.kind != "u" else f"(0ULL - {value})"
    if i64 and op in ("add", "exch", "and", "or", "xor"):
        return Val(f"_jit_atomic_{op}_i64({elem}, {value})", dt)
    if dt.kind == "f" and op in ("min", "max"):
        return Val(f"_jit_atomic_{op}_f{dt.itemsize * 8}({elem}, {value})", dt)
    if dname(dt) == "float64" and op == "exch":
        return Val(f"_jit_atomic_exch_f64({elem}, {value})", dt)
    return Val(f"atomic{op.capitalize()}({elem}, {value})", dt)


def _device_call(tr, func, node):
    """A call of another Python function: a __device__ function per argument signature."""
    if node.keywords:
        raise tr.unsupported(node, "keyword arguments in a device function call")
    vals = []
    for a in node.args:
        v = tr.expr(a)
        if v.is_scalar and v.weak:
            v = Val(cast(v, v.type), v.type)
        elif not (v.is_scalar or (isinstance(v.type, ArrayT) and v.type.layout in ("c", "strided"))):
            raise tr.type_error(a, "device functions take numbers and kernel-argument arrays")
        vals.append(v)
    from copper.jit._translate import translate
    tr.module.recorder.cacheable = False  # the callee's source is not part of the cache key
    key = (func, tuple(_type_key(v.type) for v in vals))
    entry = tr.module.device_funcs.get(key)
    if entry is None:
        if any(k[0] is func for k in tr.module.device_funcs if tr.module.device_funcs[k] is None):
            raise tr.unsupported(node, f"the recursive call of {func.__name__}")
        tr.module.device_funcs[key] = None
        params = [Val(f"_p{k}", v.type) for k, v in enumerate(vals)]
        probe = translate(func, tr.module, params, tr.python_math, device_function=True)[0]
        rets = probe.return_types
        if any(not r.is_scalar for r in rets):
            raise tr.type_error(node, f"{func.__name__} must return numbers")
        rdt = np.result_type(*(r.type for r in rets)) if rets else None
        _, plist, lines = translate(func, tr.module, params, tr.python_math, rdt, device_function=True)
        cname = f"_jit_dev_{func.__name__}_{len(tr.module.device_funcs)}"
        tr.module.functions.append(
            f"__device__ {c_name(rdt) if rdt is not None else 'void'} {cname}({', '.join(plist)}) {{\n"
            + "\n".join(lines) + "\n}\n")
        entry = tr.module.device_funcs[key] = (cname, rdt)
    cname, rdt = entry
    args = []
    for v in vals:
        if isinstance(v.type, ArrayT):
            args.append(v.code)
            args += [f"{v.code}__s{d}" for d in range(v.type.ndim)]
            if v.type.layout == "strided":
                args += [f"{v.code}__st{d}" for d in range(v.type.ndim)]
        else:
            args.append(v.code)
    return Val(f"{cname}({', '.join(args)})", rdt)


def _type_key(t):
    if isinstance(t, ArrayT):
        return ("array", t.dtype.str, t.ndim, t.layout)
    return t.str
