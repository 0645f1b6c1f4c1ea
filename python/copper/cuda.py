"""GPU runtime control, in CuPy's shape (``cupy.cuda``): streams, events, devices and
the memory pool.

GPU operations are asynchronous: they enqueue on the current stream of their array's
device, and host reads wait for them. Without a usable GPU, device 0 stands for the CPU:
streams, events (timed with the host clock), ``synchronize``, ``Device(0)`` and
``free_all_blocks`` act on the CPU device, so programs that only synchronize and time run
unchanged; other devices and GPU-only calls (graphs, memory statistics, device
properties, raw kernel launches) raise ``RuntimeError``.

    s = copper.cuda.Stream(non_blocking=True)
    with s:                      # ops on this thread go to `s` on its device
        y = x * 2
    s.synchronize()
    with copper.cuda.Device(1):  # new arrays go to cuda:1
        z = copper.zeros(3)

    with s:                      # CUDA graphs: record once, replay with one launch
        s.begin_capture()
        y *= 2
        y += 1
        g = s.end_capture()
    g.launch()
"""
import contextlib
import threading
import types

from copper import _core
from copper._core import OutOfMemoryError  # noqa: F401  (a MemoryError subclass, as CuPy's)

# The compiled half (copper._core._cuda): names bound here one by one.
_cuda = _core._cuda
Event = _cuda.Event
Graph = _cuda.Graph
Stream = _cuda.Stream
launch_count = _cuda.launch_count
current_device = _cuda.current_device
device_count = _cuda.device_count
free_all_blocks = _cuda.free_all_blocks
get_current_stream = _cuda.get_current_stream
get_elapsed_time = _cuda.get_elapsed_time
is_available = _cuda.is_available
memory_stats = _cuda.memory_stats
reset_peak_memory = _cuda.reset_peak_memory
set_memory_limit = _cuda.set_memory_limit
synchronize = _cuda.synchronize
Stream.__module__ = Event.__module__ = Graph.__module__ = __name__  # shown as copper.cuda.Stream, where users find them

__all__ = [
    "Device", "Event", "Graph", "MemoryPool", "OutOfMemoryError", "Stream", "current_device", "device_count",
    "free_all_blocks", "get_current_stream", "get_default_memory_pool", "get_elapsed_time", "is_available",
    "launch_count", "memory_stats", "reset_peak_memory", "runtime", "set_memory_limit", "synchronize",
]

# Devices entered with `with Device(i):` on each thread, with the default device each replaced.
_replaced_devices = threading.local()


class Device:
    """A GPU, as ``cupy.cuda.Device``: ``Device()`` is the current one; ``with Device(i):``
    sends new arrays to ``cuda:i`` and restores the previous default device on exit.
    Without a usable GPU, ``Device(0)`` stands for the CPU device."""

    __slots__ = ("id",)

    def __init__(self, device=None):
        if device is None:
            device = current_device()
        elif isinstance(device, Device):
            device = device.id
        elif isinstance(device, (str, _core.Device)):
            parsed = _core.Device(device)
            if parsed.type != "cuda":
                raise ValueError(f"device {parsed} is not a CUDA device")
            device = parsed.id
        elif isinstance(device, bool) or not isinstance(device, int):
            raise TypeError("device must be None, an int, a string such as 'cuda:0', or a Device")
        if device < 0:
            raise ValueError(f"invalid CUDA device index {device}")
        self.id = device

    def use(self):
        """Makes this GPU the default device of the calling thread (without a GPU, device 0
        stands for the CPU and selects it)."""
        _cuda.set_device(self.id)

    def synchronize(self):
        """Waits for all work on this GPU (the CPU backend's, without a GPU), raising the
        error of a failed op."""
        synchronize(self.id)

    @property
    def compute_capability(self):
        """The compute capability as a string, "90" for sm_90 (as CuPy's)."""
        return _cuda.compute_capability(self.id)

    def can_access_peer(self, peer):
        """Whether this GPU can read and write the memory of GPU ``peer`` directly."""
        return _cuda.can_access_peer(self.id, int(peer))

    def __enter__(self):
        previous = _core.get_default_device()
        _cuda.set_device(self.id)  # fails here for an unusable device
        stack = getattr(_replaced_devices, "stack", None)
        if stack is None:
            stack = _replaced_devices.stack = []
        stack.append(previous)
        return self

    def __exit__(self, *exc):
        _core.set_default_device(_replaced_devices.stack.pop())
        return False

    def __int__(self):
        return self.id

    def __index__(self):
        return self.id

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self):
        return hash(("cuda", self.id))

    def __repr__(self):
        return f"<CUDA Device {self.id}>"


