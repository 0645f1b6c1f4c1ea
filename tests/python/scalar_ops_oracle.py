#!/usr/bin/env python3
"""Checks the scalar functors of src/ops/scalar_ops.h against NumPy.

Builds tests/cpp/scalar_ops_check.cpp (or uses --checker), then
  1. compares, per op and dtype, the loops the functors accept (and their output
     dtype) with NumPy's ufunc `.types`;
  2. generates inputs per op and supported dtype (edge values: 0, -0.0, +-inf,
     nan, INT_MIN, -1, huge and subnormal values, complex values on branch
     cuts...), has the checker evaluate them, and compares with NumPy:
     integers, bools and exactly rounded float ops bit for bit (NaN == NaN,
     signed zeros compared), other float results within TOL ulps (complex:
     per part, or within TOL eps of |result|). Where NumPy's own result is
     less accurate, a result is also accepted if it is within tolerance of the
     same NumPy op at higher precision (float16/32, complex64 inputs) or of
     mpmath; such cases are counted and listed. So are the deliberate
     differences (see deliberate()) and complex powers too ill-conditioned to
     have any correct digits (compared by their inf/NaN pattern only).
Ends with "N passed, N failed" (one per type-table check and per op/dtype) and
exits non-zero on any failure.

  python3 tests/python/scalar_ops_oracle.py [--ops sqrt,power] [--seed 1] [-n 2500] [-v]

Device results: --save-inputs IN writes the input records and stops; evaluate
them elsewhere (e.g. tests/cpp/nvrtc_compile_check.cpp's --eval IN OUT on a GPU),
then --inputs IN --outputs OUT compares those results instead of the checker's.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict

import numpy as np

try:
    import mpmath
except ImportError:  # the mpmath fallback is then skipped
    mpmath = None

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
CHAR = {"?": "bool", "b": "int8", "B": "uint8", "h": "int16", "H": "uint16", "i": "int32",
        "I": "uint32", "l": "int64", "q": "int64", "L": "uint64", "Q": "uint64",
        "e": "float16", "f": "float32", "d": "float64", "F": "complex64", "D": "complex128"}
TOL = 4  # ulps (complex: per part, or TOL*eps*|z|)

# Results that IEEE arithmetic (or NumPy's exact formula) fixes bit for bit.
EXACT = {"negative", "positive", "absolute", "reciprocal", "square", "sqrt", "floor", "ceil",
         "trunc", "rint", "sign", "conjugate", "add", "subtract", "multiply", "true_divide",
         "floor_divide", "remainder", "fmod", "maximum", "minimum", "fmax", "fmin", "clip",
         "fabs", "copysign", "nextafter", "spacing", "ldexp", "frexp", "modf", "divmod", "heaviside",
         "deg2rad", "rad2deg", "degrees", "radians", "signbit"}
# ... except these for complex, which go through libm-like algorithms.
COMPLEX_NOT_EXACT = {"absolute", "sqrt", "sign"}
# NumPy's fmax/fmin return either zero for (+0, -0) depending on array length.
ZERO_SIGN_FREE = {"fmax", "fmin"}

MP = None
if mpmath is not None:
    mp = mpmath.mp
    MP = {
        "sqrt": mp.sqrt, "cbrt": mp.cbrt, "exp": mp.exp, "exp2": lambda z: mp.power(2, z),
        "expm1": mp.expm1, "log": mp.log, "log2": lambda z: mp.log(z, 2), "log10": mp.log10,
        "log1p": mp.log1p, "sin": mp.sin, "cos": mp.cos, "tan": mp.tan, "arcsin": mp.asin,
        "arccos": mp.acos, "arctan": mp.atan, "sinh": mp.sinh, "cosh": mp.cosh, "tanh": mp.tanh,
        "arcsinh": mp.asinh, "arccosh": mp.acosh, "arctanh": mp.atanh, "power": mp.power,
        "arctan2": mp.atan2, "hypot": mp.hypot, "float_power": mp.power, "absolute": abs, "sign": lambda z: z / abs(z),
        "angle": lambda z: mp.arg(z), "bessel_i0": lambda z: mp.besseli(0, z),
    }


def ufunc_names():
    text = open(os.path.join(ROOT, "include", "copper", "ufunc_list.hpp")).read()
    out = {}
    for arity, macro in ((1, "COPPER_UNARY_UFUNCS"), (2, "COPPER_BINARY_UFUNCS"), (3, "COPPER_TERNARY_UFUNCS"),
                         (1, "COPPER_UNARY2_UFUNCS"), (2, "COPPER_BINARY2_UFUNCS")):
        body = re.search(r"#define " + macro + r"\(X\)(.*?)(?:\n\n|\n#|\Z)", text, re.S).group(1)
        for name in re.findall(r"X\((\w+)\)", body):
            out[name] = arity
    return out


def numpy_loops(name):
    """first input's dtype -> (input dtypes, output dtypes) of NumPy's loops: the first
    homogeneous one, else (ldexp) the last one listed, which is copper's int64 exponent."""
    if name == "bessel_i0":  # a Python function: floats keep their dtype (ints are cast to float64 first)
        return {t: ((t,), (t,)) for t in ("float16", "float32", "float64")}
    if name == "angle":  # a Python function over arctan2; ints are cast to float64 first
        return {t: ((t,), (o,)) for t, o in (("float16", "float16"), ("float32", "float32"), ("float64", "float64"),
                                              ("complex64", "float32"), ("complex128", "float64"))}
    uf = np._core.umath.clip if name == "clip" else getattr(np, name)
    loops, mixed = {}, {}
    for sig in uf.types:
        ins, out = sig.split("->")
        if not all(c in CHAR for c in ins + out):
            continue
        entry = (tuple(CHAR[c] for c in ins), tuple(CHAR[c] for c in out))
        if len({CHAR[c] for c in ins}) == 1:
            loops.setdefault(CHAR[ins[0]], entry)
        else:
            mixed[CHAR[ins[0]]] = entry
    for k, v in mixed.items():
        loops.setdefault(k, v)
    return loops


