"""Plan objects a program holds: CuPy's ``cupy.cuda.cufft.Plan1d`` / ``PlanNd`` as
``cupyx.scipy.fftpack.get_fft_plan`` (``copper.x.scipy.fftpack.get_fft_plan``) makes them.

A plan describes one transform (CuPy's fields: ``nx``/``batch`` for Plan1d; ``shape``,
``order``, ``last_axis``, ``last_size`` for PlanNd; ``fft_type``) and keeps the backend
plans (cuFFT on a GPU, FFTW on the CPU) that transforms run under it use: a
``copper._core._fft.PlanSet``, filled by the first transform and never evicted while the
plan lives. Inside ``with plan:`` every copper.fft call of the thread uses it, or raises
CuPy's ValueError when the call does not fit it; the results are copper.fft's own.
The plan classes also stand for the plans cached by ``copper.fft.config``
(``isinstance(node.plan, Plan1d)``), as CuPy's one class does for both.
"""
import abc
import math
import threading
import types

from copper import _core

_f = _core._fft

# cuFFT's transform types (CuPy's cupy.cuda.cufft constants).
CUFFT_C2C, CUFFT_R2C, CUFFT_C2R = 0x29, 0x2A, 0x2C
CUFFT_Z2Z, CUFFT_D2Z, CUFFT_Z2D = 0x69, 0x6A, 0x6C
_TYPES = {("C2C", True): CUFFT_C2C, ("R2C", True): CUFFT_R2C, ("C2R", True): CUFFT_C2R,
          ("C2C", False): CUFFT_Z2Z, ("R2C", False): CUFFT_D2Z, ("C2R", False): CUFFT_Z2D}
_NORMS = (None, "backward", "ortho", "forward")

_local = threading.local()  # the plan of each thread's innermost `with plan:`


def get_current_plan():
    """The plan of the calling thread's innermost ``with plan:`` block, or None."""
    return getattr(_local, "plan", None)


def fft_type(dtype, value_type):
    """cuFFT's type for a transform of `dtype` input: single precision for float16, float32
    and complex64 (as copper.fft computes them), double otherwise."""
    if value_type not in ("C2C", "R2C", "C2R"):
        raise ValueError(f"value_type must be 'C2C', 'R2C' or 'C2R', not {value_type!r}")
    return _TYPES[(value_type, getattr(dtype, "char", "d") in "efF")]


class _Plan:
    """What Plan1d and PlanNd share: the device, the kept backend plans, the context."""

    def _init(self, fft_type_, device):
        if fft_type_ not in _TYPES.values():
            raise ValueError(f"unknown cuFFT transform type {fft_type_!r}")
        self.fft_type = fft_type_
        self._set = _f.PlanSet(device)
        self.device = self._set.device

    @property
    def work_area(self):
        """CuPy's ``plan.work_area.mem.size``: the largest work area of the kept plans (copper
        takes work areas from the memory pool per execution)."""
        return types.SimpleNamespace(mem=types.SimpleNamespace(size=self._set.work_size, ptr=0))

    def __enter__(self):
        _local.__dict__.setdefault("outer", []).append(getattr(_local, "plan", None))
        _local.plan = self
        return self

    def __exit__(self, *exc):
        _local.plan = _local.outer.pop()


class Plan1d(_Plan, metaclass=abc.ABCMeta):
    """A transform along one axis: `batch` lines of length `nx` (for C2R, `nx` is the real
    output's length), of cuFFT type `fft_type`, on `device` (the default device)."""

    def __init__(self, nx, fft_type, batch, devices=None, *, device=None):
        if devices is not None:
            raise NotImplementedError("copper runs every transform on its array's own device: no multi-GPU plans")
        self._init(fft_type, device)
        self.nx, self.batch, self.gpus = int(nx), int(batch), None

    def __repr__(self):
        return f"<copper.fft.Plan1d nx={self.nx} fft_type={self.fft_type:#x} batch={self.batch} on {self.device}>"


class PlanNd(_Plan, metaclass=abc.ABCMeta):
    """A transform over up to three adjacent axes: `shape` is the transformed extents as
    cuFFT sees them (reversed for order 'F'; for C2R the real output's length on the last
    axis), `last_axis` / `last_size` the R2C/C2R axis and its complex length."""

    def __init__(self, shape, fft_type, order="C", last_axis=None, last_size=None, *, device=None):
        if order not in ("C", "F"):
            raise ValueError("order must be 'C' or 'F'")
        self._init(fft_type, device)
        self.shape, self.order = tuple(int(n) for n in shape), order
        self.last_axis, self.last_size = last_axis, last_size

    def __repr__(self):
        return (f"<copper.fft.PlanNd shape={self.shape} fft_type={self.fft_type:#x} order={self.order} "
                f"on {self.device}>")


