"""Python function -> CUDA C++ source: the AST of the function (inspect + ast) is walked
once per argument signature; every expression gets NumPy's dtype (literals weak, as NEP 50)
and every construct it cannot translate raises naming the Python file and line.

Locals are function-scoped as in Python: one first assigned inside a block is declared at
the top of the C++ function; a local keeps the type of its first assignment."""
import ast
import builtins
import inspect
import math
import textwrap

import numpy as np

from copper.jit import _cache
from copper.jit import _intrinsics as I
from copper.jit._types import (ArrayT, dname, BOOL, FLOAT64, INT32, INT64, OBJECT, TUPLE, UINT32, Val, c_name, cast,
                               literal, promote, promote_all)

_CPP_KEYWORDS = set("""alignas alignof and and_eq asm auto bitand bitor bool break case catch char char16_t char32_t
class compl const constexpr const_cast continue decltype default delete do double dynamic_cast else enum explicit
export extern false float for friend goto if inline int long mutable namespace new noexcept not not_eq nullptr
operator or or_eq private protected public register reinterpret_cast return short signed sizeof static
static_assert static_cast struct switch template this thread_local throw true try typedef typeid typename union
unsigned using virtual void volatile wchar_t while xor xor_eq threadIdx blockIdx blockDim gridDim warpSize
float16 complex min max abs isnan isinf isfinite fmod fmodf powf floorf copysign copysignf""".split())
_CPP_KEYWORDS |= {n + s for n in ("sqrt", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh",
                                  "tanh", "asinh", "acosh", "atanh", "exp", "expm1", "exp2", "log", "log2", "log10",
                                  "log1p", "fabs", "floor", "ceil", "trunc", "erf", "erfc", "tgamma", "lgamma",
                                  "cbrt", "rint", "hypot", "pow") for s in ("", "f")}
_CPP_KEYWORDS |= {"atomic" + op for op in ("Add", "Sub", "Exch", "Min", "Max", "Inc", "Dec", "CAS", "And", "Or",
                                           "Xor")}

# math / numpy functions of one or two floats: C name for double (float adds 'f').
_FLOAT_FUNCS = {
    "sqrt": "sqrt", "sin": "sin", "cos": "cos", "tan": "tan", "asin": "asin", "acos": "acos", "atan": "atan",
    "sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "asinh": "asinh", "acosh": "acosh", "atanh": "atanh",
    "exp": "exp", "expm1": "expm1", "exp2": "exp2", "log": "log", "log2": "log2", "log10": "log10",
    "log1p": "log1p", "fabs": "fabs", "floor": "floor", "ceil": "ceil", "trunc": "trunc", "erf": "erf",
    "erfc": "erfc", "gamma": "tgamma", "lgamma": "lgamma", "cbrt": "cbrt", "rint": "rint",
    "arcsin": "asin", "arccos": "acos", "arctan": "atan", "arcsinh": "asinh", "arccosh": "acosh",
    "arctanh": "atanh",
}
_FLOAT_FUNCS2 = {"atan2": "atan2", "arctan2": "atan2", "hypot": "hypot", "copysign": "copysign", "fmod": "fmod",
                 "pow": "pow", "power": "pow"}
_PREDICATES = {"isnan", "isinf", "isfinite"}
_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
           ast.LShift: "<<", ast.RShift: ">>"}
_CMPOPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
_PY_BINOPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
              ast.Div: lambda a, b: a / b, ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b,
              ast.Pow: lambda a, b: a ** b, ast.BitAnd: lambda a, b: a & b, ast.BitOr: lambda a, b: a | b,
              ast.BitXor: lambda a, b: a ^ b, ast.LShift: lambda a, b: a << b, ast.RShift: lambda a, b: a >> b}
_ATOMIC_TYPES = {  # op -> dtypes CUDA has it for (int64 through the helpers in _prelude)
    "add": {"int32", "uint32", "uint64", "int64", "float32", "float64"},
    "sub": {"int32", "uint32", "int64", "uint64", "float32", "float64"},
    "exch": {"int32", "uint32", "uint64", "int64", "float32", "float64"},
    "min": {"int32", "uint32", "int64", "uint64", "float32", "float64"},
    "max": {"int32", "uint32", "int64", "uint64", "float32", "float64"},
    "inc": {"uint32"}, "dec": {"uint32"}, "cas": {"int32", "uint32", "uint64", "int64"},
    "and": {"int32", "uint32", "uint64", "int64"}, "or": {"int32", "uint32", "uint64", "int64"},
    "xor": {"int32", "uint32", "uint64", "int64"},
}