def input_dtypes(name, dt, ours):
    return ours[name][dt][0]


def numpy_call(name, args):
    """NumPy's outputs, as a tuple."""
    with np.errstate(all="ignore"):
        if name == "angle":
            return (np.angle(args[0]),)
        if name == "bessel_i0":
            return (np.i0(args[0]),)
        if name == "clip":
            return (np._core.umath.clip(*args),)
        r = getattr(np, name)(*args)
        if name == "nextafter":
            r = nextafter_equal_gives_y(args[0], args[1], r)
        return r if isinstance(r, tuple) else (r,)


def nextafter_equal_gives_y(x, y, r):
    """NumPy 2.5's nextafter: equal inputs give y (C99, and float16 as float32/64); NumPy
    before 2.5 gave x for float16, so +0 and -0 differed. copper follows 2.5."""
    x, y = np.asarray(x), np.asarray(y)
    if x.dtype != np.float16 or np.lib.NumpyVersion(np.__version__) >= "2.5.0":
        return r
    return np.where(x == y, y, r).astype(np.float16)


# ---------------- inputs ----------------
def int_values(dt, rng, n):
    info = np.iinfo(dt)
    edges = [0, 1, -1, 2, -2, 3, -3, 7, -7, 100, -100, info.min, info.max, info.min + 1, info.max - 1,
             info.max // 2, info.min // 2]
    edges = np.array([e for e in edges if info.min <= e <= info.max], dtype=dt)
    full = rng.integers(info.min, info.max, size=n, dtype=dt, endpoint=True)
    small = rng.integers(max(info.min, -20), 21, size=n).astype(dt)
    return edges, np.concatenate([full, small])


def float_edges(dt):
    fi = np.finfo(dt)
    f = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 2.0, -2.0, 3.0, -3.0, 0.1, 10.0, -10.0,
         1e-3, np.pi, -np.pi, np.pi / 2, 0.7, 1e10, -1e10, np.inf, -np.inf, np.nan,
         float(fi.max), -float(fi.max), float(fi.tiny), -float(fi.tiny), float(fi.smallest_subnormal),
         -float(fi.smallest_subnormal), 1 + float(fi.eps), 1 - float(fi.epsneg), -1 - float(fi.eps),
         11.5, 88.7, 89.5, -103.0, 709.7, 710.5, -745.0, 1e300, 0.9999]
    return np.array(f, dtype=np.float64)


