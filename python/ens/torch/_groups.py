"""Heterogeneous ensembles: members of several architectures, one group of
identical members per architecture, compiled as one program with one
``ens.vmap`` per group side by side (docs/batching.md)."""

import copy
import inspect
import re

import torch

import ens

from . import _ensemble
from ._fit import Fitting


def _structure(module):
    """What members of one group share: module types and settings,
    parameter and buffer names, shapes and types."""
    return (tuple((name, type(sub), sub.extra_repr(), sub.training) for name, sub in module.named_modules()),
            tuple((name, tuple(p.shape), p.dtype) for name, p in module.named_parameters()),
            tuple((name, tuple(b.shape), b.dtype) for name, b in module.named_buffers()))


def group_by_structure(modules):
    """The indices of `modules` grouped by structure, groups in order of
    their first member."""
    groups = {}
    for i, module in enumerate(modules):
        groups.setdefault(_structure(module), []).append(i)
    return list(groups.values())


_SYMBOL = re.compile(r"func\.func\s+(?:private\s+)?@([\w$.]+)")


def _prefixed(text, prefix):
    """`text` with every function it defines renamed `prefix` + name, so that
    the groups' modules can be one."""
    names = sorted(set(_SYMBOL.findall(text)), key=len, reverse=True)
    if not names:
        return text
    pattern = re.compile(r"@(" + "|".join(re.escape(n) for n in names) + r")(?![\w$.])")
    return pattern.sub(lambda m: f"@{prefix}{m.group(1)}", text)


def _describe(module, index):
    return f"module {index} ({type(module).__name__})"


def _check_signatures(modules, groups, example_inputs):
    """Every group's members take the same inputs and return outputs of the
    same shape as the first group's, or an ens.Error naming the two."""
    first = modules[groups[0][0]]
    want_inputs = list(inspect.signature(first.forward).parameters)
    with torch.no_grad():
        want = copy.deepcopy(first)(*example_inputs)
    for group in groups[1:]:
        module = modules[group[0]]
        inputs = list(inspect.signature(module.forward).parameters)
        if len(inputs) != len(want_inputs):
            raise ens.Error(f"ens.torch: from_modules: {_describe(module, group[0])} takes inputs "
                            f"({', '.join(inputs)}) but {_describe(first, groups[0][0])} takes "
                            f"({', '.join(want_inputs)}); all members must take the same inputs")
        with torch.no_grad():
            out = copy.deepcopy(module)(*example_inputs)
        if not isinstance(out, torch.Tensor) or not isinstance(want, torch.Tensor) \
                or out.shape != want.shape or out.dtype != want.dtype:
            def spell(o):
                return f"{tuple(o.shape)} {o.dtype}" if isinstance(o, torch.Tensor) else type(o).__name__
            raise ens.Error(f"ens.torch: from_modules: {_describe(module, group[0])} returns {spell(out)} "
                            f"but {_describe(first, groups[0][0])} returns {spell(want)}; all members "
                            "must return one tensor of the same shape")


def _one_program(context, members, device, threads):
    """Compiles `members`, per group (its one-member text, the function to
    lift, its in_axes, number of results and member count), as one program
    of one vmap per group."""
    texts, groups = [], []
    for k, (text, function, in_axes, results, size) in enumerate(members):
        texts.append(_prefixed(text, f"g{k}_"))
        groups.append((f"g{k}_{function}", in_axes, [0] * results, size))
    module = context.parse("\n".join(texts))
    name = module.groups(groups)
    return module.compile(name, _ensemble._TARGETS[device], threads=threads)


def _merged_arguments(in_axes, args):
    """The program's arguments from each group's (in_axes and arguments):
    the shared ones (in_axes -1) once, from the first group, then each
    group's own."""
    shared = [a for axis, a in zip(in_axes[0], args[0]) if axis == -1]
    own = [a for axes, group in zip(in_axes, args) for axis, a in zip(axes, group) if axis != -1]
    return shared + own


