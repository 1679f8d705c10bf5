"""ens.torch.Ensemble.from_modules over modules of several architectures
(issue #30): grouped by structure, compiled as one program, trained like
separate stacks of each architecture."""

import copy

import pytest

torch = pytest.importorskip("torch")
import ens  # noqa: E402
import ens.torch as et  # noqa: E402
import test_torch  # noqa: E402


def narrow(seed):
    """Architecture A: 5 -> 8 -> 3, one hidden layer."""
    torch.manual_seed(seed)
    return torch.nn.Sequential(torch.nn.Linear(5, 8), torch.nn.Tanh(), torch.nn.Linear(8, 3))


def deep(seed):
    """Architecture B: 5 -> 16 -> 16 -> 3, two hidden layers."""
    torch.manual_seed(seed)
    return torch.nn.Sequential(torch.nn.Linear(5, 16), torch.nn.Tanh(), torch.nn.Linear(16, 16),
                               torch.nn.ReLU(), torch.nn.Linear(16, 3))


# Three members of A and two of B, interleaved: results must come back in
# this order.
KINDS = "ABAAB"


def modules():
    return [(narrow if kind == "A" else deep)(seed) for seed, kind in enumerate(KINDS)]


def of_kind(items, kind):
    return [item for item, k in zip(items, KINDS) if k == kind]


@pytest.fixture
def data():
    g = torch.Generator().manual_seed(7)
    return torch.randn(32, 5, generator=g), torch.randn(32, 3, generator=g)


def torch_loops(members, lr, x, y, steps):
    """The oracle: an independent torch.optim.Adam loop per module; returns
    losses [steps, M]."""
    return test_torch.torch_loops(members, lambda p: torch.optim.Adam(p, lr=lr), x, y, steps)


def test_groups_modules_by_structure_and_keeps_their_order(data):
    x, _ = data
    members = modules()
    ensemble = et.Ensemble.from_modules(members, example_inputs=(x,))
    assert ensemble.indices == [[0, 2, 3], [1, 4]]
    assert [g.members for g in ensemble.groups] == [3, 2]
    with torch.no_grad():
        want = torch.stack([m(x) for m in members])
    torch.testing.assert_close(ensemble(x), want, atol=1e-5, rtol=1e-5)
    xs = torch.randn(len(KINDS), 32, 5)
    with torch.no_grad():
        want = torch.stack([m(xs[i]) for i, m in enumerate(members)])
    torch.testing.assert_close(ensemble(xs, member_inputs=True), want, atol=1e-5, rtol=1e-5)


def test_trains_like_separate_stacks_of_each_architecture(data):
    x, y = data
    steps, lr = 5, 1e-2
    members = modules()
    ensemble = et.Ensemble.from_modules(copy.deepcopy(members), example_inputs=(x,))
    step = ensemble.train_step(loss="mse", optimizer=et.Adam(lr=lr))
    losses = torch.stack([step(x, y) for _ in range(steps)])

    # (a) Each architecture alone, as a stack of its own: bit for bit.
    for kind in "AB":
        alone = et.Ensemble.from_modules(copy.deepcopy(of_kind(members, kind)), example_inputs=(x,))
        assert isinstance(alone, et.Ensemble)
        alone_step = alone.train_step(loss="mse", optimizer=et.Adam(lr=lr))
        alone_losses = torch.stack([alone_step(x, y) for _ in range(steps)])
        mine = torch.stack(of_kind(list(losses.T), kind)).T
        assert torch.equal(mine, alone_losses), kind
        for i, (p, q) in enumerate(zip(of_kind(ensemble.to_modules(), kind), alone.to_modules())):
            for (name, a), b in zip(p.named_parameters(), q.parameters()):
                assert torch.equal(a, b), f"{kind} member {i} {name}"

    # (b) PyTorch's own loop over the modules, within rounding.
    want = torch_loops(members, lr, x, y, steps)
    torch.testing.assert_close(losses, want, atol=2e-5, rtol=1e-4)
    for i, (mine, theirs) in enumerate(zip(ensemble.to_modules(), members)):
        for (name, p), q in zip(mine.named_parameters(), theirs.parameters()):
            torch.testing.assert_close(p, q.detach(), atol=2e-4, rtol=0,
                                       msg=lambda m: f"member {i} {name}: {m}")


def test_per_member_learning_rates_follow_the_modules_order(data):
    x, y = data
    rates = [1e-3, 3e-3, 1e-2, 3e-2, 5e-2]
    members = modules()
    ensemble = et.Ensemble.from_modules(copy.deepcopy(members), example_inputs=(x,))
    step = ensemble.train_step(optimizer=et.Adam(lr=torch.tensor(rates)))
    losses = torch.stack([step(x, y) for _ in range(3)])
    want = torch.cat([torch_loops([m], lr, x, y, 3) for m, lr in zip(members, rates)], dim=1)
    torch.testing.assert_close(losses, want, atol=2e-5, rtol=1e-4)