def float_random(dt, rng, n):
    span = {"float16": 4, "float32": 30, "float64": 300}[dt]
    k = n // 5
    sign = rng.choice([-1.0, 1.0], size=k)
    return np.concatenate([
        sign * 10.0 ** rng.uniform(-span, span, k),
        rng.uniform(-10, 10, k),
        rng.uniform(-1.5, 1.5, k),
        np.round(rng.uniform(-20, 20, k) * 2) / 2,
        10.0 ** rng.uniform(-5, 5, k),
    ])


COMPLEX_PART_EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, -2.0, 3.0, np.inf, -np.inf, np.nan, 1e-300, 5e-324,
                      1e308, -1e308, 1e-8, 710.0, -710.0, 1e200]


def complex_random(rng, n):
    k = n // 8
    def part(m):
        fam = rng.integers(0, 4, m)
        sign = rng.choice([-1.0, 1.0], size=m)
        return np.select([fam == 0, fam == 1, fam == 2],
                         [sign * 10.0 ** rng.uniform(-20, 20, m), rng.uniform(-10, 10, m),
                          rng.uniform(-1.5, 1.5, m)], np.round(rng.uniform(-6, 6, m) * 2) / 2)
    th = rng.uniform(-np.pi, np.pi, k)
    zero = rng.choice([0.0, -0.0], size=k)
    eps = 10.0 ** rng.uniform(-12, -1, k) * rng.choice([-1.0, 1.0], size=k)
    centers = rng.choice([1, -1, 1j, -1j], size=k)
    return np.concatenate([
        part(3 * k) + 1j * part(3 * k),
        rng.uniform(-5, 5, k) + 1j * zero,                          # real axis, both sides of the cuts
        zero + 1j * rng.uniform(-5, 5, k),                          # imaginary axis
        np.cos(th) * (1 + eps) + 1j * np.sin(th),                   # near the unit circle
        centers + eps * np.exp(1j * rng.uniform(-np.pi, np.pi, k)),  # near +-1, +-i
    ])


def complex_from_parts(re_, im_):
    z = np.empty(len(re_), dtype=np.complex128)
    z.real, z.imag = re_, im_
    return z


def pool(dt, rng, n):
    """(edge values, random values) for dt, as arrays of dt."""
    with np.errstate(all="ignore"):
        if dt == "bool":
            return np.array([False, True]), rng.integers(0, 2, n).astype(bool)
        if dt.startswith(("int", "uint")):
            return int_values(np.dtype(dt), rng, n)
        if dt.startswith("float"):
            return float_edges(dt).astype(dt), float_random(dt, rng, n).astype(dt)
        p = np.array(COMPLEX_PART_EDGES)
        grid = complex_from_parts(np.repeat(p, len(p)), np.tile(p, len(p)))
        return grid.astype(dt), complex_random(rng, n).astype(dt)


EXPONENT_EDGES = [0, 1, -1, 2, -2, 10, -10, 15, 16, -14, -24, -25, 127, 128, -126, -149, -150, 1023, 1024, -1022,
                  -1074, -1075, -1100, 1100, 2**31 - 1, -2**31, 2**31, 2**40, -2**40, 2**63 - 1, -2**63]


