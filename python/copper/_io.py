"""NumPy's file and buffer I/O for copper arrays, through the host.

Files, bytes and text are host objects: NumPy parses and writes them (its .npy/.npz and
text formats exactly), and copper moves the data to or from the device in one transfer.
Readers take a keyword-only ``device=`` (default: the current default device). This stays
in Python: the work is host-side parsing that NumPy already does, with no device part.
"""
import numpy as _np

from copper import _core

ndarray = _core.ndarray

__all__ = [
    "save", "load", "savez", "savez_compressed", "savetxt", "loadtxt", "genfromtxt",
    "fromfile", "frombuffer", "fromstring", "fromregex", "fromiter", "fromfunction",
]


def _host(a):
    """A NumPy array of `a` (copper arrays are copied to the host; anything else as NumPy reads it)."""
    return a.get() if isinstance(a, ndarray) else a


def _to_device(a, device):
    import copper
    return copper.asarray(a, device=device)


def save(file, arr, allow_pickle=True):
    """numpy.save of a copper (or NumPy) array, in NumPy's .npy format."""
    _np.save(file, _host(arr), allow_pickle=allow_pickle)


def savez(file, *args, allow_pickle=True, **kwds):
    """numpy.savez: several arrays in one uncompressed .npz archive."""
    _np.savez(file, *[_host(a) for a in args], allow_pickle=allow_pickle,
              **{k: _host(v) for k, v in kwds.items()})


def savez_compressed(file, *args, allow_pickle=True, **kwds):
    """numpy.savez_compressed: several arrays in one compressed .npz archive."""
    _np.savez_compressed(file, *[_host(a) for a in args], allow_pickle=allow_pickle,
                         **{k: _host(v) for k, v in kwds.items()})


class NpzFile:
    """An open .npz archive whose members load as copper arrays (NumPy's NpzFile API:
    ``files``, ``keys()``, ``[name]``, ``close()``, a context manager)."""

    def __init__(self, npz, device):
        self.npz = npz
        self.files = npz.files
        self._device = device

    def __getitem__(self, key):
        return _to_device(self.npz[key], self._device)

    def __contains__(self, key):
        return key in self.npz

    def __iter__(self):
        return iter(self.files)

    def __len__(self):
        return len(self.files)

    def keys(self):
        return self.npz.keys()

    def values(self):
        return [self[k] for k in self.files]

    def items(self):
        return [(k, self[k]) for k in self.files]

    def get(self, key, default=None):
        return self[key] if key in self.npz else default

    def close(self):
        self.npz.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self):
        return f"<copper NpzFile {self.files}>"


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII", *,
         max_header_size=10000, device=None):
    """numpy.load: a .npy file gives a copper array, a .npz archive an NpzFile of copper
    arrays; pickles (allow_pickle=True) come back as the objects they hold. mmap_mode maps
    the file on the host, then copies it to the device."""
    obj = _np.load(file, mmap_mode=mmap_mode, allow_pickle=allow_pickle, fix_imports=fix_imports,
                   encoding=encoding, max_header_size=max_header_size)
    if isinstance(obj, _np.lib.npyio.NpzFile):
        return NpzFile(obj, device)
    if isinstance(obj, _np.ndarray):
        return _to_device(obj, device)
    return obj


def savetxt(fname, X, fmt="%.18e", delimiter=" ", newline="\n", header="", footer="", comments="# ",
            encoding=None):
    """numpy.savetxt of a copper (or NumPy) array."""
    _np.savetxt(fname, _host(X), fmt=fmt, delimiter=delimiter, newline=newline, header=header,
                footer=footer, comments=comments, encoding=encoding)


def _unpacked(result, unpack, device):
    if unpack:
        return tuple(_to_device(r, device) for r in result) if isinstance(result, (tuple, list)) else \
            _to_device(result, device)
    return _to_device(result, device)


