"""CuPy's user-defined kernels: ``ElementwiseKernel`` and ``ReductionKernel``.

The kernel code is CUDA C++ as CuPy's; copper compiles it with NVRTC for a GPU and with
the system C++ compiler (c++/g++, or ``$COPPER_CXX``) for the CPU, caching both in
memory and on disk (``$COPPER_CACHE_DIR``). Argument shaping only: the logic is C++.
"""
import contextlib

from copper import _core

__all__ = ["ElementwiseKernel", "ReductionKernel"]


def _stream_scope(stream):
    return contextlib.nullcontext() if stream is None else stream


class ElementwiseKernel:
    """User-defined elementwise kernel (``cupy.ElementwiseKernel``).

    ``in_params``/``out_params`` are comma-separated ``[raw] TYPE NAME`` entries where
    TYPE is a NumPy dtype name or a type placeholder resolved from the arguments;
    ``operation`` is the loop body, with ``i`` the element index and ``_ind.size()``
    the number of elements.
    """

    def __init__(self, in_params, out_params, operation, name="kernel", reduce_dims=True, preamble="",
                 no_return=False, return_tuple=False, **kwargs):
        loop_prep = kwargs.pop("loop_prep", "")
        after_loop = kwargs.pop("after_loop", "")
        options = kwargs.pop("options", ())
        if kwargs:
            raise TypeError("ElementwiseKernel got unexpected keyword arguments: " + ", ".join(sorted(kwargs)))
        self._kernel = _core._ElementwiseKernel(in_params, out_params, operation, name, bool(reduce_dims), preamble,
                                                loop_prep, after_loop, options)
        self.in_params = in_params
        self.out_params = out_params
        self.operation = operation
        self.name = self.__name__ = name
        self.preamble = preamble
        self.reduce_dims = reduce_dims
        self.no_return = no_return
        self.return_tuple = return_tuple
        self.nin = self._kernel.nin
        self.nout = self._kernel.nout
        self.nargs = self.nin + self.nout

    def __call__(self, *args, size=None, block_size=None, stream=None):
        """Runs the kernel on inputs (then, optionally, every output); returns the outputs."""
        if block_size is not None and block_size <= 0:
            raise ValueError("block_size must be greater than zero")
        with _stream_scope(stream):
            outs = self._kernel._call(list(args), None if size is None else int(size))
        if self.nout and len(args) == self.nargs:
            outs = list(args[self.nin:])  # the caller's own objects, as CuPy returns them
        if self.no_return:
            return None
        if not self.return_tuple and self.nout == 1:
            return outs[0]
        return tuple(outs)

    def __repr__(self):
        return f"<ElementwiseKernel {self.name!r}>"


class ReductionKernel:
    """User-defined reduction kernel (``cupy.ReductionKernel``).

    ``map_expr`` maps the inputs of one element, ``reduce_expr`` combines two mapped
    values ``a`` and ``b``, ``post_map_expr`` writes the outputs from the result ``a``;
    ``identity`` (code, e.g. ``'0'``, or None) starts every reduction.
    """

    def __init__(self, in_params, out_params, map_expr, reduce_expr, post_map_expr, identity,
                 name="reduce_kernel", reduce_type=None, reduce_dims=True, preamble="", options=()):
        self._kernel = _core._ReductionKernel(in_params, out_params, map_expr, reduce_expr, post_map_expr,
                                              None if identity is None else str(identity), name, reduce_type,
                                              bool(reduce_dims), preamble, options)
        self.in_params = in_params
        self.out_params = out_params
        self.map_expr = map_expr
        self.reduce_expr = reduce_expr
        self.post_map_expr = post_map_expr
        self.identity = "" if identity is None else str(identity)
        self.name = self.__name__ = name
        self.reduce_type = reduce_type
        self.preamble = preamble
        self.options = options
        self.nin = self._kernel.nin
        self.nout = self._kernel.nout
        self.nargs = self.nin + self.nout

    def __call__(self, *args, out=None, axis=None, keepdims=False, stream=None):
        """Reduces the inputs over ``axis`` (None: all); returns the first output."""
        args = list(args)
        if len(args) != self.nin and len(args) != self.nargs:
            raise TypeError(f"Wrong number of arguments for {self.name}")
        if out is not None:
            if self.nout != 1:
                raise NotImplementedError("out= needs a ReductionKernel with one output; pass outputs positionally")
            if len(args) != self.nin:
                raise ValueError("cannot specify 'out' as both a positional and keyword argument")
            args.append(out)
        if axis is not None:
            axis = [int(axis)] if not isinstance(axis, (tuple, list)) else [int(a) for a in axis]
        with _stream_scope(stream):
            outs = self._kernel._call(args, axis, bool(keepdims))
        if self.nout and len(args) == self.nargs:
            outs = args[self.nin:]
        return outs[0] if outs else None

    def __repr__(self):
        return f"<ReductionKernel {self.name!r}>"
