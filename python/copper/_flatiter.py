"""ndarray.flat: CuPy's flatiter, argument shaping over ravel (reads) and put (writes).

Like CuPy's, it takes integers, slices and Ellipsis; other keys raise IndexError.
Positions are in C order of the array whatever its layout; assigned values repeat to
fill the selected positions, as NumPy's flat assignment does.
"""
import numbers

from copper import _core

__all__ = ["flatiter"]


class flatiter:
    def __init__(self, a):
        self._base = a
        self._index = 0

    @property
    def base(self):
        return self._base

    def __len__(self):
        return self._base.size

    def __iter__(self):
        return self

    def __next__(self):
        if self._index >= self._base.size:
            raise StopIteration
        value = _core.ravel(self._base)[self._index]
        self._index += 1
        return value

    def copy(self):
        return self._base.flatten()

    def _positions(self, key):
        n = self._base.size
        if key is Ellipsis:
            key = slice(None)
        if isinstance(key, slice):
            return _core.arange(*key.indices(n), dtype="int64", device=self._base.device)
        if isinstance(key, numbers.Integral) and not isinstance(key, bool):
            if not -n <= key < n:
                raise IndexError(f"index {key} is out of bounds for size {n}")
            return key % n
        raise IndexError("unsupported iterator index")

    def __getitem__(self, key):
        positions = self._positions(key)
        flat = _core.ravel(self._base)
        return flat[positions] if isinstance(positions, int) else _core.take(flat, positions)

    def __setitem__(self, key, value):
        positions = self._positions(key)
        if isinstance(positions, int):
            positions = [positions]
        _core.put(self._base, positions, value)
