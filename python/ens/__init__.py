"""ens: ensembles of neural networks, compiled.

The Python face of ens's C++ API (include/ens/ens.h): parse a module of the
ens IR, transform it (``vmap``, ``value_and_grad``), compile a function for
``cpu``, ``cuda``, ``cuda-emu`` or ``interp`` and run it on any DLPack
array (NumPy, PyTorch, JAX, CuPy), read and written in place. Every failure
raises :class:`ens.Error` with ens's message. See docs/python.md.
"""

from ._ens import (
    Context,
    Error,
    Executable,
    FunctionBuilder,
    Module,
    Scalar,
    Signature,
    TensorType,
    Value,
    data_pointer,
)

__all__ = [
    "Context",
    "Error",
    "Executable",
    "Function",
    "FunctionBuilder",
    "Module",
    "Scalar",
    "Signature",
    "TensorType",
    "Value",
    "compile",
    "data_pointer",
]

_default_context = None


def _context():
    """The Context that :func:`compile` parses into, made on first use."""
    global _default_context
    if _default_context is None:
        _default_context = Context()
    return _default_context


class Function:
    """A function of a module compiled for one target, called like Python.

    A function with ``?`` sizes is compiled for the types of the arguments
    of each call; ens caches each specialisation, so a repeated shape costs
    nothing.
    """

    def __init__(self, module, entry, target="cpu", arg_types=None, **options):
        self.module = module
        self.entry = entry
        self.target = target
        self._options = options
        signature = module.signature(entry)
        static = all(-1 not in t.shape for t in signature.inputs)
        self._executable = None
        self._specialised = {}
        if arg_types is not None or static:
            self._executable = module.compile(entry, target, arg_types, **options)

    def executable(self, *args):
        """The Executable that a call on ``args`` runs."""
        if self._executable is not None:
            return self._executable
        types = [TensorType.of(a) for a in args]
        key = tuple(str(t) for t in types)
        executable = self._specialised.get(key)
        if executable is None:
            executable = self.module.compile(self.entry, self.target, types, **self._options)
            self._specialised[key] = executable
        return executable

    def __call__(self, *args, out=None):
        """Runs on ``args``; returns the one result or a tuple of them."""
        return self.executable(*args)(*args, out=out)


def compile(text, entry=None, target="cpu", arg_types=None, **options):
    """Parses ``text`` and compiles its function ``entry`` for ``target``.

    ``entry`` may be left out when the module has one function.
    ``arg_types`` (TensorTypes or arrays) fixes ``?`` sizes up front;
    ``options`` are :meth:`Module.compile`'s (``threads``, ...).
    """
    module = _context().parse(text)
    if entry is None:
        names = [n for n in module.function_names if not n.startswith("ens_stdlib_")]
        if len(names) != 1:
            raise Error(
                "the module has functions " + ", ".join(names) + "; name one with entry="
            )
        entry = names[0]
    return Function(module, entry, target, arg_types, **options)