def inputs(name, arity, dt, rng, n=2500):
    edges, rand = pool(dt, rng, n)
    if name == "ldexp":  # an int64 exponent for every float loop
        e = np.array(EXPONENT_EDGES, dtype=np.int64)
        a = np.concatenate([np.repeat(edges, len(e)), rand])
        b = np.concatenate([np.tile(e, len(edges)), rng.integers(-1100, 1100, len(rand))])
        return [a, b]
    def pick(m):
        return np.concatenate([rand, edges])[rng.integers(0, len(rand) + len(edges), m)]
    if arity == 1:
        return [np.concatenate([edges, rand])]
    if arity == 2:
        e = edges
        if len(e) > 64:  # complex grid: pairs from a subset
            e = e[rng.choice(len(e), 64, replace=False)]
        a = np.concatenate([np.repeat(e, len(e)), rand, pick(len(rand))])
        b = np.concatenate([np.tile(e, len(e)), pick(len(rand)), rand])
        if name in ("left_shift", "right_shift"):
            bits = 8 * np.dtype(dt).itemsize
            lo = -3 if dt.startswith("int") else 0
            b = np.concatenate([b[: len(e) ** 2], rng.integers(lo, 2 * bits + 3, len(b) - len(e) ** 2).astype(dt)])
        if name == "power" and dt.startswith(("int", "uint")):
            keep = b >= 0  # NumPy raises for negative integer exponents
            a, b = a[keep], b[keep]
            b = np.concatenate([b, rng.integers(0, 70, len(b)).astype(dt)])
            a = np.concatenate([a, a])
        if name in ("power", "float_power") and dt.startswith("complex"):
            ints = np.array([-100, -99, -5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 17, 99, 100, 0.5, -0.5], dtype=dt)
            a = np.concatenate([a, np.repeat(rand[:300], len(ints))])
            b = np.concatenate([b, np.tile(ints, 300)])
        return [a, b]
    e = edges if len(edges) <= 24 else edges[rng.choice(len(edges), 24, replace=False)]
    e3 = np.array(np.meshgrid(e, e, e, indexing="ij")).reshape(3, -1) if len(e) <= 12 else \
        np.stack([e[rng.integers(0, len(e), 4000)] for _ in range(3)])
    return [np.concatenate([e3[k], pick(n)]) for k in range(3)]


# ---------------- comparison ----------------
def float_ok(got, ref, tol, zero_sign=True):
    """Elementwise: got within tol ulps of ref (NaN == NaN, inf exact, signed zeros).
    tol: a number or one per element."""
    got = np.asarray(got)
    ref = np.asarray(ref, dtype=got.dtype)
    tol = np.broadcast_to(np.asarray(tol, dtype=np.float64), got.shape)
    ibits = {2: np.int16, 4: np.int32, 8: np.int64}[got.dtype.itemsize]
    gi, ri = got.view(ibits), ref.view(ibits)
    gn, rn = np.isnan(got), np.isnan(ref)
    ok = (gn & rn) | ((gi == ri) & ~gn)
    if not zero_sign:
        ok |= (got == 0) & (ref == 0)
    if (tol > 0).any():
        cand = ~ok & ~gn & ~rn & np.isfinite(got) & np.isfinite(ref) & ~((got == 0) & (ref == 0)) & (tol > 0)
        for i in np.nonzero(cand)[0]:
            a, b = int(gi[i]), int(ri[i])
            mask = (1 << (8 * got.dtype.itemsize - 1)) - 1
            oa = -(a & mask) if a < 0 else a
            ob = -(b & mask) if b < 0 else b
            if abs(oa - ob) <= tol[i]:
                ok[i] = True
    return ok