class MemoryPool:
    """The device memory pool of the current GPU, as ``cupy.cuda.MemoryPool``: the driver's
    stream-ordered pool with copper's accounting. Freed blocks stay cached for reuse."""

    def used_bytes(self):
        """Bytes held by live arrays."""
        return memory_stats()["used"]

    def free_bytes(self):
        """Bytes the pool keeps cached for reuse."""
        return memory_stats()["cached"]

    def total_bytes(self):
        """Bytes the pool holds: used plus cached."""
        stats = memory_stats()
        return stats["used"] + stats["cached"]

    def free_all_blocks(self, stream=None):
        """Returns cached blocks to the driver (after the device finishes its work)."""
        free_all_blocks()

    def set_limit(self, size=None, fraction=None):
        """Caps the bytes arrays may hold: `size` bytes, or `fraction` of the device's memory;
        neither (or 0) removes the cap."""
        if size is not None and fraction is not None:
            raise ValueError("size and fraction cannot be specified at the same time")
        if fraction is not None:
            if not 0 <= fraction <= 1:
                raise ValueError(f"fraction must be between 0 and 1, got {fraction}")
            size = int(memory_stats()["total"] * fraction)
        set_memory_limit(0 if size is None else size)

    def get_limit(self):
        """The limit in effect, in bytes (the device's total memory when none was set)."""
        return memory_stats()["limit"]

    def __repr__(self):
        return "<copper.cuda.MemoryPool>"


_default_memory_pool = MemoryPool()


def get_default_memory_pool():
    """The memory pool GPU arrays come from (one object for all devices; it acts on the
    current one, as CuPy's does)."""
    return _default_memory_pool


def _get_device_count():
    """The number of GPUs; unlike CuPy's it answers 0 (not an error) without a driver."""
    return device_count()


def _set_device(device):
    """Makes GPU ``device`` the default device of the calling thread (new arrays, kernels)."""
    Device(device).use()


# The few ``cupy.cuda.runtime`` calls scripts use most, under their CUDA names.
runtime = types.SimpleNamespace(
    getDeviceCount=_get_device_count,
    getDevice=current_device,
    setDevice=_set_device,
    getDeviceProperties=lambda device: _cuda.device_properties(device),
    deviceCanAccessPeer=lambda device, peer: int(_cuda.can_access_peer(device, peer)),
    deviceSynchronize=lambda: synchronize(),
)

# ``cupy.cuda.device``: the module CuPy keeps its Device class in.
device = types.SimpleNamespace(Device=Device)

# ``cupy.cuda.cufft``: the plan classes (those copper.fft.config's caches hold and those
# copper.x.scipy.fftpack.get_fft_plan makes), cuFFT's type constants, the `with plan:` one.
def _cufft_namespace():
    from copper.fft import _plans
    return types.SimpleNamespace(
        Plan1d=_plans.Plan1d, PlanNd=_plans.PlanNd, get_current_plan=_plans.get_current_plan,
        CUFFT_FORWARD=-1, CUFFT_INVERSE=1,
        **{k: v for k, v in vars(_plans).items() if k.startswith("CUFFT_")})


cufft = _cufft_namespace()


# ---- CuPy's allocator surface (issue 14): malloc, pinned host memory, set_allocator ----
# copper has one device allocator (the driver's stream-ordered pool with copper's
# accounting); these objects expose it in CuPy's shape. Custom allocators cannot replace
# it: set_allocator accepts None or a copper pool's malloc, and says so otherwise.

def _malloc(self, size):
    """A block of `size` bytes on the current device, as CuPy's MemoryPool.malloc: a
    MemoryPointer that keeps the block alive."""
    import copper
    return copper.empty(int(size), dtype=copper.uint8).data


def _pool_init(self, allocator=None):
    if allocator is not None:
        raise NotImplementedError("copper's MemoryPool has one allocator (the driver's stream-ordered pool); "
                                  "custom allocators (e.g. malloc_managed) are not supported")


def _n_free_blocks(self):
    """The driver's pool does not report cached blocks one by one: 0 once freed, else 1 if
    bytes are cached (0 without a GPU, whose CPU device caches nothing)."""
    if not is_available():
        return 0
    return 1 if self.free_bytes() else 0


MemoryPool.__init__ = _pool_init
MemoryPool.malloc = _malloc
MemoryPool.n_free_blocks = _n_free_blocks