Plan1d.register(_f.Plan1d)  # the plans copper.fft.config's caches hold are plans too
PlanNd.register(_f.PlanNd)


# ---- what a call expects of a plan (CuPy's rules in cupy.fft._fft) --------------------

def _cook(shape, s, axes, value_type):
    """The input's shape after padding/cropping to `s` (C2R: the last axis to s//2 + 1)."""
    shape = list(shape)
    if s is not None:
        for n, ax in zip(s, axes):
            if n is not None:
                shape[ax] = n // 2 + 1 if value_type == "C2R" and ax == axes[-1] else n
    return shape


def _out_size(shape, s, last_axis, value_type):
    if value_type == "C2R":
        return 2 * (shape[last_axis] - 1) if s is None or s[-1] is None else s[-1]
    return shape[last_axis] // 2 + 1 if value_type == "R2C" else None


def _steps_1d(shape, s, axes, value_type):
    """(value_type, nx, batch) of each 1-d transform, in order, of a call run one axis at a
    time; None when the call is malformed (copper.fft raises NumPy's error for it)."""
    if s is not None and axes is not None and len(s) != len(axes):
        return None
    if axes is None:
        axes = list(range(-(len(shape) if s is None else len(s)), 0))
    axes = list(axes)
    if not axes:
        return None
    shape = _cook(shape, s, axes, value_type)
    if any(shape[ax] < 1 for ax in axes):
        return None
    size = math.prod(shape)
    c2c = [("C2C", shape[ax], size // shape[ax]) for ax in reversed(axes[:-1])]
    last = shape[axes[-1]]
    if value_type == "C2C":
        return [("C2C", last, size // last)] + c2c
    if value_type == "R2C":
        steps = [("R2C", last, size // last)]
        shape[axes[-1]] = last // 2 + 1
        size = math.prod(shape)
        return steps + [("C2C", shape[ax], size // shape[ax]) for ax in reversed(axes[:-1])]
    return c2c + [("C2R", _out_size(shape, s, axes[-1], "C2R"), size // last)]


def _expect_nd(a, s, axes, value_type, order=None):
    """PlanNd's fields a call over `axes` of `a` needs (CuPy's _fftn: axes sorted, the
    R2C/C2R axis kept last; order 'F' for F-contiguous input, else 'C', then as the padded
    input is laid out); None when the call is malformed."""
    ndim = a.ndim
    if s is not None and axes is not None and len(s) != len(axes):
        return None
    if axes is None:
        axes = tuple(range(-(ndim if s is None else len(s)), 0))
    axes = tuple(axes)
    if not axes or min(axes) < -ndim or max(axes) >= ndim:
        return None
    if value_type == "C2C":
        axes_sorted = sorted(ax % ndim for ax in axes)
    else:
        axes_sorted = sorted(ax % ndim for ax in axes[:-1]) + [axes[-1] % ndim]
    if order is None:
        order = "F" if a.flags.f_contiguous else "C"
    shape = _cook(a.shape, s, axes, value_type)
    if any(n < 1 for n in shape):
        return None
    if order == "F" and sum(n > 1 for n in shape) <= 1:
        order = "C"  # C-contiguous as well: cuFFT sees it as C
    out_size = _out_size(shape, s, axes_sorted[-1], value_type)
    dims = [shape[ax] for ax in axes_sorted]
    if value_type == "C2R":
        dims[-1] = out_size
    if order == "F":
        dims.reverse()
    return dict(axes=axes_sorted, order=order, shape=tuple(dims), last_axis=axes_sorted[-1], last_size=out_size,
                fft_type=fft_type(a.dtype, value_type))


def _check_device(plan, a):
    if str(a.device) != plan.device:
        raise ValueError(f"The plan was made for device {plan.device}, the array is on {a.device}")


def _check_1d(plan, a, s, axes, value_type):
    if not isinstance(plan, Plan1d) or isinstance(plan, _f.Plan):
        raise ValueError("expected plan to have type cufft.Plan1d")
    steps = _steps_1d(a.shape, s, axes, value_type)
    for vt, nx, batch in steps or ():
        if fft_type(a.dtype, vt) != plan.fft_type:
            raise ValueError("cuFFT plan dtype mismatch.")
        if nx != plan.nx:
            raise ValueError("Target array size does not match the plan.", nx, plan.nx)
        if batch != plan.batch:
            raise ValueError("Batch size does not match the plan.")
    return steps is not None


def _check_nd(plan, a, s, axes, value_type):
    if not isinstance(plan, PlanNd) or isinstance(plan, _f.Plan):
        raise ValueError("expected plan to have type cufft.PlanNd")
    want = _expect_nd(a, s, axes, value_type)
    if want is None:
        return False
    if want["order"] != plan.order:
        raise ValueError(f"array orders mismatch (plan: {plan.order}, input: {want['order']})")
    if want["shape"] != plan.shape:
        raise ValueError(f"The cuFFT plan and a.shape do not match: plan.shape = {plan.shape}, "
                         f"expected_shape={want['shape']}, a.shape = {tuple(a.shape)}")
    if want["fft_type"] != plan.fft_type:
        raise ValueError("cuFFT plan dtype mismatch.")
    if value_type != "C2C":
        if want["last_axis"] != plan.last_axis:
            raise ValueError("The last axis for R2C/C2R mismatch")
        if want["last_size"] != plan.last_size:
            raise ValueError("The size along the last R2C/C2R axis mismatch")
    return True


def run(transform, value_type, a, s, axes, norm, out, plan, nd):
    """transform(a, s or n, axes or axis, norm, out) run with `plan` (given or the context's):
    CuPy's ValueError when the call does not fit it; RuntimeError when both are given."""
    current = get_current_plan()
    if plan is None:
        plan = current
    elif current is not None:
        raise RuntimeError("Use the cuFFT plan either as a context manager or as an argument.")
    n_or_s, axis_or_axes = s, axes
    if plan is None:
        return transform(a, n_or_s, axis_or_axes, norm, out)
    a = a if isinstance(a, _core.ndarray) else _core.asarray(a)
    if not nd:
        s, axes = (s,), (axes,)
    if norm in _NORMS:  # else copper.fft raises NumPy's error first, as CuPy's does
        if nd and isinstance(plan, PlanNd):
            checked = _check_nd(plan, a, s, axes, value_type)
        else:
            checked = _check_1d(plan, a, s, axes, value_type)
        if checked:
            _check_device(plan, a)
    return transform(a, n_or_s, axis_or_axes, norm, out, plan._set)


def get_fft_plan(a, shape=None, axes=None, value_type="C2C"):
    """A plan for transforms of `a` (C- or F-contiguous) padded or cropped to `shape` over
    `axes` (as fftn's s and axes): a Plan1d for one axis, a PlanNd for two or three adjacent
    axes that include the first or the last one. value_type: 'C2C', 'R2C' (rfft) or 'C2R'
    (irfft: `shape` is the real output's). Use it as ``with plan:`` or as ``plan=``."""
    a = a if isinstance(a, _core.ndarray) else _core.asarray(a)
    if a.flags.c_contiguous:
        order = "C"
    elif a.flags.f_contiguous:
        order = "F"
    else:
        raise ValueError("Input array a must be contiguous")
    shape = (shape,) if isinstance(shape, int) else shape
    axes = (axes,) if isinstance(axes, int) else axes
    if shape is not None and axes is not None and len(shape) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    ftype = fft_type(a.dtype, value_type)
    if axes is None:
        axes = tuple(range(-(a.ndim if shape is None else len(shape)), 0))
    axes = tuple(axes)
    for ax in axes:
        if not -a.ndim <= ax < a.ndim:
            raise ValueError(f"The chosen axis ({ax}) exceeds the number of dimensions of a ({a.ndim})")
    if len(axes) > 3:
        raise ValueError("Only up to three axes is supported")
    if len(axes) == 0:
        raise ValueError("No axis to transform")
    cooked = _cook(a.shape, shape, axes, value_type)
    for ax in axes:
        if cooked[ax] < 1:
            raise ValueError(f"Invalid number of FFT data points ({cooked[ax]}) specified.")
    device = str(a.device)
    if len(axes) == 1:
        n = cooked[axes[0]]
        nx = _out_size(cooked, shape, axes[0], "C2R") if value_type == "C2R" else n
        return Plan1d(nx, ftype, math.prod(cooked) // n, device=device)
    if value_type != "C2C" and order == "F":
        raise ValueError("C2R/R2C PlanNd for F-order arrays is not supported")
    ordered = sorted(ax % a.ndim for ax in axes)
    if (len(set(ordered)) != len(ordered) or ordered != list(range(ordered[0], ordered[-1] + 1))
            or (ordered[0] != 0 and ordered[-1] != a.ndim - 1)):
        raise ValueError("An n-dimensional cuFFT plan could not be created. The axes must be contiguous and "
                         "non-repeating. Between one and three axes can be transformed and either the first or "
                         "last axis must be included in axes.")
    want = _expect_nd(a, shape, axes, value_type, order)
    return PlanNd(want["shape"], ftype, want["order"], want["last_axis"], want["last_size"], device=device)