def complex_ok(got, ref, tol, exact, zero_sign=True):
    ref = np.asarray(ref, dtype=got.dtype)
    t = 0 if exact else tol
    ok_re = float_ok(got.real.copy(), ref.real.copy(), t, zero_sign)
    ok_im = float_ok(got.imag.copy(), ref.imag.copy(), t, zero_sign)
    if not exact:  # normwise fallback for a part much smaller than |z|
        eps = np.finfo(got.real.dtype).eps
        with np.errstate(all="ignore"):
            mag = np.abs(ref.astype(np.complex128))
            # a part that overflowed leaves |z| > max: the finite part is then held to max
            mag = np.where(np.isinf(mag), np.finfo(got.real.dtype).max, mag)
            zsign = lambda g, r: ~((g == 0) & (r == 0)) | (np.signbit(g) == np.signbit(r)) | (not zero_sign)
            for ok_part, g, r in ((ok_re, got.real, ref.real), (ok_im, got.imag, ref.imag)):
                fin = np.isfinite(g) & np.isfinite(r) & ~np.isnan(mag)
                ok_part |= fin & (np.abs(g.astype(np.float64) - r) <= tol * eps * mag) & zsign(g, r)
    return ok_re & ok_im


def values_ok(name, dt, got, ref, tol, zero_sign=True):
    if got.dtype.kind in "biu":
        return got == ref
    exact = name in EXACT and not (dt.startswith("complex") and name in COMPLEX_NOT_EXACT)
    if got.dtype.kind == "c":
        return complex_ok(got, ref, tol, exact, zero_sign)
    return float_ok(got, ref, 0 if exact else tol, zero_sign=zero_sign and name not in ZERO_SIGN_FREE)


def tolerance(name, dt, args):
    """TOL ulps; for complex power scaled by the conditioning of exp(b log a):
    an ulp of log a moves the result by |b log a| ulps, in NumPy's cpow as here."""
    if name in ("power", "float_power") and dt.startswith("complex"):
        a, b = (x.astype(np.complex128) for x in args)
        with np.errstate(all="ignore"):
            cond = np.abs(b) * np.abs(np.log(a))
            tol = TOL * (1 + np.where(np.isnan(cond), 0, cond))
        # past 1/eps even the phase is noise: only the inf/NaN pattern is compared
        return np.where(tol * np.finfo(args[0].real.dtype).eps >= 1, np.inf, tol)
    return np.full(len(args[0]), float(TOL))


# Deliberate differences from NumPy (reported, not failed).
def deliberate(name, dt, args, i, got, exp):
    z = args[0][i]
    if name == "expm1" and dt.startswith("complex"):
        # NumPy's formula turns the exact zero part of a finite input into inf * 0 = NaN
        return (np.isfinite(z.real) and z.imag == 0 and np.isinf(exp[i].real) and np.isnan(exp[i].imag)
                and got[i].imag == 0 and got[i].real == exp[i].real)
    if name == "exp2" and dt.startswith("complex") and np.isfinite(z.imag) and abs(z.imag) >= 2.0**50:
        # the phase y*ln2 has no correct digits left, both use the rounded product;
        # the magnitude is exact here (exp2) but not in NumPy (exp of x*ln2)
        g, e = complex(got[i]), complex(exp[i])
        with np.errstate(all="ignore"):
            return (abs(abs(g) / 2.0 ** float(z.real) - 1) < 1e-6 and abs(g / abs(g) - e / abs(e)) < 1e-6)
    return False


def mp_reference(name, args, i, out_dtype):
    if MP is None or name not in MP:
        return None
    vals = [a[i] for a in args]
    for v in vals:
        for part in (v.real, v.imag) if np.iscomplexobj(v) else (v,):
            if not np.isfinite(part):
                return None
    mp.prec = 600  # parts of very different magnitude need the headroom
    conv = [mp.mpc(complex(v)) if np.iscomplexobj(v) else mp.mpf(float(v)) for v in vals]
    try:
        if name == "angle" and not np.iscomplexobj(vals[0]):
            r = mp.atan2(0, conv[0])
        else:
            r = MP[name](*conv)
    except (ValueError, ZeroDivisionError, OverflowError):
        return None
    if np.dtype(out_dtype).kind == "c":
        r = mp.mpc(r)
        return np.array(complex(float(r.real), float(r.imag))).astype(out_dtype)
    if isinstance(r, mp.mpc) and r.imag != 0:
        return None
    return np.array(float(mp.re(r))).astype(out_dtype)


