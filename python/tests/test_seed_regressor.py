"""Issue #27 item 6, the per-target regressor seed: an ensemble of
regressors of several targets, trained through ens.torch with minibatches
and early stopping (Ensemble.fit, the trainer library), against a PyTorch
loop of M torch.optim.Adam optimizers as the oracle: every member's loss at
every step, its early-stopping epoch, its parameters; and the gradients of
the same members through ens.torch's train_step."""

import copy

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import ens.torch  # noqa: E402

MEMBERS, BATCH, EPOCHS, PATIENCE = 5, 8, 30, 2
LR_MIN, LR_MAX = 3e-3, 8e-2


def regressor():
    return torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.Tanh(), torch.nn.Linear(16, 3))


def make_data():
    """Three targets of four features, and a validation set of whole
    batches; noisy, so that the members overfit and stop."""
    rng = np.random.default_rng(7)
    x = rng.normal(size=(72, 4)).astype(np.float32)
    w = rng.normal(size=(4, 3)).astype(np.float32)
    y = np.tanh(x @ w) + 0.3 * rng.normal(size=(72, 3)).astype(np.float32)
    x, y = torch.from_numpy(x), torch.from_numpy(y.astype(np.float32))
    return (x[:40], y[:40]), (x[40:], y[40:])


def torch_oracle(modules, train, val):
    """Each member alone: Adam at its own rate, batches in order
    (shuffle="none"), the last partial batch left out, validated after
    every epoch; it stops after PATIENCE epochs without a better validation
    loss and keeps its best epoch's parameters."""
    x, y = train
    steps_per_epoch = len(x) // BATCH
    results = []
    for member, module in enumerate(modules):
        rate = float(np.float32(LR_MIN * (LR_MAX / LR_MIN) ** (member / (MEMBERS - 1))))
        optimizer = torch.optim.Adam(module.parameters(), lr=rate)
        losses, best, best_epoch, stopped = [], float("inf"), 0, 0
        best_state = copy.deepcopy(module.state_dict())
        for epoch in range(1, EPOCHS + 1):
            for b in range(steps_per_epoch):
                rows = slice(b * BATCH, (b + 1) * BATCH)
                optimizer.zero_grad()
                loss = torch.nn.functional.mse_loss(module(x[rows]), y[rows])
                loss.backward()
                optimizer.step()
                losses.append(loss.item())
            with torch.no_grad():
                val_loss = torch.nn.functional.mse_loss(module(val[0]), val[1]).item()
            if val_loss < best:
                best, best_epoch = val_loss, epoch
                best_state = copy.deepcopy(module.state_dict())
            elif epoch - best_epoch >= PATIENCE:
                stopped = epoch
                break
        module.load_state_dict(best_state)
        results.append((losses, best_epoch, stopped))
    return results


def test_regressor_fit_matches_torch_adam_loops():
    train, val = make_data()
    torch.manual_seed(0)
    modules = [regressor() for _ in range(MEMBERS)]
    ensemble = ens.torch.Ensemble.from_modules(modules, example_inputs=(train[0][:BATCH],))
    summary = ensemble.fit(train, val=val, epochs=EPOCHS, batch_size=BATCH, shuffle="none",
                           patience=PATIENCE, lr_min=LR_MIN, lr_max=LR_MAX)
    oracle = torch_oracle(modules, train, val)

    assert any(stopped for _, _, stopped in oracle), "no member stopped early: a weak test"
    losses = summary["losses"].numpy()
    for member, (torch_losses, best_epoch, stopped) in enumerate(oracle):
        assert int(summary["best_epoch"][member]) == best_epoch, member
        assert int(summary["stopped_epoch"][member]) == stopped, member
        # Its loss at every step until it stopped.
        np.testing.assert_allclose(losses[: len(torch_losses), member], torch_losses,
                                   rtol=2e-4, atol=1e-6)
    # The members' parameters: those of their best epochs.
    for member, module in enumerate(ensemble.to_modules()):
        for (name, ours), theirs in zip(module.named_parameters(), modules[member].parameters()):
            np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(),
                                       rtol=2e-4, atol=2e-5, err_msg=f"member {member} {name}")
    # Training ended when the last member stopped.
    steps_per_epoch = len(train[0]) // BATCH
    last = max(stopped or EPOCHS for _, _, stopped in oracle)
    assert summary["steps"] == last * steps_per_epoch


def test_regressor_gradients_match_torch():
    """The same members' gradients on a minibatch through ens.torch (an SGD
    step of rate 1 moves each parameter by minus its gradient)."""
    train, _ = make_data()
    torch.manual_seed(1)
    modules = [regressor() for _ in range(MEMBERS)]
    ensemble = ens.torch.Ensemble.from_modules(modules, example_inputs=(train[0][:BATCH],))
    before = [p.clone() for p in ensemble.params]
    step = ensemble.train_step(loss="mse", optimizer=ens.torch.SGD(lr=1.0))
    x, y = train[0][:BATCH], train[1][:BATCH]
    losses = step(x, y)
    for member, module in enumerate(modules):
        loss = torch.nn.functional.mse_loss(module(x), y)
        loss.backward()
        assert losses[member].item() == pytest.approx(loss.item(), rel=1e-5)
        for i, param in enumerate(module.parameters()):
            gradient = (before[i][member] - ensemble.params[i][member]).numpy()
            np.testing.assert_allclose(gradient, param.grad.numpy(), rtol=1e-4, atol=1e-6)
