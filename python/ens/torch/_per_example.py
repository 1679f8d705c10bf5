"""Per-example gradients of one module, as one compiled program."""

import torch

import ens

from ._ensemble import _TARGETS, _Loss, _contiguous
from ._importer import import_module
from ._ir import _DTYPES, _type


class PerExampleGrad:
    """``grads(xs, ys)``: the loss of each example (one row of ``xs`` and
    ``ys`` each) and its gradient with respect to every parameter of the
    module, ``(losses [B], {name: [B, *param.shape]})``, at the module's
    current parameters. The module is written for ONE example; ens lifts
    its gradient over the examples with ``ens.vmap`` of
    ``ens.value_and_grad``, as ``torch.func.vmap(torch.func.grad(...))``
    does, and compiles the whole as one program per batch shape."""

    def __init__(self, module, example_inputs, loss="mse", device="cpu", threads=0):
        if device not in _TARGETS:
            raise ens.Error(f"ens.torch: unknown device '{device}'; expected cpu, cuda or cuda-emu")
        if loss != "mse" and not callable(loss):
            raise ens.Error(f"ens.torch: per_example_grad's loss {loss!r} is not supported; use 'mse' "
                            "or a callable (prediction, target) -> loss of one example")
        if len(example_inputs) != 1:
            raise ens.Error("ens.torch: per_example_grad takes a module of one input")
        self.module, self.loss, self.device, self._threads = module, loss, device, threads
        self._names = [n for n, _ in module.named_parameters()]
        self._context = ens.Context()
        self._programs = {}
        # Traced now, so that an op ens cannot import is reported here.
        self._imported = import_module(module, [_contiguous(example_inputs[0])])
        if self._imported.buffer_names or self._imported.random:
            raise ens.Error("ens.torch: per_example_grad supports modules without float buffers "
                            "(batch norm) or dropout")

    def _program(self, x, y):
        imported = import_module(self.module, [x])
        ptypes = [_type(p.shape) for p in self.module.parameters()]
        xt, yt, ot = _type(x.shape), _type(y.shape, _DTYPES[y.dtype]), imported.result_type
        n = len(ptypes)
        args = ", ".join(f"%p{i}: {t}" for i, t in enumerate(ptypes))
        pin = ", ".join(f"%p{i}" for i in range(n))
        call = f"call @forward({pin}, %x) : ({', '.join(ptypes + [xt])}) -> {ot}"
        lines = [imported.text]
        if callable(self.loss):
            with torch.no_grad():
                prediction = self.module(x)
            lines.append(import_module(_Loss(self.loss), (prediction, y), name="ens_loss").text)
            loss = f"call @ens_loss(%out, %y) : ({ot}, {yt}) -> tensor<f32>"
        else:
            loss = f'ens.stdlib_call "mse"(%out, %y) : {ot}'
        lines.append(f"func.func @loss({args}, %x: {xt}, %y: {yt}) -> tensor<f32> {{\n"
                     f"  %out = {call}\n  %l = {loss}\n  return %l : tensor<f32>\n}}")
        module = self._context.parse("\n".join(lines))
        grad = module.value_and_grad("loss", list(range(n)))
        return module, grad

    def __call__(self, xs, ys):
        xs = _contiguous(xs).to(torch.float32)
        ys = _contiguous(ys)
        ys = ys.to(torch.float32 if ys.dtype.is_floating_point else torch.int32)
        if xs.shape[0] != ys.shape[0]:
            raise ens.Error(f"ens.torch: xs and ys hold {xs.shape[0]} and {ys.shape[0]} examples")
        key = (tuple(xs.shape), tuple(ys.shape), ys.dtype)
        compiled = self._programs.get(key)
        if compiled is None:
            module, grad = self._program(xs[0], ys[0])
            n = len(self._names)
            batched = module.vmap(grad, [-1] * n + [0, 0], [0] * (1 + n), xs.shape[0])
            compiled = module.compile(batched, _TARGETS[self.device], threads=self._threads)
            self._programs[key] = compiled
        params = [_contiguous(p).to(torch.float32) for p in self.module.parameters()]
        results = [torch.from_dlpack(r) for r in compiled.run([*params, xs, ys])]
        return results[0], dict(zip(self._names, results[1:]))


def per_example_grad(module, example_inputs, loss="mse", device="cpu", threads=0):
    """A :class:`PerExampleGrad` of ``module``, written for one example
    shaped like ``example_inputs[0]``, with ``loss`` ("mse" or a callable
    ``(prediction, target) -> loss`` of one example)."""
    return PerExampleGrad(module, example_inputs, loss, device, threads)