def loadtxt(fname, dtype=float, comments="#", delimiter=None, converters=None, skiprows=0, usecols=None,
            unpack=False, ndmin=0, encoding=None, max_rows=None, *, quotechar=None, like=None, device=None):
    """numpy.loadtxt, returning a copper array (arrays when unpack=True). ``like`` is accepted for
    NumPy's signature and ignored."""
    result = _np.loadtxt(fname, dtype=dtype, comments=comments, delimiter=delimiter, converters=converters,
                         skiprows=skiprows, usecols=usecols, unpack=unpack, ndmin=ndmin, encoding=encoding,
                         max_rows=max_rows, quotechar=quotechar)
    return _unpacked(result, unpack, device)


def genfromtxt(fname, dtype=float, comments="#", delimiter=None, skip_header=0, skip_footer=0, converters=None,
               missing_values=None, filling_values=None, usecols=None, names=None, excludelist=None,
               deletechars=" !#$%&'()*+,-./:;<=>?@[\\]^{|}~", replace_space="_", autostrip=False,
               case_sensitive=True, defaultfmt="f%i", unpack=None, usemask=False, loose=True, invalid_raise=True,
               max_rows=None, encoding=None, *, ndmin=0, like=None, device=None):
    """numpy.genfromtxt, returning a copper array. copper has no masked arrays, so
    usemask=True raises NotImplementedError; structured results (names=...) cannot live on
    a copper device either."""
    if usemask:
        raise NotImplementedError("copper has no masked arrays: genfromtxt(usemask=True) is not supported")
    result = _np.genfromtxt(fname, dtype=dtype, comments=comments, delimiter=delimiter, skip_header=skip_header,
                            skip_footer=skip_footer, converters=converters, missing_values=missing_values,
                            filling_values=filling_values, usecols=usecols, names=names, excludelist=excludelist,
                            deletechars=deletechars, replace_space=replace_space, autostrip=autostrip,
                            case_sensitive=case_sensitive, defaultfmt=defaultfmt, unpack=unpack, usemask=False,
                            loose=loose, invalid_raise=invalid_raise, max_rows=max_rows, encoding=encoding,
                            ndmin=ndmin)
    return _unpacked(result, unpack, device)


def fromfile(file, dtype=float, count=-1, sep="", offset=0, *, like=None, device=None):
    """numpy.fromfile: binary (sep='') or text data from a file, as a copper array."""
    return _to_device(_np.fromfile(file, dtype=dtype, count=count, sep=sep, offset=offset), device)


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None, device=None):
    """numpy.frombuffer: a copper array copied from the bytes of a buffer-protocol object
    (NumPy's result is a view of the buffer; a copper array always owns device memory)."""
    return _to_device(_np.frombuffer(buffer, dtype=dtype, count=count, offset=offset), device)


def fromstring(string, dtype=float, count=-1, *, sep, like=None, device=None):
    """numpy.fromstring: numbers parsed from text separated by `sep`."""
    return _to_device(_np.fromstring(string, dtype=dtype, count=count, sep=sep), device)


def fromregex(file, regexp, dtype, encoding=None, *, device=None):
    """numpy.fromregex: the groups a regular expression matches in a file, as a copper array."""
    return _to_device(_np.fromregex(file, regexp, dtype, encoding=encoding), device)


def fromiter(iter, dtype, count=-1, *, like=None, device=None):  # noqa: A002 (NumPy's name)
    """numpy.fromiter: a 1-D copper array of the values an iterable yields (gathered on the host)."""
    return _to_device(_np.fromiter(iter, dtype=dtype, count=count), device)


def fromfunction(function, shape, *, dtype=float, like=None, device=None, **kwargs):
    """numpy.fromfunction: calls function(*indices) with copper index arrays of `shape`
    (each of `dtype`), on the device, and returns what it returns."""
    import copper
    grids = copper.indices(tuple(shape), dtype=dtype)
    if device is not None:
        grids = copper.asarray(grids, device=device)
    return function(*grids, **kwargs)