class TranslationError(Exception):
    pass


def _error(cls, where, message):
    return cls(f"{where}: {message}")


_SOURCES = {}  # code object -> (ast.FunctionDef, file, first line): read and parsed once


def function_source(func):
    """(ast.FunctionDef, file name, first line) of a Python function."""
    found = _SOURCES.get(func.__code__)
    if found is None:
        found = _SOURCES[func.__code__] = _read_source(func)
    return found


def _read_source(func):
    try:
        lines, first = inspect.getsourcelines(func)
    except (OSError, TypeError) as e:
        raise ValueError(f"copper.jit needs the source of {func!r}: {e}") from None
    tree = ast.parse(textwrap.dedent("".join(lines)))
    node = tree.body[0]
    if not isinstance(node, ast.FunctionDef):
        raise ValueError(f"copper.jit translates functions defined with def, not {func!r}")
    return node, inspect.getsourcefile(func) or "<unknown>", first


class Module:
    """The functions of one translation unit: device functions before the kernel."""

    def __init__(self, device):
        self.device = device          # True: a GPU kernel (atomics, thread indices allowed)
        self.functions = []           # C++ text of device functions, in dependency order
        self.device_funcs = {}        # (python function, arg signature) -> (C name, return Val type)
        self.recorder = _cache.Recorder()  # the globals read, for the disk cache


def translate(func, module, params, python_math=False, return_dtype=None, device_function=False):
    """Translates `func` for parameter Vals `params`, repeating until every local's type
    (the promotion of all values assigned to it) is stable. Returns the translator, the
    C++ parameter list and the body lines."""
    local_types = {}
    for _ in range(8):
        tr = FunctionTranslator(func, module, python_math, return_dtype, local_types)
        tr.is_device_function = device_function
        plist = tr.bind_params(params)
        lines = tr.body()
        merged = dict(local_types)
        for name, (dt, weak) in tr.assigned.items():
            if name in merged:
                old = merged[name]
                dt, weak = promote(Val("", old[0], old[1]), Val("", dt, weak)), old[1] and weak
            merged[name] = (dt, weak)
        if merged == local_types:
            return tr, plist, lines
        local_types = merged
    raise TypeError(f"{tr.where(tr.node)}: the types of the locals of {func.__name__} do not settle")


