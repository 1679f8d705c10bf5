"""Ensembles of M members of one nn.Module: forward and training steps."""

import copy

import torch

import ens

from ._fit import _TARGETS, Fitting, _contiguous
from ._groups import GroupedEnsemble, group_by_structure
from ._importer import import_module
from ._ir import _DTYPES, _type
from ._optim import SGD, Adam


class Ensemble(Fitting):
    """M members of one architecture, their parameters stacked [M, ...]."""

    def __init__(self, module, members, example_inputs, seed=0, device="cpu", threads=0):
        modules = []
        for i in range(members):
            member = copy.deepcopy(module)
            torch.manual_seed(seed + i)
            for sub in member.modules():
                if hasattr(sub, "reset_parameters"):
                    sub.reset_parameters()
            modules.append(member)
        self._setup(modules, example_inputs, device, seed, threads)

    @classmethod
    def from_modules(cls, modules, example_inputs, device="cpu", threads=0):
        """Stacks the parameters of M existing modules. Modules of several
        architectures give a :class:`GroupedEnsemble`: one group per
        structure (module types, parameter names and shapes), compiled as
        one program. ``threads`` is the cpu device's (0: one per core)."""
        modules = list(modules)
        groups = group_by_structure(modules)
        if len(groups) > 1:
            return GroupedEnsemble(cls, modules, groups, example_inputs, device, threads)
        ensemble = cls.__new__(cls)
        ensemble._setup(modules, example_inputs, device, 0, threads)
        return ensemble

    def _setup(self, modules, example_inputs, device, seed, threads):
        if device not in _TARGETS:
            raise ens.Error(f"ens.torch: unknown device '{device}'; expected cpu, cuda or cuda-emu")
        if not modules:
            raise ens.Error("ens.torch: an ensemble needs at least one member")
        self.members = len(modules)
        self.device = device
        self._threads = threads
        self._template = copy.deepcopy(modules[0])
        self._names = [n for n, _ in self._template.named_parameters()]
        self.params = []
        for name in self._names:
            stacked = [dict(m.named_parameters())[name].detach() for m in modules]
            self.params.append(torch.stack(stacked).to(torch.float32).contiguous())
        # Float buffers (batch norm's running statistics), stacked too; the
        # steps in training mode that updated them, for num_batches_tracked.
        self._buffer_names = [n for n, b in self._template.named_buffers() if b.dtype in _DTYPES]
        self.buffers = []
        for name in self._buffer_names:
            stacked = [dict(m.named_buffers())[name] for m in modules]
            self.buffers.append(torch.stack(stacked).contiguous())
        self._batches = 0
        # Trace one member now, so that an op ens cannot import is reported
        # here rather than at the first call.
        self._import([_contiguous(x) for x in example_inputs])
        self._context = ens.Context()
        self._forwards = {}
        self._seed = seed
        self._draws = 0

    def _key(self):
        """A new key for dropout in training mode: members draw their own
        masks from it, and every call and step draws anew."""
        self._draws += 1
        return torch.tensor([self._seed, self._draws], dtype=torch.int32)

    def _import(self, inputs):
        member = copy.deepcopy(self._template)
        return import_module(member, inputs)

    def __call__(self, *inputs, member_inputs=False):
        """The members' outputs [M, ...] for inputs shared by all members, or
        with ``member_inputs=True`` for inputs of shape [M, ...], one per
        member."""
        inputs = [_contiguous(x) for x in inputs]
        key = (tuple(tuple(x.shape) for x in inputs), member_inputs)
        compiled = self._forwards.get(key)
        if compiled is None:
            imported, in_axes, out_axes = self._forward_member(inputs, member_inputs)
            module = self._context.parse(imported.text)
            name = module.vmap("forward", in_axes, out_axes, self.members)
            compiled = (module.compile(name, _TARGETS[self.device], threads=self._threads), imported)
            self._forwards[key] = compiled
        function, imported = compiled
        results = function.run(self._forward_args(inputs, imported))
        self._update_buffers(imported.mutated_buffers, results[1:])
        return torch.from_numpy(results[0])

    def _forward_member(self, inputs, member_inputs):
        """One member's @forward for `inputs`, and its in_axes and
        out_axes over the members."""
        one = [x[0] for x in inputs] if member_inputs else inputs
        imported = self._import(one)
        axis = 0 if member_inputs else -1
        in_axes = [0] * (len(self.params) + len(self.buffers)) + [axis] * len(inputs)
        in_axes += [-1] * imported.random
        return imported, in_axes, [0] * (1 + len(imported.mutated_buffers))

    def _forward_args(self, inputs, imported):
        """The arguments of the lifted @forward."""
        keys = [self._key()] if imported.random else []
        return [*self.params, *self.buffers, *inputs, *keys]

    def _update_buffers(self, names, values):
        """Takes the new values of buffers `names` (updated in training mode)."""
        for name, value in zip(names, values):
            self.buffers[self._buffer_names.index(name)].copy_(torch.from_dlpack(value))
        if names:
            self._batches += 1

    def train_step(self, loss="mse", optimizer=None, member_inputs=False):
        """A compiled training step: ``step(x, y)`` trains every member on
        the batch (with ``member_inputs=True``, member m on ``x[m]`` and
        ``y[m]``) and returns the per-member losses [M]."""
        optimizer = optimizer if optimizer is not None else Adam()
        return _TrainStep(self, loss, optimizer, member_inputs)

    def to_modules(self):
        """M modules holding the current weights."""
        modules = []
        for i in range(self.members):
            member = copy.deepcopy(self._template)
            with torch.no_grad():
                for name, param in member.named_parameters():
                    param.copy_(self.params[self._names.index(name)][i])
                for name, buffer in member.named_buffers():
                    if name in self._buffer_names:
                        buffer.copy_(self.buffers[self._buffer_names.index(name)][i])
                    elif name.endswith("num_batches_tracked"):
                        buffer.add_(self._batches)
            modules.append(member)
        return modules

    def _trainer_model(self, x, batch_size):
        """The member as a model of the trainer (docs/ens-train.md):
        @forward(x, params...) over the imported member."""
        if self.buffers:
            raise ens.Error("ens.torch: fit and predict take members without buffers (batch norm)")
        imported = import_module(copy.deepcopy(self._template),
                                 (torch.zeros(batch_size, x.shape[1]),), name="ens_torch_member")
        if imported.random:
            raise ens.Error("ens.torch: fit and predict take members without dropout in training mode")
        ptypes = [_type(p.shape[1:]) for p in self.params]
        xt, ot = _type((batch_size, x.shape[1])), imported.result_type
        args = "".join(f", %p{i}: {t}" for i, t in enumerate(ptypes))
        names = ", ".join([f"%p{i}" for i in range(len(ptypes))] + ["%x"])
        return (f"{imported.text}\n"
                f"func.func @forward(%x: {xt}{args}) -> {ot} {{\n"
                f"  %y = call @ens_torch_member({names}) : ({', '.join(ptypes + [xt])}) -> {ot}\n"
                f"  return %y : {ot}\n}}\n")

    def state_dict(self):
        """The stacked parameters and float buffers by name."""
        names, tensors = self._names + self._buffer_names, self.params + self.buffers
        return {n: t.clone() for n, t in zip(names, tensors)}

    def load_state_dict(self, state):
        """Takes stacked parameters and float buffers from `state`, as
        state_dict() gives them; a wrong shape is refused before any is."""
        names, tensors = self._names + self._buffer_names, self.params + self.buffers
        for name, tensor in zip(names, tensors):
            if tuple(state[name].shape) != tuple(tensor.shape):
                raise ens.Error(f"ens.torch: {name} has shape {tuple(state[name].shape)}, "
                                f"expected {tuple(tensor.shape)}")
        for name, tensor in zip(names, tensors):
            tensor.copy_(state[name])


