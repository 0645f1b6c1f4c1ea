"""copper arrays leaving the process or named by Dask: pickling (Dask's distributed
workers, multiprocessing) and Dask's tokens.

Pickling sends the values as a NumPy array (pickle protocol 5 sends its buffer out of
band, without a further copy) with the device name; unpickling puts them back on that
device, or on the default device where that one does not exist (a GPU array read on a
machine without that GPU)."""
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


_core.ndarray.__reduce__ = _reduce
_core.ndarray.__dask_tokenize__ = _dask_tokenize
