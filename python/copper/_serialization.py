"""copper arrays leaving the process or named by Dask: pickling (Dask's distributed
workers, multiprocessing; NumPy's dump, dumps), tofile, and Dask's tokens.

Pickling sends the values as a NumPy array (pickle protocol 5 sends its buffer out of
band, without a further copy) with the device name; unpickling puts them back on that
device, or on the default device where that one does not exist (a GPU array read on a
machine without that GPU)."""
import os
import pickle

from copper import _core


def _rebuild(host, device):
    try:
        return _core.asarray(host, device=_core.Device(device))
    except (RuntimeError, ValueError):
        return _core.asarray(host)


def _reduce(self):
    return _rebuild, (self.get(), str(self.device))


def _dask_tokenize(self):
    """Names the array by identity and layout, not by value: hashing the values (Dask's
    fallback, through pickle) would copy a GPU array to the host."""
    return ("copper.ndarray", id(self), self.data_ptr, self.shape, self.strides, self.dtype.str, str(self.device))


def _dumps(self):
    """NumPy's ndarray.dumps: the pickle of the array, as bytes (pickle.loads gives it back)."""
    return pickle.dumps(self, protocol=pickle.HIGHEST_PROTOCOL)


def _dump(self, file):
    """NumPy's ndarray.dump: the pickle of the array into `file` (a path or a binary file)."""
    if isinstance(file, (str, os.PathLike)):
        with open(file, "wb") as f:
            pickle.dump(self, f, protocol=pickle.HIGHEST_PROTOCOL)
    else:
        pickle.dump(self, file, protocol=pickle.HIGHEST_PROTOCOL)


def _tofile(self, fid, sep="", format="%s"):
    """NumPy's ndarray.tofile: the values in C order, as binary (sep='') or text, through
    a host copy (CuPy's too)."""
    self.get().tofile(fid, sep=sep, format=format)


_core.ndarray.__reduce__ = _reduce
_core.ndarray.__dask_tokenize__ = _dask_tokenize
_core.ndarray.dumps = _dumps
_core.ndarray.dump = _dump
_core.ndarray.tofile = _tofile