# Each loss: the stdlib function and the targets' element type.
_LOSSES = {"mse": ("mse", "f32"), "cross_entropy": ("softmax_cross_entropy", "i32")}


class _Loss(torch.nn.Module):
    """A loss callable as a module, for torch.export."""

    def __init__(self, function):
        super().__init__()
        self.function = function

    def forward(self, prediction, target):
        return self.function(prediction, target)


def _scalar(value):
    return f"ens.constant dense<{float(value):.9e}> : tensor<f32>"


class _TrainStep:
    """forward, loss, backward and the optimizer for every member, as one
    program, compiled per batch shape."""

    def __init__(self, ensemble, loss, optimizer, member_inputs):
        if not callable(loss) and loss not in _LOSSES:
            raise ens.Error(f"ens.torch: loss {loss!r} is not supported; use 'mse', 'cross_entropy' "
                            "or a callable (prediction, target) -> loss")
        self.loss = loss
        if not isinstance(optimizer, (Adam, SGD)):
            raise ens.Error("ens.torch: the optimizer must be ens.torch.Adam, AdamW or SGD")
        self.ensemble = ensemble
        self.optimizer = optimizer
        self.member_inputs = member_inputs
        self._adam = isinstance(optimizer, Adam)
        slots = 2 if self._adam else 1
        self.state = [torch.zeros_like(p) for p in ensemble.params for _ in range(slots)]
        self.steps = 0
        lr = torch.as_tensor(optimizer.lr, dtype=torch.float32)
        if lr.shape not in ((), (ensemble.members,)):
            raise ens.Error(f"ens.torch: lr has shape {tuple(lr.shape)}; give one rate or "
                            f"{ensemble.members}, one per member")
        self._lr = _contiguous(lr.expand(ensemble.members))
        self._programs = {}
        self._spare = None

    def _loss_function(self, x, y, ot, yt):
        """@ens_loss(prediction, target) -> tensor<f32>: the stdlib's loss,
        or the callable traced with torch.export."""
        if not callable(self.loss):
            stdlib = _LOSSES[self.loss][0]
            return f'func.func private @ens_loss({ot}, {yt}) -> tensor<f32> attributes {{ens.stdlib = "{stdlib}"}}'
        with torch.no_grad():  # on a copy: a forward may update buffers
            prediction = copy.deepcopy(self.ensemble._template)(x)
        imported = import_module(_Loss(self.loss), (prediction, y), name="ens_loss")
        if imported.result_type != "tensor<f32>":
            raise ens.Error(f"ens.torch: the loss returns {imported.result_type}, not one f32 number")
        return imported.text

    def _program(self, x, y):
        e = self.ensemble
        text, in_axes, results, imported = self._step_member(x, y)
        module = e._context.parse(text)
        name = module.vmap("step", in_axes, [0] * results, e.members)
        return module.compile(name, _TARGETS[e.device], threads=e._threads), imported

    def _step_member(self, x, y):
        """One member's @step for the batch: its module text, in_axes over
        the members, number of results, and the imported forward."""
        e = self.ensemble
        if self.member_inputs:
            if x.shape[0] != e.members or y.shape[0] != e.members:
                raise ens.Error(f"ens.torch: with member_inputs, x and y lead with the "
                                f"{e.members} members, got {tuple(x.shape)} and {tuple(y.shape)}")
            x, y = x[0], y[0]
        imported = e._import([x])
        text, ot, random = imported.text, imported.result_type, imported.random
        # Buffers go in after the parameters; the forward returns the new
        # values of those it updates after its result.
        btypes = [_type(b.shape[1:]) for b in e.buffers]
        mtypes = [btypes[e._buffer_names.index(m)] for m in imported.mutated_buffers]
        bin_ = "".join(f", %buf{j}" for j in range(len(btypes)))
        bargs = "".join(f", %buf{j}: {t}" for j, t in enumerate(btypes))
        fresults = "(" + ", ".join([ot] + mtypes) + ")"
        out0 = "%out#0" if mtypes else "%out"
        outk = f"%out:{1 + len(mtypes)}" if mtypes else "%out"
        # With dropout in training mode, every function takes a key last.
        kt, kin = ([", tensor<2xi32>"], ", %key") if random else ([], "")
        karg = ", %key: tensor<2xi32>" if random else ""
        shapes = [tuple(p.shape[1:]) for p in e.params]
        n = len(shapes)
        ptypes = [_type(s) for s in shapes]
        xt, yt = _type(x.shape), _type(y.shape, _DTYPES[y.dtype])
        lines = [text, self._loss_function(x, y, ot, yt)]
        args = ", ".join(f"%p{i}: {t}" for i, t in enumerate(ptypes))
        call_types = ", ".join(ptypes + btypes + [xt]) + "".join(kt)
        pin = ", ".join(f"%p{i}" for i in range(n))
        lines.append(
            f"func.func @loss({args}{bargs}, %x: {xt}, %y: {yt}{karg}) -> tensor<f32> {{\n"
            f"  {outk} = call @forward({pin}{bin_}, %x{kin}) : ({call_types}) -> {fresults}\n"
            f"  %l = call @ens_loss({out0}, %y) : ({ot}, {yt}) -> tensor<f32>\n"
            f"  return %l : tensor<f32>\n}}")
        slots = 2 if self._adam else 1
        state_args = [f"%s{i}_{k}: {ptypes[i]}" for i in range(n) for k in range(slots)]
        body = [f"  %l, {', '.join(f'%g{i}' for i in range(n))} = ens.value_and_grad "
                f"@loss({pin}{bin_}, %x, %y{kin}) "
                f"{{wrt = array<i64: {', '.join(str(i) for i in range(n))}>}} : "
                f"({', '.join(ptypes + btypes + [xt, yt])}{''.join(kt)}) -> (tensor<f32>, {', '.join(ptypes)})"]
        if mtypes:
            # The buffers' new values, from the forward of the same batch
            # (and key) as the loss.
            body.append(f"  %fw:{1 + len(mtypes)} = call @forward({pin}{bin_}, %x{kin}) : "
                        f"({call_types}) -> {fresults}")
        o = self.optimizer
        grads = [f"%g{i}" for i in range(n)]
        if self._adam:
            # The stdlib's decay is decoupled (AdamW); Adam's L2 decay adds
            # weight_decay * param to the gradient first, as torch does.
            coupled = 0.0 if o.decoupled else o.weight_decay
            hyper = {"b1": o.betas[0], "b2": o.betas[1], "eps": o.eps,
                     "wd": o.weight_decay if o.decoupled else 0.0}
            for i, t in enumerate(ptypes):
                if coupled:
                    body.append(f"  %l2_{i} = ens.constant dense<{coupled:.9e}> : {t}")
                    body.append(f"  %decay{i} = ens.mul %l2_{i}, %p{i} : {t}")
                    body.append(f"  %gd{i} = ens.add %g{i}, %decay{i} : {t}")
                    grads[i] = f"%gd{i}"
        else:
            hyper = {"mom": o.momentum, "wd": o.weight_decay}
        body += [f"  %{k} = {_scalar(v)}" for k, v in hyper.items()]
        params_out, state_out = [], []
        for i, t in enumerate(ptypes):
            if self._adam:
                body.append(f"  %np{i}, %ns{i}_0, %ns{i}_1 = ens.stdlib_call \"adam\"(%p{i}, {grads[i]}, "
                            f"%s{i}_0, %s{i}_1, %step, %lr, %b1, %b2, %eps, %wd) : {t}")
            else:
                body.append(f"  %np{i}, %ns{i}_0 = ens.stdlib_call \"sgd_momentum\"(%p{i}, %g{i}, %s{i}_0, "
                            f"%lr, %mom, %wd) : {t}")
            params_out.append((f"%np{i}", t))
            state_out += [(f"%ns{i}_{k}", t) for k in range(slots)]
        results = [("%l", "tensor<f32>")] + params_out + state_out
        results += [(f"%fw#{j + 1}", t) for j, t in enumerate(mtypes)]
        lines.append(
            f"func.func @step({args}, {', '.join(state_args)}{bargs}, %x: {xt}, %y: {yt}, "
            f"%step: tensor<f32>, %lr: tensor<f32>{karg}) -> ({', '.join(t for _, t in results)}) {{\n"
            + "\n".join(body)
            + f"\n  return {', '.join(v for v, _ in results)} : {', '.join(t for _, t in results)}\n}}")
        data_axis = 0 if self.member_inputs else -1
        in_axes = [0] * (n + len(self.state) + len(btypes)) + [data_axis, data_axis, -1, 0] + [-1] * random
        return "\n".join(lines), in_axes, len(results), imported

    def batch(self, x, y):
        """x and y as the step reads them."""
        x = _contiguous(x).to(torch.float32)
        integral = self.loss == "cross_entropy" or not y.dtype.is_floating_point
        return x, _contiguous(y).to(torch.int32 if integral else torch.float32)

    def __call__(self, x, y):
        x, y = self.batch(x, y)
        key = (tuple(x.shape), tuple(y.shape))
        program = self._programs.get(key)
        if program is None:
            program = self._programs[key] = self._program(x, y)
        program, imported = program
        args, out, finish = self._arguments(x, y, imported)
        program(*args, out=out)
        return finish()

    def _arguments(self, x, y, imported):
        """The lifted @step's arguments and result buffers for the batch,
        and the function that takes its results in after it ran and returns
        the losses."""
        e = self.ensemble
        keys = [e._key()] if imported.random else []
        mutated = imported.mutated_buffers
        new_buffers = [torch.empty_like(e.buffers[e._buffer_names.index(m)]) for m in mutated]
        step = torch.tensor(float(self.steps + 1), dtype=torch.float32)
        losses = torch.empty(e.members, dtype=torch.float32)
        # The step reads one set of buffers and writes the other (ens never
        # writes over an argument), then the two swap: nothing is allocated
        # or copied from step to step.
        if self._spare is None:
            self._spare = [torch.empty_like(t) for t in e.params + self.state]
        spare_params, spare_state = self._spare[: len(e.params)], self._spare[len(e.params):]
        args = [*e.params, *self.state, *e.buffers, x, y, step, self._lr, *keys]

        def finish():
            e._update_buffers(mutated, new_buffers)
            self.steps += 1
            self._spare = e.params + self.state
            e.params[:] = spare_params
            self.state = spare_state
            return losses

        return args, [losses] + self._spare + new_buffers, finish
