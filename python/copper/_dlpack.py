"""copper.from_dlpack: the consumer side of the DLPack protocol (argument shaping only;
the capsule import and the stream hand-off are C++, python/src/bind_interop.cpp)."""
from copper import _core

_CPU, _CUDA, _CUDA_HOST, _CUDA_MANAGED = 1, 2, 3, 13
_MAX_VERSION = (1, 1)  # the newest DLPack copper reads


def _dl_device(device):
    """A copper device as DLPack's (device_type, device_id)."""
    d = _core.Device(device)
    return (_CPU, 0) if d.type == "cpu" else (_CUDA, d.id)


def _as_copper_device(dl_device):
    """Where copper puts memory of that DLPack device: pinned host memory is CPU memory,
    managed memory belongs to its GPU."""
    kind, index = dl_device
    if kind == _CUDA_HOST:
        return (_CPU, 0)
    if kind == _CUDA_MANAGED:
        return (_CUDA, index)
    return dl_device


def _consumer_stream(dl_device):
    """The stream the producer must order its work before: copper's current stream on
    that GPU (None for host memory)."""
    if dl_device[0] in (_CUDA, _CUDA_MANAGED):
        return _core._current_stream_protocol_handle(dl_device[1])
    return None


def _export(x, stream, dl_device, copy):
    """x.__dlpack__ with the newest arguments the producer takes; older producers take
    fewer keywords (TypeError), and those get the fallbacks below."""
    kwargs = {"stream": stream, "max_version": _MAX_VERSION}
    if dl_device is not None:
        kwargs["dl_device"] = dl_device
    if copy is not None:
        kwargs["copy"] = copy
    try:
        return x.__dlpack__(**kwargs), True
    except TypeError:
        pass
    try:
        return x.__dlpack__(stream=stream), False
    except TypeError:
        return x.__dlpack__(), False


def from_dlpack(x, /, *, device=None, copy=None):
    """An array sharing x's memory (no copy), from any object with ``__dlpack__`` and
    ``__dlpack_device__`` (NumPy, PyTorch, CuPy, JAX, copper), or from a DLPack capsule.

    ``device`` asks for the result on another device (a copy, refused with BufferError when
    ``copy=False``); ``copy=True`` always copies. On a GPU, the producer orders its pending
    work before copper's current stream, as the protocol defines.
    """
    if type(x).__name__ == "PyCapsule":  # CuPy's legacy fromDlpack(capsule)
        out = _core._from_dlpack_capsule(x)
        return out.copy() if copy else out
    if not hasattr(x, "__dlpack__"):
        raise TypeError(f"from_dlpack: {type(x).__name__} does not support the DLPack protocol (no __dlpack__)")
    src = tuple(x.__dlpack_device__())
    src = (int(src[0]), int(src[1]))
    want = None if device is None else _dl_device(device)
    cross = want is not None and want != _as_copper_device(src)
    if cross and copy is False:
        raise BufferError(f"from_dlpack: moving the data from DLPack device {src} to {want} needs a copy, "
                          "and copy=False forbids it")
    stream = _consumer_stream(want if cross else src)
    capsule, full = None, False
    if cross:
        try:  # the producer may copy to the target device itself
            capsule, full = _export(x, stream, want, copy)
        except (BufferError, NotImplementedError, ValueError):
            capsule = None
    if capsule is None:
        capsule, full = _export(x, _consumer_stream(src), None, copy)
    out = _core._from_dlpack_capsule(capsule)
    if device is not None and out.device != _core.Device(device):
        return _core.asarray(out, device=device)  # the producer could not: copper copies
    if copy and not full:
        return out.copy()
    return out


def fromDlpack(dltensor):
    """CuPy's deprecated spelling: from_dlpack of a capsule (ndarray.toDlpack's)."""
    import warnings

    import numpy as np
    warnings.warn("fromDlpack is deprecated; use copper.from_dlpack", np.exceptions.VisibleDeprecationWarning,
                  stacklevel=2)
    return from_dlpack(dltensor)
