"""fit and predict through ens's trainer library (docs/ens-train.md), for
an Ensemble of one architecture and a GroupedEnsemble of several alike."""

import numpy as np
import torch

import ens

# The devices ens.torch takes, as the trainer's targets.
_TARGETS = {"cpu": "cpu", "cuda": "cuda", "cuda-emu": "cuda-emu"}

# fit's losses: the trainer's task.
_TASKS = {"mse": "regress", "cross_entropy": "classify"}


def _contiguous(tensor):
    return tensor.detach().contiguous()


class Fitting:
    """fit and predict for an ensemble whose members are those of
    ``_fit_groups()`` (Ensembles, group after group), given back in the
    order ``_member_order()`` says (None: as they are)."""

    def _fit_groups(self):
        return [self]

    def _member_order(self):
        return None

    def fit(self, data, val=None, *, epochs=None, steps=None, batch_size=32, shuffle="member",
            bootstrap=False, patience=0, loss="mse", lr=1e-3, lr_min=None, lr_max=None,
            betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, seed=0, val_split=0.0):
        """Trains every member with ens's trainer, as ``ens-train`` does
        (docs/ens-train.md): Adam, batches of ``batch_size`` rows walked in
        ``epochs`` (or ``steps``), ``shuffle`` "none", "shared" or "member",
        ``bootstrap`` resampling, and early stopping after ``patience``
        epochs without a better loss on ``val`` (or a ``val_split`` share of
        the data). ``data`` and ``val`` are ``(x, y)`` arrays or a
        DataLoader of ``(x, y)`` batches; x is [rows, features], y [rows,
        outputs] (``loss="mse"``) or [rows] class labels
        (``loss="cross_entropy"``). Learning rates are log-spaced from
        ``lr_min`` to ``lr_max`` over the members (both default to ``lr``).
        The members keep their best epoch's parameters. Returns the
        summary: ``steps``, the step count; per member ``initial_loss``,
        ``final_loss``, ``validation_loss``, ``best_epoch`` and
        ``stopped_epoch`` (0: did not stop); ``losses`` [steps, members],
        each member's loss on its batch at each step, and ``loss_median``
        over the members.

        A GroupedEnsemble trains every group in one program per step, each
        group exactly as ``fit`` of an Ensemble of its members alone with
        the same arguments would (its own learning rates from ``lr_min`` to
        ``lr_max``, its own early stopping); a group whose members have all
        stopped takes no more steps, and its members' ``losses`` are NaN from
        then on."""
        if loss not in _TASKS:
            raise ens.Error(f"ens.torch: fit takes loss='mse' or 'cross_entropy', not {loss!r}")
        if (epochs is None) == (steps is None):
            raise ens.Error("ens.torch: fit takes one of epochs= or steps=")
        x, y = _rows(data, "data")
        val_x, val_y = _rows(val, "val") if val is not None else (None, None)
        task = _TASKS[loss]
        groups = self._fit_groups()
        trainer = _trainer(groups, x, _targets(y, task), val_x,
                           _targets(val_y, task) if val_y is not None else None, task,
                           steps=steps or 0, epochs=epochs, batch_size=batch_size,
                           shuffle=shuffle, bootstrap=bootstrap, drop_last=True,
                           lr_min=lr if lr_min is None else lr_min,
                           lr_max=lr if lr_max is None else lr_max, beta1=betas[0],
                           beta2=betas[1], eps=eps, weight_decay=weight_decay, seed=seed,
                           val_split=val_split, patience=patience)
        summary = trainer.fit()
        for group, trained in zip(groups, trainer.params()):
            for param, values in zip(group.params, trained):
                param.copy_(torch.from_numpy(values))
            group._task = task
        order = self._member_order()
        result = {}
        for name, value in summary.items():
            if hasattr(value, "shape"):
                value = torch.from_numpy(value)
                if order is not None and name != "loss_median":
                    value = value[..., order]
            result[name] = value
        return result

    def predict(self, x, batch_size=256):
        """The ensemble's predictions for the rows of x [rows, features], as
        ``ens-train predict`` writes them: ``mean`` and ``std`` over the
        members (after an mse fit) or ``probs`` and ``entropy`` (after a
        cross_entropy fit), and ``members``, each member's own output."""
        groups = self._fit_groups()
        x = _contiguous(torch.as_tensor(x)).to(torch.float32).numpy()
        task = getattr(groups[0], "_task", "regress")
        rows = min(batch_size, x.shape[0])
        imported = groups[0]._import([torch.zeros(rows, x.shape[1])])
        outputs = [int(d) for d in imported.result_type[len("tensor<"):].split("x")[:-1]][1]
        dummy = np.zeros((x.shape[0],) if task == "classify" else (x.shape[0], outputs),
                         np.float32)
        trainer = _trainer(groups, x, dummy, None, None, task, steps=0, epochs=None,
                           batch_size=rows, shuffle="none", bootstrap=False, drop_last=True,
                           lr_min=1e-3, lr_max=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
                           weight_decay=0.0, seed=0, val_split=0.0, patience=0)
        result = {k: torch.from_numpy(v) for k, v in trainer.predict(x).items()}
        order = self._member_order()
        if order is not None:
            result["members"] = result["members"][order]
        return result


def _trainer(groups, x, y, val_x, val_y, task, **settings):
    """The trainer library's run of `groups` (Ensembles, one per model of a
    heterogeneous ensemble) on rows x and targets y, members group after
    group."""
    first = groups[0]
    return ens._ens.Trainer(
        [g._trainer_model(x, settings["batch_size"]) for g in groups], task,
        [g.members for g in groups], [[p.numpy() for p in g.params] for g in groups],
        x, y, val_x, val_y, target=_TARGETS[first.device], threads=first._threads, **settings)


def _rows(data, what):
    """x and y of `data`, an (x, y) pair or an iterable of (x, y) batches,
    as C-contiguous f32 NumPy arrays."""
    if isinstance(data, (tuple, list)) and len(data) == 2:
        x, y = data
    else:
        batches = list(data)
        if not batches:
            raise ens.Error(f"ens.torch: {what} holds no batches")
        x = torch.cat([torch.as_tensor(b[0]) for b in batches])
        y = torch.cat([torch.as_tensor(b[1]) for b in batches])
    x = _contiguous(torch.as_tensor(x)).to(torch.float32).numpy()
    return x, torch.as_tensor(y)


def _targets(y, task):
    """y as the trainer reads it: f32 targets, or class labels as f32."""
    y = _contiguous(y)
    if task == "classify" and y.dtype.is_floating_point:
        raise ens.Error("ens.torch: loss='cross_entropy' takes integer class labels")
    return y.to(torch.float32).numpy()