class TwoInputs(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(5, 3)

    def forward(self, x, z):
        return self.linear(x) + z


def test_modules_with_different_inputs_or_outputs_are_refused(data):
    x, _ = data
    with pytest.raises(ens.Error, match=r"module 1 \(TwoInputs\) takes inputs \(x, z\) but "
                                        r"module 0 \(Sequential\) takes \(input\)"):
        et.Ensemble.from_modules([narrow(0), TwoInputs()], example_inputs=(x,))
    wider = torch.nn.Sequential(torch.nn.Linear(5, 8), torch.nn.Tanh(), torch.nn.Linear(8, 4))
    with pytest.raises(ens.Error, match=r"module 2 \(Sequential\) returns \(32, 4\) torch.float32 "
                                        r"but module 0 \(Sequential\) returns \(32, 3\)"):
        et.Ensemble.from_modules([narrow(0), narrow(1), wider], example_inputs=(x,))


def test_module_groups_binding_runs_each_group_and_reports_errors():
    module = ens.Context().parse("""
func.func @scale(%x: tensor<3xf32>, %s: tensor<f32>) -> tensor<3xf32> {
  %b = ens.broadcast_in_dim %s {dims = array<i64>} : tensor<f32> -> tensor<3xf32>
  %y = ens.mul %x, %b : tensor<3xf32>
  return %y : tensor<3xf32>
}
func.func @shift(%s: tensor<f32>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %b = ens.broadcast_in_dim %s {dims = array<i64>} : tensor<f32> -> tensor<3xf32>
  %y = ens.add %x, %b : tensor<3xf32>
  return %y : tensor<3xf32>
}
""")
    name = module.groups([("scale", [-1, 0], [0], 2), ("shift", [0, -1], [0], 3)])
    x = torch.arange(3, dtype=torch.float32)
    scales, shifts = torch.tensor([2.0, -1.0]), torch.tensor([1.0, 2.0, 3.0])
    scaled, shifted = module.compile(name)(x.numpy(), scales.numpy(), shifts.numpy())
    torch.testing.assert_close(torch.from_numpy(scaled), scales[:, None] * x)
    torch.testing.assert_close(torch.from_numpy(shifted), shifts[:, None] + x)
    with pytest.raises(ens.Error, match=r"group 1 \(@shift\) shares the arguments "
                                        r"\(tensor<f32>\) but group 0 shares \(tensor<3xf32>\)"):
        module.groups([("scale", [-1, 0], [0], 2), ("shift", [-1, 0], [0], 3)])


def test_fit_trains_each_group_as_its_own_fit_and_predicts_over_all(data):
    """fit and predict of a GroupedEnsemble: one trainer run of every group
    (one program a step), each group bit for bit as fit of its members alone
    with the same arguments (learning rates, shuffles, early stopping), and
    predict's members in the modules' order with the mean and spread over
    all of them, recomputed here with torch."""
    x, y = data
    g = torch.Generator().manual_seed(11)
    val = (torch.randn(16, 5, generator=g), torch.randn(16, 3, generator=g))
    fresh = torch.randn(10, 5, generator=g)
    # Patience 1 on noise at high learning rates: the groups stop early, at
    # their own epochs (B at 3, A at 9 here), so the losses of the group
    # that stopped first must turn NaN.
    options = dict(epochs=20, batch_size=8, shuffle="member", bootstrap=True, patience=1,
                   lr_min=1e-2, lr_max=1e-1, seed=5)
    members = modules()
    grouped = et.Ensemble.from_modules(copy.deepcopy(members), example_inputs=(x,))
    summary = grouped.fit((x, y), val=val, **options)
    predicted = grouped.predict(fresh)

    rows = []
    for kind in "AB":
        alone = et.Ensemble.from_modules(copy.deepcopy(of_kind(members, kind)), example_inputs=(x,))
        want = alone.fit((x, y), val=val, **options)
        columns = [i for i, k in enumerate(KINDS) if k == kind]
        for name in ("initial_loss", "final_loss", "validation_loss", "best_epoch",
                     "stopped_epoch"):
            assert torch.equal(summary[name][columns], want[name]), name
        steps = want["losses"].shape[0]
        assert torch.equal(summary["losses"][:steps, columns], want["losses"])
        assert torch.isnan(summary["losses"][steps:, columns]).all()
        rows.append(steps)
        for got, expected in zip(of_kind(grouped.to_modules(), kind), alone.to_modules()):
            for (name, a), (_, b) in zip(got.state_dict().items(),
                                         expected.state_dict().items()):
                assert torch.equal(a, b), name
        assert torch.equal(predicted["members"][columns], alone.predict(fresh)["members"])
    assert summary["losses"].shape == (max(rows), len(KINDS))
    assert rows[0] != rows[1], "the test needs the groups to stop at different steps"

    # The ensemble's statistics over all five members, in float64 here.
    outputs = torch.stack([m(fresh) for m in grouped.to_modules()]).detach().double()
    torch.testing.assert_close(predicted["members"].double(), outputs, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(predicted["mean"].double(), outputs.mean(0), atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(predicted["std"].double(), outputs.std(0, unbiased=False),
                               atol=1e-5, rtol=1e-5)