class GroupedEnsemble(Fitting):
    """Members of several architectures (``Ensemble.from_modules`` of
    modules that differ in structure): one :class:`Ensemble` per group of
    identical members (``groups``; ``indices`` says which modules each
    holds), run and trained as one program with one ``ens.vmap`` per group.
    Outputs, losses and modules come back in the order of the modules
    given. ``fit`` and ``predict`` are Ensemble's (one program for every
    group's members)."""

    def __init__(self, cls, modules, groups, example_inputs, device, threads):
        _check_signatures(modules, groups, example_inputs)
        self.indices = groups
        self.groups = [cls.from_modules([modules[i] for i in group], example_inputs, device, threads)
                       for group in groups]
        self.members = len(modules)
        self.device = device
        self._threads = threads
        self._context = ens.Context()
        self._forwards = {}

    def _fit_groups(self):
        return self.groups

    def _member_order(self):
        """Where each module's member is among the groups' members."""
        flat = [i for group in self.indices for i in group]
        return torch.argsort(torch.tensor(flat))

    def _split(self, tensors, member_inputs):
        """`tensors` for each group: all of them, or with ``member_inputs``
        the group's members' rows."""
        if not member_inputs:
            return [tensors] * len(self.groups)
        for x in tensors:
            if x.shape[0] != self.members:
                raise ens.Error(f"ens.torch: with member_inputs, inputs lead with the "
                                f"{self.members} members, got {tuple(x.shape)}")
        return [[x[torch.tensor(group)].contiguous() for x in tensors] for group in self.indices]

    def _gather(self, outputs):
        """One tensor [M, ...] in the modules' order from each group's."""
        result = torch.empty((self.members, *outputs[0].shape[1:]), dtype=outputs[0].dtype)
        for group, output in zip(self.indices, outputs):
            result[torch.tensor(group)] = output
        return result

    def __call__(self, *inputs, member_inputs=False):
        """The members' outputs [M, ...], as Ensemble's, from one program."""
        inputs = [_ensemble._contiguous(x) for x in inputs]
        per_group = self._split(inputs, member_inputs)
        key = (tuple(tuple(x.shape) for x in inputs), member_inputs)
        compiled = self._forwards.get(key)
        if compiled is None:
            members, imported = [], []
            for group, group_inputs in zip(self.groups, per_group):
                one, in_axes, out_axes = group._forward_member(group_inputs, member_inputs)
                members.append((one.text, "forward", in_axes, len(out_axes), group.members))
                imported.append((one, in_axes))
            compiled = (_one_program(self._context, members, self.device, self._threads), imported)
            self._forwards[key] = compiled
        program, imported = compiled
        args = [g._forward_args(i, one) for g, i, (one, _) in zip(self.groups, per_group, imported)]
        results = program.run(_merged_arguments([axes for _, axes in imported], args))
        outputs, next_ = [], 0
        for group, (one, _) in zip(self.groups, imported):
            count = 1 + len(one.mutated_buffers)
            group._update_buffers(one.mutated_buffers, results[next_ + 1: next_ + count])
            outputs.append(torch.from_numpy(results[next_]))
            next_ += count
        return self._gather(outputs)

    def train_step(self, loss="mse", optimizer=None, member_inputs=False):
        """A compiled training step of every group as one program: ``step(x,
        y)`` returns the losses [M] in the modules' order. A tensor of M
        learning rates is in that order too."""
        optimizer = optimizer if optimizer is not None else _ensemble.Adam()
        lr = torch.as_tensor(getattr(optimizer, "lr", 0.0), dtype=torch.float32)
        steps = []
        for group, indices in zip(self.groups, self.indices):
            mine = optimizer
            if lr.shape == (self.members,):
                mine = copy.copy(optimizer)
                mine.lr = lr[torch.tensor(indices)]
            steps.append(group.train_step(loss, mine, member_inputs))
        return _GroupedTrainStep(self, steps, member_inputs)

    def to_modules(self):
        """M modules holding the current weights, in the modules' order."""
        modules = [None] * self.members
        for group, indices in zip(self.groups, self.indices):
            for i, module in zip(indices, group.to_modules()):
                modules[i] = module
        return modules


class _GroupedTrainStep:
    """Each group's training step, compiled per batch shape as one program."""

    def __init__(self, ensemble, steps, member_inputs):
        self.ensemble = ensemble
        self.steps = steps
        self.member_inputs = member_inputs
        self._programs = {}

    def __call__(self, x, y):
        e = self.ensemble
        x, y = self.steps[0].batch(x, y)
        xs, ys = (e._split([x], self.member_inputs), e._split([y], self.member_inputs))
        key = (tuple(x.shape), tuple(y.shape))
        compiled = self._programs.get(key)
        if compiled is None:
            members, imported = [], []
            for step, group, gx, gy in zip(self.steps, e.groups, xs, ys):
                text, in_axes, results, one = step._step_member(gx[0], gy[0])
                members.append((text, "step", in_axes, results, group.members))
                imported.append((one, in_axes))
            compiled = (_one_program(e._context, members, e.device, e._threads), imported)
            self._programs[key] = compiled
        program, imported = compiled
        args, out, finishes = [], [], []
        for step, gx, gy, (one, _) in zip(self.steps, xs, ys, imported):
            a, o, finish = step._arguments(gx[0], gy[0], one)
            args.append(a)
            out += o
            finishes.append(finish)
        program(*_merged_arguments([axes for _, axes in imported], args), out=out)
        return e._gather([finish() for finish in finishes])
