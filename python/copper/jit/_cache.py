"""Translations kept on disk, so a fresh process launching a kernel it has run before
skips the translation (a few ms) as the compiled code already skips NVRTC.

Key: the translator's own source, Python's and NumPy's versions, the function's code
object (marshal: bytecode, constants, names, file and lines) and the argument signature.
A translation also depends on the globals it read: each is stored with a description of
its value (numbers by value, modules and functions of math/NumPy/copper by name) and
checked on load; a translation that read anything it cannot describe (a Python function
called as a device function, an attribute of another module) is not stored."""
import hashlib
import json
import marshal
import os
import sys
import tempfile
import types

import numpy as np

from copper.jit import _intrinsics

_STABLE_MODULES = ("math", "numpy", "copper", "builtins")
_translator_digest = None


def directory():
    """$COPPER_CACHE_DIR/jit, with the kernel cache's own fallbacks (XDG, ~/.cache)."""
    base = os.environ.get("COPPER_CACHE_DIR")
    if not base:
        xdg, home = os.environ.get("XDG_CACHE_HOME"), os.environ.get("HOME")
        base = os.path.join(xdg, "copper", "kernels") if xdg else \
            os.path.join(home, ".cache", "copper", "kernels") if home else \
            os.path.join(tempfile.gettempdir(), "copper-kernels")
    return os.path.join(base, "jit")


def _translator():
    global _translator_digest
    if _translator_digest is None:
        h = hashlib.sha256(f"{sys.version}|{np.__version__}".encode())
        here = os.path.dirname(os.path.abspath(__file__))
        files = [os.path.join(here, n) for n in sorted(os.listdir(here)) if n.endswith(".py")]
        for path in files + [os.path.join(here, "..", "_vectorize.py")]:
            with open(path, "rb") as f:
                h.update(os.path.basename(path).encode() + f.read())
        _translator_digest = h.hexdigest()
    return _translator_digest


def stable_module(obj):
    return isinstance(obj, types.ModuleType) and obj.__name__.split(".")[0] in _STABLE_MODULES


def describe(value):
    """A text naming `value` as the translation used it, or None when it cannot be named."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return f"{type(value).__name__}:{value!r}"
    if isinstance(value, np.generic):
        return f"np:{value.dtype.str}:{value!r}"
    if isinstance(value, tuple):
        parts = [describe(v) for v in value]
        return None if None in parts else "tuple:(" + ",".join(parts) + ")"
    if isinstance(value, types.ModuleType):
        return "module:" + value.__name__ if stable_module(value) else None
    if isinstance(value, _intrinsics.Intrinsic):
        return f"intrinsic:{value.name}:{value.kind}"
    if isinstance(value, types.SimpleNamespace):  # copper.jit.cuda.shared / local / atomic
        from copper.jit import cuda
        for name in ("shared", "local", "atomic"):
            if value is getattr(cuda, name):
                return "cuda." + name
        return None
    if isinstance(value, np.dtype):
        return "dtype:" + value.str
    module = getattr(value, "__module__", None) or type(value).__module__ or ""
    name = getattr(value, "__qualname__", None) or getattr(value, "__name__", None)
    if name and module.split(".")[0] in _STABLE_MODULES and not isinstance(value, types.FunctionType):
        return f"obj:{module}:{name}"
    return None


def resolve(func, name):
    """What `name` means in `func`'s closure, globals or builtins (a KeyError if nothing)."""
    if func.__closure__ and name in func.__code__.co_freevars:
        return func.__closure__[func.__code__.co_freevars.index(name)].cell_contents
    if name in func.__globals__:
        return func.__globals__[name]
    import builtins
    return getattr(builtins, name)


class Recorder:
    """The globals a translation read; `cacheable` turns False at the first it cannot name."""

    def __init__(self):
        self.lookups = {}
        self.cacheable = True

    def note(self, name, value):
        text = describe(value)
        if text is None:
            self.cacheable = False
        else:
            self.lookups[name] = text


def _path(func, key):
    h = hashlib.sha256(_translator().encode())
    h.update(marshal.dumps(func.__code__))
    h.update(repr(key).encode())
    return os.path.join(directory(), h.hexdigest()[:40] + ".json")


def load(func, key):
    """The stored payload of `func`'s translation for `key`, if its globals still match."""
    try:
        with open(_path(func, key)) as f:
            entry = json.load(f)
        for name, text in entry["lookups"].items():
            if describe(resolve(func, name)) != text:
                return None
        return entry["payload"]
    except (OSError, ValueError, KeyError, AttributeError, TypeError):
        return None


def store(func, key, recorder, payload):
    if not recorder.cacheable or os.environ.get("COPPER_JIT_NO_DISK_CACHE"):
        return
    path = _path(func, key)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            json.dump({"lookups": recorder.lookups, "payload": payload}, f)
        os.replace(tmp, path)  # readers see the whole file or none
    except OSError:
        pass  # a read-only cache directory: translate again next time