def wider(dt):
    return {"float16": "float64", "float32": "float64", "complex64": "complex128"}.get(dt)


# ---------------- checker I/O ----------------
def build_checker(path):
    src = os.path.join(ROOT, "tests", "cpp", "scalar_ops_check.cpp")
    cmd = ["g++", "-std=c++20", "-O1", "-I", os.path.join(ROOT, "src"), src, "-o", path]
    subprocess.run(cmd, check=True)


def write_inputs(path, cases):
    with open(path, "wb") as f:
        for name, dt, args in cases:
            f.write(f"{name} {dt} {len(args[0])}\n".encode())
            for a in args:
                f.write(np.ascontiguousarray(a).tobytes())


def read_inputs(path, arities, in_dtypes):
    """in_dtypes(name, dt): the dtypes of the op's inputs in the loop over dt."""
    data = open(path, "rb").read()
    cases, pos = [], 0
    while pos < len(data):
        nl = data.index(b"\n", pos)
        name, dt, n = data[pos:nl].decode().split()
        pos, n = nl + 1, int(n)
        args = []
        for k in range(arities[name]):
            idt = in_dtypes(name, dt)[k]
            size = np.dtype(idt).itemsize * n
            args.append(np.frombuffer(data[pos:pos + size], dtype=idt).copy())
            pos += size
        cases.append((name, dt, args))
    return cases


def run_checker(checker, cases, tmp, outputs=None):
    inp, outp = os.path.join(tmp, "in.bin"), os.path.join(tmp, "out.bin")
    if outputs:
        outp = outputs
    else:
        write_inputs(inp, cases)
        subprocess.run([checker, "eval", inp, outp], check=True)
    results = []
    with open(outp, "rb") as f:
        data = f.read()
    pos = 0
    while pos < len(data):
        nl = data.index(b"\n", pos)
        name, dt, odts, n = data[pos:nl].decode().split()
        pos = nl + 1
        n = int(n)
        if odts == "unsupported":
            results.append((name, dt, None))
            continue
        outs = []
        for odt in odts.split(","):
            size = np.dtype(odt).itemsize * n
            outs.append(np.frombuffer(data[pos:pos + size], dtype=odt).copy())
            pos += size
        results.append((name, dt, outs))
    return results


