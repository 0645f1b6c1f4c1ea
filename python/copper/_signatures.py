"""``inspect.signature`` for copper's C++ functions. nanobind's function objects are not
inspectable (their type is immutable and has no ``__signature__``), so ``help()``, IDEs and
the array API suite's signature tests could not see their parameters. Each public one with a
single signature is wrapped in a Python function that forwards every call unchanged and
carries the signature that nanobind records (``__nb_signature__``): parameter names, kinds
and the real default values."""
import ast
import inspect

__all__ = ["make_inspectable", "make_methods_inspectable"]

_KINDS = inspect.Parameter


def _split_top_level(text):
    """The comma-separated items of a parameter list, ignoring commas inside brackets."""
    items, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            items.append(text[start:i].strip())
            start = i + 1
    last = text[start:].strip()
    if last:
        items.append(last)
    return items


def _default(text, defaults):
    if text.startswith("\\"):  # nanobind's placeholder for the k-th default value
        return defaults[int(text[1:])]
    return ast.literal_eval(text)


def signature_of(fn):
    """fn's inspect.Signature from nanobind's record, or None (overloads, unparsable text)."""
    record = getattr(fn, "__nb_signature__", None)
    if not record or len(record) != 1:
        return None
    text, _doc, defaults = record[0]
    open_at, close_at = text.find("("), text.rfind(")")
    if open_at < 0 or close_at < open_at:
        return None
    params, kind = [], _KINDS.POSITIONAL_OR_KEYWORD
    try:
        for item in _split_top_level(text[open_at + 1:close_at]):
            if item == "/":
                params = [p.replace(kind=_KINDS.POSITIONAL_ONLY) for p in params]
                continue
            if item == "*":
                kind = _KINDS.KEYWORD_ONLY
                continue
            if item.startswith("**"):
                params.append(_KINDS(item[2:].split(":")[0].strip(), _KINDS.VAR_KEYWORD))
                continue
            if item.startswith("*"):
                params.append(_KINDS(item[1:].split(":")[0].strip(), _KINDS.VAR_POSITIONAL))
                kind = _KINDS.KEYWORD_ONLY
                continue
            head, eq, default_text = item.partition("=")
            name = head.split(":")[0].strip()
            default = _default(default_text.strip(), defaults) if eq else _KINDS.empty
            params.append(_KINDS(name, kind, default=default))
        return inspect.Signature(params)
    except (ValueError, SyntaxError, IndexError, TypeError):
        return None


def make_inspectable(namespace, module_name):
    """Replaces each single-signature nanobind function in ``namespace`` (a module's dict)
    by a forwarding Python function with its signature; Python wrappers of such functions
    (functools.wraps) get the signature too."""
    for name, fn in list(namespace.items()):
        if name.startswith("_") or not callable(fn) or isinstance(fn, type):
            continue
        if type(fn).__name__ == "nb_func":
            sig = signature_of(fn)
            if sig is not None:
                namespace[name] = _forwarding(fn, sig, module_name)
        elif inspect.isfunction(fn) and type(getattr(fn, "__wrapped__", None)).__name__ == "nb_func":
            sig = signature_of(fn.__wrapped__)
            if sig is not None:
                fn.__signature__ = sig


def make_methods_inspectable(cls, names):
    """The same for the named methods of a nanobind class (each call goes through one
    Python function more, so only for methods whose signature callers inspect)."""
    for name in names:
        fn = cls.__dict__.get(name)
        sig = signature_of(fn) if fn is not None else None
        if sig is not None:
            setattr(cls, name, _forwarding(fn, sig, cls.__module__))


def _forwarding(fn, sig, module_name):
    def forward(*args, **kwargs):
        return fn(*args, **kwargs)
    forward.__name__ = forward.__qualname__ = fn.__name__
    forward.__module__ = module_name
    forward.__doc__ = fn.__doc__
    forward.__signature__ = sig
    return forward