class FunctionTranslator:
    """Translates one Python function for one signature.

    params: list of (name, Val) the function receives (arrays, scalars);
    python_math: math.* follows Python (float64 results, floor/ceil/trunc give int64), as
    numpy.vectorize sees it; otherwise NumPy's ufunc rules (float32 stays float32), as CuPy.
    """

    def __init__(self, func, module, python_math=False, return_dtype=None, local_types=None):
        self.func = func
        self.node, self.file, self.first_line = function_source(func)
        self.module = module
        self.python_math = python_math
        self.return_dtype = return_dtype  # known on the second pass of a device function
        self.return_types = []
        self.local_types = local_types or {}  # name -> (dtype, weak) from the previous pass
        self.assigned = {}                    # name -> (dtype, weak): every value assigned, promoted
        self.annotated = set()
        self.vars = {}
        self.lines = []
        self.hoisted = []
        self.depth = 0
        self.temps = 0
        self.c_names = set()
        self.lineno = self.node.lineno
        self.scope = func.__globals__
        if func.__closure__:  # closed-over names shadow globals
            self.scope = dict(func.__globals__)
            self.scope.update(zip(func.__code__.co_freevars, (c.cell_contents for c in func.__closure__)))

    # ---- errors ----
    def where(self, node=None):
        line = getattr(node, "lineno", None) or self.lineno
        return f"{self.file}:{line + self.first_line - 1}"

    def unsupported(self, node, what):
        return _error(NotImplementedError, self.where(node), f"copper.jit cannot translate {what}")

    def type_error(self, node, what):
        return _error(TypeError, self.where(node), what)

    # ---- names ----
    def c_name_for(self, name):
        base = name + "_" if name in _CPP_KEYWORDS or name.startswith("_jit") else name
        out, k = base, 0
        while out in self.c_names:
            k += 1
            out = f"{base}_{k}"
        self.c_names.add(out)
        return out

    def temp(self):
        self.temps += 1
        return f"_jit_t{self.temps}"

    def emit(self, text, node=None):
        self.lines.append("  " * (self.depth + 1) + text)

    # ---- parameters ----
    def bind_params(self, params):
        """params: the Vals the function receives (only their types matter); returns the C++
        parameter list."""
        args = self.node.args
        if args.vararg or args.kwarg or args.kwonlyargs or args.defaults or args.posonlyargs:
            raise self.unsupported(self.node, "default, keyword-only, * or ** parameters")
        names = [a.arg for a in args.args]
        if len(names) != len(params):
            raise TypeError(f"{self.where(self.node)}: {self.node.name}() takes {len(names)} arguments, "
                            f"{len(params)} given")
        out = []
        for name, val in zip(names, params):
            cn = self.c_name_for(name)
            if isinstance(val.type, ArrayT):
                t = val.type
                out.append(f"{c_name(t.dtype)}* {cn}")
                out += [f"long long {cn}__s{d}" for d in range(t.ndim)]
                if t.layout == "strided":
                    out += [f"long long {cn}__st{d}" for d in range(t.ndim)]
                self.vars[name] = Val(cn, t)
            else:
                out.append(f"{c_name(val.type)} {cn}")
                self.vars[name] = Val(cn, val.type)
        return out

    def body(self):
        for stmt in self.node.body:
            self.stmt(stmt)
        return self.hoisted + self.lines

    def record(self, name, value):
        """Notes a value assigned to local `name`: its type is the promotion of them all
        (as Numba unifies), weak while every value is a Python number."""
        if name in self.annotated:
            return
        old = self.assigned.get(name)
        if old is None:
            self.assigned[name] = (value.type, value.weak)
        else:
            merged = promote(Val("", old[0], old[1]), value)
            self.assigned[name] = (merged, old[1] and value.weak)

    # ---- statements ----
    def stmts(self, body):
        self.depth += 1
        for s in body:
            self.stmt(s)
        self.depth -= 1

    def stmt(self, node):
        self.lineno = node.lineno
        method = getattr(self, "stmt_" + type(node).__name__, None)
        if method is None:
            raise self.unsupported(node, f"the statement {type(node).__name__}")
        method(node)

    def stmt_Pass(self, node):
        pass

    def stmt_Break(self, node):
        self.emit("break;")

    def stmt_Continue(self, node):
        self.emit("continue;")

    def stmt_Expr(self, node):
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return  # a docstring
        v = self.expr(node.value)
        if v.type is not OBJECT and v.code:
            self.emit(v.code + ";")

    def stmt_Return(self, node):
        if node.value is None:
            self.emit("return;")
            return
        v = self.expr(node.value)
        if self.module.device and self.return_dtype is None and not self.is_device_function:
            raise self.type_error(node, "a kernel cannot return a value")
        self.return_types.append(v)
        if self.return_dtype is None:
            self.emit("return;")  # first pass: only the types matter
        elif isinstance(self.return_dtype, list):
            if v.type is not TUPLE or len(v.code) != len(self.return_dtype):
                raise self.type_error(node, f"every return must give {len(self.return_dtype)} values")
            for k, (e, dt) in enumerate(zip(v.code, self.return_dtype)):
                self.emit(f"_jit_r{k} = {cast(self.scalar(e, node), dt)};")
            self.emit("return;")
        else:
            self.emit(f"return {cast(self.scalar(v, node), self.return_dtype)};")

    is_device_function = False

    def stmt_If(self, node):
        c = self.condition(node.test)
        if c.is_lit:  # a constant condition (e.g. a global flag): translate one branch only
            for s in (node.body if c.const else node.orelse):
                self.stmt(s)
            return
        self.emit(f"if ({c.code}) {{")
        self.stmts(node.body)
        if node.orelse:
            self.emit("} else {")
            self.stmts(node.orelse)
        self.emit("}")

    def stmt_While(self, node):
        if node.orelse:
            raise self.unsupported(node, "while ... else")
        c = self.condition(node.test)
        self.emit(f"while ({c.code}) {{")
        self.stmts(node.body)
        self.emit("}")

    def stmt_For(self, node):
        if node.orelse:
            raise self.unsupported(node, "for ... else")
        it = node.iter
        if not (isinstance(it, ast.Call) and self.resolves_to(it.func, builtins.range)) or it.keywords:
            raise self.unsupported(node, "a for loop other than `for NAME in range(...)`")
        if not isinstance(node.target, ast.Name):
            raise self.unsupported(node, "a for loop target other than one name")
        args = [self.scalar(self.expr(a), a) for a in it.args]
        if not 1 <= len(args) <= 3:
            raise self.type_error(node, "range() takes 1 to 3 arguments")
        for a, an in zip(args, it.args):
            if a.type.kind not in "iub":
                raise self.type_error(an, f"range() arguments must be integers, not {a.type}")
        start, stop, step = (Val("0", INT64, True, 0), args[0], Val("1", INT64, True, 1)) if len(args) == 1 else \
            (args[0], args[1], args[2] if len(args) == 3 else Val("1", INT64, True, 1))
        dt = promote_all([start, stop, step])
        if dt.kind == "b":
            dt = INT64
        var = self.assign_target_var(node.target.id, dt, node, start.weak and stop.weak and step.weak)
        stop_t = self.temp()
        if step.positive:
            cond = f"{var.code} < {stop_t}"
        elif step.const is not None:
            if step.const == 0:
                raise _error(ValueError, self.where(node), "range() arg 3 must not be zero")
            cond = f"{var.code} {'<' if step.const > 0 else '>'} {stop_t}"
        else:
            step_t = self.temp()
            self.emit(f"const {c_name(dt)} {step_t} = {cast(step, dt)};")
            step = Val(step_t, dt)
            cond = f"({step_t} > 0 ? {var.code} < {stop_t} : {var.code} > {stop_t})"
        self.emit(f"{{ const {c_name(dt)} {stop_t} = {cast(stop, dt)};")
        self.depth += 1
        self.emit(f"for ({var.code} = {cast(start, dt)}; {cond}; {var.code} += {cast(step, dt)}) {{")
        self.stmts(node.body)
        self.emit("}")
        self.depth -= 1
        self.emit("}")

    def assign_target_var(self, name, dtype, node, weak):
        """The Val of local `name` (declared hoisted with `dtype` if new) for a loop variable."""
        v = self.vars.get(name)
        self.record(name, Val("", dtype, weak))
        if v is None:
            v = Val(self.c_name_for(name), *self.local_types.get(name, (dtype, weak)))
            dtype = v.type
            self.vars[name] = v
            self.hoisted.append(f"  {c_name(dtype)} {v.code};")
        elif not v.is_scalar:
            raise self.type_error(node, f"{name} is an array; it cannot be a loop variable")
        return v

    def stmt_AnnAssign(self, node):
        if not isinstance(node.target, ast.Name) or node.target.id in self.vars:
            raise self.unsupported(node, "an annotated assignment other than the first of a local name")
        dt = self.dtype_of(self.expr(node.annotation), node)
        v = Val(self.c_name_for(node.target.id), dt)
        self.vars[node.target.id] = v
        self.annotated.add(node.target.id)
        self.hoisted.append(f"  {c_name(dt)} {v.code};")
        if node.value is not None:
            self.emit(f"{v.code} = {cast(self.scalar(self.expr(node.value), node), dt)};")

    def stmt_Assign(self, node):
        value = self.expr(node.value)
        if len(node.targets) > 1 and value.is_scalar and not value.is_lit:
            t = self.temp()
            self.emit(f"const {c_name(value.type)} {t} = {value.code};")
            value = Val(t, value.type, value.weak)
        for target in node.targets:
            self.assign(target, value, node)

    def assign(self, target, value, node):
        if isinstance(target, ast.Name):
            self.assign_name(target.id, value, node)
        elif isinstance(target, ast.Subscript):
            lhs = self.subscript(target, store=True)
            self.emit(f"{lhs.code} = {cast(self.scalar(value, node), lhs.type)};")
        elif isinstance(target, (ast.Tuple, ast.List)):
            if value.type is not TUPLE or len(value.code) != len(target.elts):
                raise self.type_error(node, f"cannot unpack into {len(target.elts)} names")
            temps = []
            for e in value.code:
                if e.is_scalar and not e.is_lit:
                    t = self.temp()
                    self.emit(f"const {c_name(e.type)} {t} = {e.code};")
                    e = Val(t, e.type, e.weak)
                temps.append(e)
            for t, e in zip(target.elts, temps):
                self.assign(t, e, node)
        else:
            raise self.unsupported(node, f"assignment to {type(target).__name__}")

    def assign_name(self, name, value, node):
        old = self.vars.get(name)
        if isinstance(value.type, ArrayT) or value.type is OBJECT:
            if old is not None and old is not value and (old.code != value.code or old.type is not value.type):
                raise self.type_error(node, f"{name} is assigned an array or object a second time")
            self.vars[name] = value  # an alias: no C++ variable
            return
        value = self.scalar(value, node)
        self.record(name, value)
        if old is None:
            dt, weak = self.local_types.get(name, (value.type, value.weak))
            v = Val(self.c_name_for(name), dt, weak)
            self.vars[name] = v
            if self.depth == 0:
                self.emit(f"{c_name(dt)} {v.code} = {cast(value, dt)};")
                return
            self.hoisted.append(f"  {c_name(dt)} {v.code};")
            old = v
        if not old.is_scalar:
            raise self.type_error(node, f"{name} is an array; it cannot be assigned a scalar")
        self.emit(f"{old.code} = {cast(value, old.type)};")

    def stmt_AugAssign(self, node):
        target = node.target
        if isinstance(target, ast.Name):
            cur = self.vars.get(target.id)
            if cur is None or not cur.is_scalar:
                raise self.type_error(node, f"{target.id} is not a scalar local")
        elif isinstance(target, ast.Subscript):
            cur = self.subscript(target, store=True)
        else:
            raise self.unsupported(node, "augmented assignment to this target")
        result = self.binop(node.op, cur, self.scalar(self.expr(node.value), node), node)
        if isinstance(target, ast.Name):
            self.record(target.id, result)
        self.emit(f"{cur.code} = {cast(result, cur.type)};")

    # ---- expressions ----
    def expr(self, node):
        self.lineno = getattr(node, "lineno", self.lineno)
        method = getattr(self, "expr_" + type(node).__name__, None)
        if method is None:
            raise self.unsupported(node, f"the expression {type(node).__name__}")
        return method(node)

    def scalar(self, v, node):
        if not v.is_scalar:
            what = "an array" if isinstance(v.type, ArrayT) else "a tuple" if v.type is TUPLE else repr(v.const)
            raise self.type_error(node, f"expected a number, got {what}")
        return v

    def condition(self, node):
        v = self.scalar(self.expr(node), node)
        if v.is_lit:
            return Val("true" if v.const else "false", BOOL, True, bool(v.const))
        return v if v.type == BOOL else Val(f"({v.code} != 0)", BOOL)

    def const_val(self, obj, node):
        if isinstance(obj, (bool, int, float)) and not isinstance(obj, np.generic):
            if isinstance(obj, float) or isinstance(obj, bool):
                return Val(literal(obj, FLOAT64 if isinstance(obj, float) else BOOL), FLOAT64 if
                           isinstance(obj, float) else BOOL, True, obj)
            return Val(literal(obj, INT64), INT64, True, obj)
        if isinstance(obj, np.generic) and obj.dtype.kind in "biuf":
            return Val(literal(obj, obj.dtype), obj.dtype, False, obj)
        if isinstance(obj, tuple) and all(isinstance(o, (int, float, bool, np.generic)) for o in obj):
            return Val([self.const_val(o, node) for o in obj], TUPLE)
        return Val("", OBJECT, False, obj)

    def lookup(self, name, node):
        if name in self.vars:
            return self.vars[name]
        if name in self.scope:
            self.module.recorder.note(name, self.scope[name])
            return self.const_val(self.scope[name], node)
        if hasattr(builtins, name):
            self.module.recorder.note(name, getattr(builtins, name))
            return self.const_val(getattr(builtins, name), node)
        raise _error(NameError, self.where(node), f"name '{name}' is not defined")

    def resolves_to(self, node, obj):
        try:
            v = self.expr(node)
        except Exception:
            return False
        return v.type is OBJECT and v.const is obj

    def expr_Name(self, node, raw=False):
        v = self.lookup(node.id, node)
        return v if raw else self.intrinsic_value(v, node)

    def expr_Constant(self, node):
        if isinstance(node.value, (bool, int, float)):
            return self.const_val(node.value, node)
        if isinstance(node.value, str) or node.value is None:  # a dtype name such as 'float32'; size=None
            return Val("", OBJECT, False, node.value)
        raise self.unsupported(node, f"the constant {node.value!r}")

    def expr_Tuple(self, node):
        return Val([self.expr(e) for e in node.elts], TUPLE)

    def expr_Attribute(self, node, raw=False):
        base = self.expr(node.value)
        attr = node.attr
        if isinstance(base.type, ArrayT):
            t = base.type
            if attr == "shape":
                return Val([self.dim(base, d) for d in range(t.ndim)], TUPLE)
            if attr == "size":
                dims = [self.dim(base, d) for d in range(t.ndim)]
                if all(d.is_lit for d in dims):
                    return self.const_val(math.prod(d.const for d in dims), node)
                return Val("(" + " * ".join(d.code for d in dims) + ")" if len(dims) > 1 else dims[0].code, INT64)
            if attr == "ndim":
                return self.const_val(t.ndim, node)
            if attr == "dtype":
                return Val("", OBJECT, False, t.dtype)
            raise self.unsupported(node, f"the array attribute .{attr}")
        if base.type is OBJECT:
            obj = base.const
            if isinstance(obj, (I.Dim3, I.Intrinsic)) and not self.module.device:
                raise self.unsupported(node, f"{obj.name} outside a GPU kernel (copper.vectorize functions are "
                                             f"elementwise)")
            if isinstance(obj, I.Dim3):
                if attr not in ("x", "y", "z"):
                    raise self.type_error(node, f"{obj.name} has .x, .y and .z, not .{attr}")
                return Val(f"{obj.name}.{attr}", UINT32, positive=obj.name in ("blockDim", "gridDim"))
            if not _cache.stable_module(obj):
                self.module.recorder.cacheable = False  # e.g. cfg.TILE: not checked on load
            try:
                value = getattr(obj, attr)
            except AttributeError:
                raise self.type_error(node, f"{obj!r} has no attribute {attr!r}") from None
            v = self.const_val(value, node)
            return v if raw else self.intrinsic_value(v, node)
        if base.is_scalar and attr in ("real",):
            return base
        raise self.unsupported(node, f"the attribute .{attr} of a {base.type}")

    def intrinsic_value(self, v, node):
        """Intrinsics read as values: Numba's `cuda.laneid`, and `warpsize` (both spellings)."""
        if v.type is OBJECT and (v.const is I.laneid or v.const is I.warpsize):
            if not self.module.device:
                raise self.unsupported(node, f"{v.const.name} outside a GPU kernel (copper.vectorize functions "
                                             f"are elementwise)")
            return Val("_jit_laneid()", UINT32) if v.const is I.laneid else Val("warpSize", INT32)
        return v

    def dim(self, arr, d):
        t = arr.type
        if t.dims is not None:
            return Val(literal(t.dims[d], INT64), INT64, True, t.dims[d])
        if t.layout == "shared":
            raise self.type_error(None, "the size of dynamic shared memory is known only at launch")
        return Val(f"{arr.code}__s{d}", INT64)

    def expr_Subscript(self, node):
        return self.subscript(node)

    def subscript(self, node, store=False):
        base = self.expr(node.value)
        idx = node.slice
        if base.type is TUPLE:
            k = self.scalar(self.expr(idx), idx)
            if not k.is_lit:
                raise self.type_error(node, "a tuple index must be a constant")
            try:
                return base.code[k.const]
            except IndexError:
                raise _error(IndexError, self.where(node), "tuple index out of range") from None
        if not isinstance(base.type, ArrayT):
            raise self.type_error(node, "only arrays and tuples can be indexed")
        t = base.type
        if isinstance(idx, ast.Slice) or (isinstance(idx, ast.Tuple) and any(isinstance(e, ast.Slice)
                                                                            for e in idx.elts)):
            raise self.unsupported(node, "slices (index every dimension with an integer)")
        iv = self.expr(idx)
        return self.element(base, iv.code if iv.type is TUPLE else [iv], node)

    def element(self, base, items, node):
        """The element of array Val `base` at index Vals `items` (an lvalue)."""
        t = base.type
        if len(items) != t.ndim:
            raise self.unsupported(node, f"indexing a {t.ndim}-D array with {len(items)} indices "
                                         f"(index every dimension with an integer)")
        items = [self.scalar(i, node) for i in items]
        for i in items:
            if i.type.kind not in "iu":
                raise _error(IndexError, self.where(node), f"array indices must be integers, not {i.type}")
        codes = [literal(i.const, INT64) if i.is_lit else i.code for i in items]
        if t.layout in ("shared", "local"):
            code = base.code + "".join(f"[{c}]" for c in codes)
        elif t.layout == "c":
            flat = codes[0]
            for d in range(1, t.ndim):
                flat = f"({flat}) * {base.code}__s{d} + {codes[d]}"
            code = f"{base.code}[{flat}]" if t.ndim else f"{base.code}[0]"
        else:
            off = " + ".join(f"(long long)({c}) * {base.code}__st{d}" for d, c in enumerate(codes)) or "0"
            code = f"_jit_at({base.code}, {off})"
        return Val(code, t.dtype)

    def expr_BinOp(self, node):
        a = self.scalar(self.expr(node.left), node.left)
        b = self.scalar(self.expr(node.right), node.right)
        return self.binop(node.op, a, b, node)

    def binop(self, op, a, b, node):
        out = self._binop(op, a, b, node)
        if a.weak and b.weak:  # Python numbers give a Python number (weak again)
            out.weak = True
        if a.positive and b.positive and isinstance(op, (ast.Add, ast.Mult)):
            out.positive = True  # e.g. gridDim.x * blockDim.x: a range() step with no sign test
        return out

    def _binop(self, op, a, b, node):
        kind = type(op)
        if a.is_lit and b.is_lit and kind in _PY_BINOPS:
            try:
                return self.const_val(_PY_BINOPS[kind](a.const, b.const), node)
            except ZeroDivisionError:
                raise _error(ZeroDivisionError, self.where(node), "division by zero in a constant") from None
        dt = promote(a, b)
        if kind is ast.Div:
            out = FLOAT64 if dt.kind in "iub" else dt
            return self.wrap(f"({cast(a, out)} / {cast(b, out)})", out)
        if kind in (ast.FloorDiv, ast.Mod):
            helper = "_jit_floordiv" if kind is ast.FloorDiv else "_jit_mod"
            if dt.kind == "b":
                dt = np.dtype("int8")
            ct = np.dtype("float32") if dname(dt) == "float16" else dt
            return self.wrap(f"{helper}({cast(a, ct)}, {cast(b, ct)})", dt)
        if kind is ast.Pow:
            if dt.kind == "b":
                dt = np.dtype("int8")
            if b.is_lit and b.const == 2 and a.code.isidentifier():
                return self.wrap(f"({a.code} * {a.code})", dt, a.type != dt)
            if dt.kind in "iu":
                return Val(f"_jit_ipow({cast(a, dt)}, {cast(b, dt)})", dt)
            return self.wrap(self.float_call("pow", [a, b], dt), dt)
        if kind in (ast.LShift, ast.RShift, ast.BitAnd, ast.BitOr, ast.BitXor) and dt.kind not in "iub":
            raise self.type_error(node, f"bitwise operators need integers, not {dt}")
        if kind in _BINOPS:
            if dt.kind == "b" and kind in (ast.Add, ast.Mult):
                sym = "||" if kind is ast.Add else "&&"
                return Val(f"({cast(a, dt)} {sym} {cast(b, dt)})", dt)
            return self.wrap(f"({cast(a, dt)} {_BINOPS[kind]} {cast(b, dt)})", dt)
        raise self.unsupported(node, f"the operator {kind.__name__}")

    def wrap(self, code, dt, force=False):
        """C++ arithmetic on types narrower than int (and float16) gives int/float: cast back."""
        if force or dt.itemsize < 4 or dname(dt) == "float16":
            return Val(f"(({c_name(dt)}){code})", dt)
        return Val(code, dt)

    def float_call(self, name, args, dt):
        """A C math function on floats of dtype `dt` (float16 computed in float32)."""
        ct = np.dtype("float32") if dt.itemsize <= 4 else FLOAT64
        fn = _FLOAT_FUNCS.get(name) or _FLOAT_FUNCS2.get(name) or name
        fn = fn + "f" if dname(ct) == "float32" else fn
        return f"{fn}({', '.join(cast(a, ct) for a in args)})"

    def expr_UnaryOp(self, node):
        v = self.scalar(self.expr(node.operand), node.operand)
        if isinstance(node.op, ast.Not):
            if v.is_lit:
                return self.const_val(not v.const, node)
            return Val(f"(!{self.condition(node.operand).code})", BOOL)
        if v.is_lit:
            ops = {ast.USub: lambda x: -x, ast.UAdd: lambda x: +x, ast.Invert: lambda x: ~x}
            return self.const_val(ops[type(node.op)](v.const), node)
        if isinstance(node.op, ast.UAdd):
            return v
        if isinstance(node.op, ast.USub):
            out = self.wrap(f"(-{v.code})", v.type)
            out.weak = v.weak
            return out
        if v.type.kind == "b":
            return Val(f"(!{v.code})", BOOL)
        if v.type.kind not in "iu":
            raise self.type_error(node, f"~ needs integers, not {v.type}")
        return self.wrap(f"(~{v.code})", v.type)

    def expr_BoolOp(self, node):
        vals = [self.condition(v) for v in node.values]
        sym = " && " if isinstance(node.op, ast.And) else " || "
        return Val("(" + sym.join(v.code for v in vals) + ")", BOOL)

    def expr_Compare(self, node):
        parts = []
        left = self.scalar(self.expr(node.left), node.left)
        for op, comp in zip(node.ops, node.comparators):
            right = self.scalar(self.expr(comp), comp)
            if type(op) not in _CMPOPS:
                raise self.unsupported(node, f"the comparison {type(op).__name__}")
            if left.is_lit and right.is_lit:
                parts.append(literal(eval(f"a {_CMPOPS[type(op)]} b", {"a": left.const, "b": right.const}), BOOL))
            else:
                dt = promote(left, right)
                parts.append(f"({cast(left, dt)} {_CMPOPS[type(op)]} {cast(right, dt)})")
            left = right
        return Val(parts[0] if len(parts) == 1 else "(" + " && ".join(parts) + ")", BOOL)

    def expr_IfExp(self, node):
        c = self.condition(node.test)
        a = self.scalar(self.expr(node.body), node.body)
        b = self.scalar(self.expr(node.orelse), node.orelse)
        # Python (vectorize): the value is one branch's object, weak or not, so the wider type;
        # CuPy's kernels: NumPy's promotion of the two.
        dt = np.result_type(a.type, b.type) if self.python_math and a.weak != b.weak else promote(a, b)
        return Val(f"({c.code} ? {cast(a, dt)} : {cast(b, dt)})", dt, a.weak and b.weak)

    # ---- calls ----
    def expr_Call(self, node):
        func = node.func  # resolved raw: `jit.laneid()` calls what `cuda.laneid` reads
        if isinstance(func, ast.Name):
            f = self.expr_Name(func, raw=True)
        elif isinstance(func, ast.Attribute):
            f = self.expr_Attribute(func, raw=True)
        else:
            f = self.expr(func)
        if f.type is not OBJECT:
            raise self.type_error(node, "only functions known when the kernel is translated can be called")
        obj = f.const
        from copper.jit import _calls
        return _calls.call(self, obj, node)

    def dtype_of(self, v, node):
        """A dtype given as numpy.float32, 'float32', float, numpy.dtype(...)."""
        obj = v.const
        if v.type is OBJECT:
            try:
                dt = np.dtype(obj)
            except TypeError:
                raise self.type_error(node, f"{obj!r} is not a dtype") from None
            c_name(dt)
            return dt
        raise self.type_error(node, "expected a dtype (e.g. numpy.float32)")