def fmt(v):
    if np.iscomplexobj(v):
        return f"({float(v.real)!r}{float(v.imag):+}j)"
    return repr(v.item()) if hasattr(v, "item") else repr(v)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--checker", help="prebuilt scalar_ops_check binary")
    ap.add_argument("--ops", help="comma-separated subset of ops")
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("-n", type=int, default=2500, help="random inputs per op and dtype")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--save-inputs", help="write the input records to this file and stop")
    ap.add_argument("--outputs", help="compare these output records (from another evaluator)")
    ap.add_argument("--inputs", help="read the input records from this file instead of generating them")
    opts = ap.parse_args()

    names = ufunc_names()
    if opts.ops:
        wanted = opts.ops.split(",")
        names = {k: v for k, v in names.items() if k in wanted}
    with tempfile.TemporaryDirectory() as tmp:
        checker = opts.checker or os.path.join(tmp, "scalar_ops_check")
        if not opts.checker:
            build_checker(checker)

        passed = failed = 0
        # 1. loop tables
        ours = defaultdict(dict)
        for line in subprocess.run([checker, "types"], check=True, capture_output=True, text=True).stdout.split("\n"):
            if line.strip():
                op, dt, ins, outs = line.split()
                if outs != "-":
                    ours[op][dt] = (tuple(ins.split(",")), tuple(outs.split(",")))
        for name in names:
            theirs = numpy_loops(name)
            if ours[name] == theirs:
                passed += 1
            else:
                failed += 1
                print(f"TYPES {name}: ours {ours[name]} numpy {theirs}")

        # 2. values
        rng = np.random.default_rng(opts.seed)
        cases = []
        if opts.inputs:
            cases = [c for c in read_inputs(opts.inputs, ufunc_names(), lambda nm, dt: input_dtypes(nm, dt, ours))
                     if c[0] in names]
        else:
            for name, arity in names.items():
                for dt in ours[name]:
                    args = inputs(name, arity, dt, rng, opts.n)
                    assert all(x.dtype == t and len(x) == len(args[0])
                               for x, t in zip(args, input_dtypes(name, dt, ours))), (name, dt)
                    cases.append((name, dt, args))
        if opts.save_inputs:
            write_inputs(opts.save_inputs, cases)
            print(f"wrote {len(cases)} input records to {opts.save_inputs}")
            return 0
        results = [r for r in run_checker(checker, cases, tmp, opts.outputs) if r[0] in names]
        inaccurate = defaultdict(int)
        known = defaultdict(int)
        ill = defaultdict(int)
        for (name, dt, args), (rname, rdt, gots) in zip(cases, results):
            assert (rname, rdt) == (name, dt)
            exps = numpy_call(name, args)
            if gots is None or len(gots) != len(exps) or any(g.dtype != e.dtype for g, e in zip(gots, exps)):
                failed += 1
                print(f"FAIL {name} {dt}: output dtypes {None if gots is None else [g.dtype for g in gots]} "
                      f"vs numpy {[e.dtype for e in exps]}")
                continue
            wides = None
            if wider(dt):
                wides = numpy_call(name, [x.astype(wider(x.dtype.name)) if wider(x.dtype.name) else x for x in args])
            for j, (got, exp) in enumerate(zip(gots, exps)):
                tol = tolerance(name, dt, args)
                ok = values_ok(name, dt, got, exp, tol)
                if not ok.all() and wider(dt) and got.dtype.kind in "fc":
                    wide = wides[j]
                    with np.errstate(all="ignore"):
                        ok |= values_ok(name, dt, got, wide.astype(exp.dtype), tol)
                bad = []
                for i in np.nonzero(~ok)[0]:
                    if deliberate(name, dt, args, i, got, exp):
                        known[(name, dt)] += 1
                        continue
                    if np.isinf(tol[i]):
                        parts = lambda v: (np.isnan(v.real), np.isinf(v.real), np.isnan(v.imag), np.isinf(v.imag))
                        if parts(got[i]) == parts(exp[i]):
                            ill[(name, dt)] += 1
                            continue
                    ref = mp_reference(name, args, i, exp.dtype)
                    # mpmath has no signed zeros: compare zeros without sign
                    if ref is not None and values_ok(name, dt, got[i:i + 1], ref.reshape(1), tol[i:i + 1], False)[0]:
                        inaccurate[(name, dt)] += 1
                        if opts.verbose:
                            print(f"  numpy inaccurate {name} {dt} {[fmt(a[i]) for a in args]}: "
                                  f"ours {fmt(got[i])} numpy {fmt(exp[i])} mpmath {fmt(ref)}")
                    else:
                        bad.append(i)
                if bad:
                    failed += 1
                    print(f"FAIL {name} {dt}{'' if len(exps) == 1 else f' output {j}'}: {len(bad)}/{len(got)} values differ")
                    for i in bad[: 8 if opts.verbose else 4]:
                        print(f"    in {[fmt(a[i]) for a in args]}: ours {fmt(got[i])} numpy {fmt(exp[i])}")
                else:
                    passed += 1
        if inaccurate:
            print("Accepted against mpmath where NumPy's own result is off (count per op/dtype):")
            for (name, dt), k in sorted(inaccurate.items()):
                print(f"  {name} {dt}: {k}")
        if ill:
            print("Ill-conditioned (|b log a| >= 1/eps), compared by inf/NaN pattern only:")
            for (name, dt), k in sorted(ill.items()):
                print(f"  {name} {dt}: {k}")
        if known:
            print("Deliberate differences from NumPy (see deliberate()):")
            for (name, dt), k in sorted(known.items()):
                print(f"  {name} {dt}: {k}")
        print(f"{passed} passed, {failed} failed")
        return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