class PinnedMemoryPointer(bytearray):
    """Host memory from alloc_pinned_memory / PinnedMemoryPool.malloc, as CuPy's
    PinnedMemoryPointer: a buffer NumPy can wrap (numpy.frombuffer), with .ptr and .size.
    It is ordinary host memory: copper stages host transfers through its own pinned buffers."""

    @property
    def ptr(self):
        import ctypes
        return ctypes.addressof((ctypes.c_char * len(self)).from_buffer(self)) if len(self) else 0

    @property
    def size(self):
        return len(self)

    def __repr__(self):
        return f"<copper.cuda.PinnedMemoryPointer {self.size} bytes>"


class PinnedMemoryPool:
    """CuPy's PinnedMemoryPool: hands out host buffers (PinnedMemoryPointer); nothing is cached."""

    def __init__(self, allocator=None):
        if allocator is not None:
            raise NotImplementedError("copper's PinnedMemoryPool takes no custom allocator")

    def malloc(self, size):
        return PinnedMemoryPointer(int(size))

    def free_all_blocks(self):
        """Nothing is cached, so nothing to free."""

    def n_free_blocks(self):
        return 0

    def __repr__(self):
        return "<copper.cuda.PinnedMemoryPool>"


_default_pinned_memory_pool = PinnedMemoryPool()


def get_default_pinned_memory_pool():
    """The pool alloc_pinned_memory draws from."""
    return _default_pinned_memory_pool


# What alloc_pinned_memory calls (set_pinned_memory_allocator); None: no pool.
_pinned_allocator = _default_pinned_memory_pool.malloc


def alloc_pinned_memory(size):
    """`size` bytes of host memory for staging transfers (CuPy's alloc_pinned_memory), from
    the allocator set_pinned_memory_allocator chose."""
    if _pinned_allocator is None:
        return PinnedMemoryPointer(int(size))
    return _pinned_allocator(size)


def _is_copper_malloc(allocator, pool_type):
    return getattr(allocator, "__func__", None) is getattr(pool_type, "malloc", None) and \
        isinstance(getattr(allocator, "__self__", None), pool_type)


def set_allocator(allocator=None):
    """CuPy's set_allocator: copper keeps its one pool, so None (CuPy's "no pool": cached
    blocks are returned to the driver) and a copper MemoryPool's malloc are accepted;
    other allocators raise NotImplementedError."""
    if allocator is None:
        free_all_blocks()
    elif not _is_copper_malloc(allocator, MemoryPool):
        raise NotImplementedError("copper cannot use a custom device allocator; pass None or a "
                                  "copper.cuda.MemoryPool().malloc")


@contextlib.contextmanager
def using_allocator(allocator=None):
    """CuPy's using_allocator: the device allocator for the ``with`` block. copper keeps its one
    pool, so as for set_allocator, None and a copper MemoryPool's malloc are accepted (and
    change nothing) and other allocators raise NotImplementedError."""
    if allocator is not None and not _is_copper_malloc(allocator, MemoryPool):
        set_allocator(allocator)  # raises NotImplementedError, with the reason
    yield


def set_pinned_memory_allocator(allocator=None):
    """CuPy's set_pinned_memory_allocator: the function alloc_pinned_memory calls (None: no
    pool). copper's own transfers stage through their own pinned buffers, so as in CuPy an
    allocator that fails (returns None) does not stop asarray or get."""
    global _pinned_allocator
    if allocator is not None and not callable(allocator):
        raise TypeError("the pinned memory allocator must be callable or None")
    _pinned_allocator = allocator


# ``cupy.cuda.stream``, ``cupy.cuda.memory``, ``cupy.cuda.pinned_memory``: the modules CuPy keeps these in.
stream = types.SimpleNamespace(Stream=Stream, Event=Event, get_current_stream=get_current_stream,
                               get_elapsed_time=get_elapsed_time)
memory = types.SimpleNamespace(MemoryPool=MemoryPool, set_allocator=set_allocator, OutOfMemoryError=OutOfMemoryError,
                               using_allocator=using_allocator)
pinned_memory = types.SimpleNamespace(PinnedMemoryPool=PinnedMemoryPool, PinnedMemoryPointer=PinnedMemoryPointer,
                                      alloc_pinned_memory=alloc_pinned_memory,
                                      set_pinned_memory_allocator=set_pinned_memory_allocator)
__all__ += ["PinnedMemoryPool", "PinnedMemoryPointer", "alloc_pinned_memory", "get_default_pinned_memory_pool",
            "set_allocator", "set_pinned_memory_allocator", "stream", "memory", "pinned_memory", "using_allocator"]
