"""ens.torch.Ensemble.fit and predict against the ens-train binary: the same
model, data, starting weights and seed give the same parameters, losses
and predictions, as both run the trainer library (lib/Train)."""

import os
import subprocess

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import ens  # noqa: E402
import ens.torch  # noqa: E402


def ens_train_binary():
    """The ens-train of this build: $ENS_TRAIN (ctest sets it), else the
    one beside the package in the build tree."""
    path = os.environ.get("ENS_TRAIN") or os.path.join(
        os.path.dirname(os.path.dirname(os.path.dirname(ens.__file__))), "bin", "ens-train")
    assert os.access(path, os.X_OK), f"no ens-train at {path}"
    return path


def run_ens_train(*args):
    done = subprocess.run([ens_train_binary(), *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def read_checkpoint(directory):
    """The committed generation's arrays."""
    with open(os.path.join(directory, "CURRENT")) as current:
        generation = current.read().strip()
    return dict(np.load(os.path.join(directory, generation, "state.npz")))


def make_ensemble(outputs, members=4):
    torch.manual_seed(0)
    module = torch.nn.Sequential(torch.nn.Linear(3, 8), torch.nn.Tanh(), torch.nn.Linear(8, outputs))
    return ens.torch.Ensemble(module, members=members, example_inputs=(torch.zeros(8, 3),), seed=3)


def write_run(tmp_path, ensemble, x, y, val, batch_size):
    """The model, data and starting weights as ens-train's files."""
    model = tmp_path / "member.mlir"
    model.write_text(ensemble._trainer_model(x.numpy(), batch_size))
    np.savez(tmp_path / "train.npz", x=x.numpy(), y=y.numpy())
    np.savez(tmp_path / "val.npz", x=val[0].numpy(), y=val[1].numpy())
    np.savez(tmp_path / "init.npz", **{f"p{i}": p.numpy() for i, p in enumerate(ensemble.params)})
    return [f"--model={model}", f"--data={tmp_path / 'train.npz'}",
            f"--val={tmp_path / 'val.npz'}", f"--init-from={tmp_path / 'init.npz'}",
            f"--checkpoint={tmp_path / 'ckpt'}", f"--plot={tmp_path / 'plot.svg'}",
            "--backend=cpu"]


def test_fit_reproduces_ens_train_regression(tmp_path):
    rng = np.random.default_rng(1)
    x = torch.from_numpy(rng.normal(size=(60, 3)).astype(np.float32))
    y = torch.stack([x.sum(1), x[:, 0] * x[:, 1]], 1)
    train, val = (x[:44], y[:44]), (x[44:], y[44:])
    ensemble = make_ensemble(outputs=2)
    files = write_run(tmp_path, ensemble, *train, val, batch_size=8)
    stdout = run_ens_train(*files, "--members=4", "--epochs=6", "--batch-size=8",
                           "--shuffle=member", "--bootstrap", "--lr-min=1e-3",
                           "--lr-max=3e-2", "--seed=11")
    summary = ensemble.fit(train, val=val, epochs=6, batch_size=8, shuffle="member",
                           bootstrap=True, lr_min=1e-3, lr_max=3e-2, seed=11)
    state = read_checkpoint(tmp_path / "ckpt")
    assert summary["steps"] == int(state["step"]) == 30
    for i, param in enumerate(ensemble.params):
        np.testing.assert_allclose(param.numpy(), state[f"p{i}"], rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(summary["initial_loss"].numpy(), state["initial_loss"], rtol=1e-6)
    np.testing.assert_allclose(summary["loss_median"].numpy(), state["loss_curve"][:, 1], rtol=1e-6)
    assert "final loss after 30 steps" in stdout
    # The members moved from their starting weights, and their losses fell.
    assert (summary["final_loss"] < summary["initial_loss"]).all()

    # predict: the same arrays as ens-train predict writes.
    rows = rng.normal(size=(13, 3)).astype(np.float32)
    np.savez(tmp_path / "rows.npz", x=rows)
    run_ens_train("predict", f"--checkpoint={tmp_path / 'ckpt'}", f"--data={tmp_path / 'rows.npz'}",
                  f"--out={tmp_path / 'pred.npz'}")
    theirs = dict(np.load(tmp_path / "pred.npz"))
    ours = ensemble.predict(torch.from_numpy(rows))
    assert sorted(ours) == sorted(theirs) == ["mean", "members", "std"]
    for name in theirs:
        np.testing.assert_allclose(ours[name].numpy(), theirs[name], rtol=1e-6, atol=1e-7)
    # The members' outputs are the modules' own.
    for member, module in enumerate(ensemble.to_modules()):
        with torch.no_grad():
            expected = module(torch.from_numpy(rows)).numpy()
        np.testing.assert_allclose(ours["members"][member].numpy(), expected, rtol=1e-5, atol=1e-5)


def test_fit_reproduces_ens_train_classifier_with_patience(tmp_path):
    rng = np.random.default_rng(2)
    x = torch.from_numpy(rng.normal(size=(80, 3)).astype(np.float32))
    noise = torch.from_numpy(rng.normal(size=80).astype(np.float32))
    labels = (x[:, 0] + 0.3 * noise > 0).to(torch.int64)
    labels += (x[:, 1] > 1).to(torch.int64)
    train, val = (x[:60], labels[:60]), (x[60:], labels[60:])
    ensemble = make_ensemble(outputs=3)
    files = write_run(tmp_path, ensemble, *train, val, batch_size=10)
    stdout = run_ens_train(*files, "--task=classify", "--members=4", "--epochs=40",
                           "--batch-size=10", "--shuffle=shared", "--lr=0.05", "--patience=2",
                           "--seed=5")
    summary = ensemble.fit(DataLoaderLike(train, 7), val=val, loss="cross_entropy", epochs=40,
                           batch_size=10, shuffle="shared", lr=0.05, patience=2, seed=5)
    # Each member's best and stopping epochs, as ens-train prints them.
    for member in range(4):
        best, stopped = (int(summary[k][member]) for k in ("best_epoch", "stopped_epoch"))
        line = (f"member {member}: best epoch {best}, validation loss "
                f"{summary['validation_loss'][member].item():.9g}, "
                + (f"stopped after epoch {stopped}" if stopped else "did not stop"))
        assert line in stdout, (line, stdout)
    assert (summary["stopped_epoch"] > 0).any(), "no member stopped early"

    rows = rng.normal(size=(9, 3)).astype(np.float32)
    np.savez(tmp_path / "rows.npz", x=rows)
    run_ens_train("predict", f"--checkpoint={tmp_path / 'ckpt'}", f"--data={tmp_path / 'rows.npz'}",
                  f"--out={tmp_path / 'pred.npz'}")
    theirs = dict(np.load(tmp_path / "pred.npz"))
    ours = ensemble.predict(torch.from_numpy(rows))
    assert sorted(ours) == sorted(theirs) == ["entropy", "members", "probs"]
    for name in theirs:
        np.testing.assert_allclose(ours[name].numpy(), theirs[name], rtol=1e-6, atol=1e-7)


class DataLoaderLike:
    """An iterable of (x, y) batches, as a DataLoader without shuffling."""

    def __init__(self, data, batch):
        self.data, self.batch = data, batch

    def __iter__(self):
        x, y = self.data
        for start in range(0, len(x), self.batch):
            yield x[start:start + self.batch], y[start:start + self.batch]


def test_fit_errors():
    ensemble = make_ensemble(outputs=2, members=2)
    x, y = torch.zeros(16, 3), torch.zeros(16, 2)
    with pytest.raises(ens.Error, match="one of epochs= or steps="):
        ensemble.fit((x, y), batch_size=8)
    with pytest.raises(ens.Error, match="shuffle='sideways'"):
        ensemble.fit((x, y), epochs=1, batch_size=8, shuffle="sideways")
    with pytest.raises(ens.Error, match="patience needs a validation set"):
        ensemble.fit((x, y), epochs=1, batch_size=8, patience=2)
    with pytest.raises(ens.Error, match="integer class labels"):
        make_ensemble(outputs=3, members=2).fit((x, y[:, 0]), epochs=1, batch_size=8,
                                                loss="cross_entropy")


def test_fit_refuses_what_it_cannot_train():
    x, y = torch.zeros(16, 3), torch.zeros(16, 2)
    ensemble = make_ensemble(outputs=2, members=2)
    with pytest.raises(ens.Error, match="loss='mse' or 'cross_entropy', not 'hinge'"):
        ensemble.fit((x, y), epochs=1, loss="hinge")
    with pytest.raises(ens.Error, match="the batch size, 8, is larger than the data: "
                                        "the training data has 4 rows"):
        ensemble.fit((x[:4], y[:4]), epochs=1, batch_size=8)
    with pytest.raises(ens.Error, match=r"y must be \[rows\] or \[rows, outputs\] with x's 16 rows"):
        ensemble.fit((x, y[:10]), epochs=1, batch_size=8)
    dropout = ens.torch.Ensemble(
        torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Dropout(0.5)), members=2,
        example_inputs=(x[:8],))
    with pytest.raises(ens.Error, match="without dropout"):
        dropout.fit((x, y), epochs=1, batch_size=8)
    norm = ens.torch.Ensemble(
        torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.BatchNorm1d(2)), members=2,
        example_inputs=(x[:8],))
    with pytest.raises(ens.Error, match="without buffers"):
        norm.fit((x, y), epochs=1, batch_size=8)


def trainer(ensemble, params, x, y):
    """ens._ens.Trainer as fit makes it, with the given starting weights."""
    return ens._ens.Trainer(
        [ensemble._trainer_model(x, 8)], "regress", [ensemble.members], [params], x, y, None, None,
        steps=1, epochs=None, batch_size=8, shuffle="none", bootstrap=False, drop_last=True,
        lr_min=1e-3, lr_max=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.0, seed=0,
        val_split=0.0, patience=0, target="cpu", threads=0)


def test_the_trainer_checks_its_arrays():
    ensemble = make_ensemble(outputs=2, members=2)
    x, y = np.zeros((16, 3), np.float32), np.zeros((16, 2), np.float32)
    params = [p.numpy() for p in ensemble.params]
    assert trainer(ensemble, params, x, y).fit()["steps"] == 1
    with pytest.raises(ens.Error, match="the model has 4 parameters; 3 starting weights"):
        trainer(ensemble, params[:3], x, y)
    with pytest.raises(ens.Error, match=r"starting weights of parameter p1 are tensor<2x7xf32>, "
                                        r"expected tensor<2x8xf32> \(one per member\)"):
        trainer(ensemble, [params[0], np.zeros((2, 7), np.float32)] + params[2:], x, y)
    with pytest.raises(ens.Error, match=r"the training x must be \[rows, features\]"):
        trainer(ensemble, params, x.reshape(16, 3, 1), y)
    with pytest.raises(ens.Error, match="shuffle='sideways' is not none, shared or member"):
        ens._ens.Trainer(
            [ensemble._trainer_model(x, 8)], "regress", [2], [params], x, y, None, None, steps=1,
            epochs=None, batch_size=8, shuffle="sideways", bootstrap=False, drop_last=True,
            lr_min=1e-3, lr_max=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.0, seed=0,
            val_split=0.0, patience=0, target="cpu", threads=0)
    with pytest.raises(ens.Error, match="a model, a member count and parameters per group"):
        ens._ens.Trainer(
            [ensemble._trainer_model(x, 8)], "regress", [2, 2], [params], x, y, None, None,
            steps=1, epochs=None, batch_size=8, shuffle="none", bootstrap=False, drop_last=True,
            lr_min=1e-3, lr_max=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.0, seed=0,
            val_split=0.0, patience=0, target="cpu", threads=0)
