"""A fusion graph evaluated by copper's own eager operations, block by block: the CPU
path of copper.fuse when no kernel is compiled (compiling a kernel per dtype combination
costs the host compiler about a second each). Each node is the eager call it was traced
from, so values and dtypes are the eager ones; elementwise graphs over large arrays run
on blocks of the leading axis, so intermediates stay in cache."""
import numpy as _np

from copper import _core
from copper._fusion_graph import INPUT, UFUNC, CAST, WHERE, REDUCE, topological

BLOCK_ELEMENTS = 1 << 18  # elements per block of an elementwise graph


def _node_value(node, args):
    if node.op == UFUNC:
        return getattr(_core, node.attr[3])(*args)
    if node.op == CAST:
        (a,) = args
        if isinstance(a, _core.ndarray):
            return a.astype(node.dtype)
        return _core.asarray(node.dtype.type(a) if node.args[0].weak is None else a, dtype=node.dtype)
    if node.op == WHERE:
        return _core.where(*args)
    if node.op == REDUCE:
        kind, axes, keepdims, _ = node.attr
        (a,) = args
        if kind in ("sum", "prod", "nansum", "nanprod"):
            return getattr(_core, kind)(a, axis=axes, dtype=node.dtype, keepdims=keepdims)
        return getattr(_core, kind)(a, axis=axes, keepdims=keepdims)
    raise AssertionError(node.op)


def evaluate(outputs, values):
    """The values of ``outputs`` (nodes), given ``values``: id(input node) -> its value (an
    array, a NumPy scalar, or a weak Python scalar)."""
    done = {}
    for node in topological(list(outputs)):
        if node.op == INPUT:
            done[id(node)] = values[id(node)]
        else:
            v = _node_value(node, [done[id(a)] for a in node.args])
            if isinstance(v, _core.ndarray) and v.dtype != node.dtype:
                v = v.astype(node.dtype)
            done[id(node)] = v
    return [done[id(n)] for n in outputs]


def _write(target, value):
    """A node's value into its output (already of the output's dtype, but for scalars)."""
    if isinstance(value, _core.ndarray) and value.dtype == target.dtype:
        _core.copyto(target, value)
    else:
        _core.copyto(target, value, casting="unsafe")


def _evaluate_block(outputs, values, buffers, rows):
    """``evaluate`` for one block, computing array nodes into ``buffers`` (id -> array of the
    full block's shape, made at the first block): no allocation per block."""
    done = {}
    for node in topological(list(outputs)):
        if node.op == INPUT:
            done[id(node)] = values[id(node)]
            continue
        args = [done[id(a)] for a in node.args]
        if node.op not in (UFUNC, CAST) or not any(isinstance(a, _core.ndarray) for a in args):
            done[id(node)] = evaluate([node], {id(a): v for a, v in zip(node.args, args)})[0]
            continue
        buf = buffers.get(id(node))
        if buf is None:
            like = next(a for a in args if isinstance(a, _core.ndarray))
            buf = buffers[id(node)] = _core.empty(like.shape, node.dtype, device=like.device)
        out = buf[:rows]
        if node.op == CAST:
            _core.copyto(out, args[0], casting="unsafe")
        else:
            getattr(_core, node.attr[3])(*args, out=out)
        done[id(node)] = out
    return [done[id(n)] for n in outputs]


def run_elementwise(inputs, values, outputs, targets, shape):
    """Writes ``outputs`` (nodes of ``shape``) into ``targets`` (arrays of ``shape``), block
    by block of the leading axis; every block reads its inputs before it writes."""
    row_size = int(_np.prod(shape[1:], dtype=_np.int64)) if shape else 1
    if not shape or shape[0] * row_size <= BLOCK_ELEMENTS:
        results = evaluate(outputs, dict(zip(map(id, inputs), values)))
        for target, value in zip(targets, results):
            _write(target, value)
        return
    step = max(1, BLOCK_ELEMENTS // max(row_size, 1))
    buffers = {}
    for r in range(0, shape[0], step):
        rows = slice(r, r + step)
        block = {id(n): (_core.broadcast_to(v, shape)[rows] if isinstance(v, _core.ndarray) else v)
                 for n, v in zip(inputs, values)}
        results = _evaluate_block(outputs, block, buffers, min(step, shape[0] - r))
        for target, value in zip(targets, results):
            _write(target[rows], value)


def run_reduction(inputs, values, output, reduce_node, target):
    """Writes ``output`` (a reduction of elementwise work, then elementwise work with
    scalars) into ``target``: in blocks of the leading axis when the reduction keeps it, so
    the premap's intermediates stay in cache; else in one piece."""
    axes = reduce_node.attr[1]
    shape = reduce_node.args[0].shape
    row_size = int(_np.prod(shape[1:], dtype=_np.int64)) if shape else 1
    if not shape or 0 in axes or shape[0] * row_size <= BLOCK_ELEMENTS:
        _write(target, evaluate([output], dict(zip(map(id, inputs), values)))[0])
        return
    step = max(1, BLOCK_ELEMENTS // max(row_size, 1))
    for r in range(0, shape[0], step):
        rows = slice(r, r + step)
        block = {id(n): (_core.broadcast_to(v, shape)[rows] if isinstance(v, _core.ndarray) else v)
                 for n, v in zip(inputs, values)}
        _write(target[rows], evaluate([output], block)[0])
