"""ens.torch against PyTorch itself: forward, and training with torch.optim."""

import copy
import inspect

import pytest

torch = pytest.importorskip("torch")
import ens  # noqa: E402
import ens.torch as et  # noqa: E402

MEMBERS = 4


def mlp(seed, activation=torch.nn.Tanh):
    torch.manual_seed(seed)
    return torch.nn.Sequential(torch.nn.Linear(5, 16), activation(), torch.nn.Linear(16, 3))


@pytest.fixture
def data():
    g = torch.Generator().manual_seed(7)
    return torch.randn(32, 5, generator=g), torch.randn(32, 3, generator=g)


def torch_loops(modules, optimizer, x, y, steps):
    """The oracle: M independent torch.optim loops; returns losses [steps, M]."""
    losses = []
    optimizers = [optimizer(m.parameters()) for m in modules]
    for _ in range(steps):
        row = []
        for m, opt in zip(modules, optimizers):
            opt.zero_grad()
            loss = torch.nn.functional.mse_loss(m(x), y)
            loss.backward()
            opt.step()
            row.append(loss.item())
        losses.append(row)
    return torch.tensor(losses)


def assert_same_parameters(ensemble, modules, atol=2e-4):
    for i, (mine, theirs) in enumerate(zip(ensemble.to_modules(), modules)):
        for (name, p), q in zip(mine.named_parameters(), theirs.parameters()):
            torch.testing.assert_close(p, q.detach(), atol=atol, rtol=0,
                                       msg=lambda m: f"member {i} {name}: {m}")


@pytest.mark.parametrize("activation", [torch.nn.Tanh, torch.nn.ReLU, torch.nn.Sigmoid])
def test_forward_matches_the_members(data, activation):
    x, _ = data
    modules = [mlp(s, activation) for s in range(MEMBERS)]
    ensemble = et.Ensemble.from_modules(modules, example_inputs=(x,))
    with torch.no_grad():
        want = torch.stack([m(x) for m in modules])
    torch.testing.assert_close(ensemble(x), want, atol=1e-5, rtol=1e-5)
    xs = torch.randn(MEMBERS, 32, 5)
    with torch.no_grad():
        want = torch.stack([m(xs[i]) for i, m in enumerate(modules)])
    torch.testing.assert_close(ensemble(xs, member_inputs=True), want, atol=1e-5, rtol=1e-5)


def test_forward_on_cuda_emu(data):
    x, _ = data
    modules = [mlp(s) for s in range(2)]
    ensemble = et.Ensemble.from_modules(modules, example_inputs=(x,), device="cuda-emu")
    with torch.no_grad():
        want = torch.stack([m(x) for m in modules])
    torch.testing.assert_close(ensemble(x), want, atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize(
    "ours, theirs",
    [
        (et.Adam(lr=1e-2), lambda p: torch.optim.Adam(p, lr=1e-2)),
        (et.Adam(lr=1e-2, weight_decay=0.1), lambda p: torch.optim.Adam(p, lr=1e-2, weight_decay=0.1)),
        (et.AdamW(lr=1e-2, weight_decay=0.1), lambda p: torch.optim.AdamW(p, lr=1e-2, weight_decay=0.1)),
        (et.SGD(lr=5e-2, momentum=0.9), lambda p: torch.optim.SGD(p, lr=5e-2, momentum=0.9)),
    ],
)
def test_train_step_matches_torch_optim(data, ours, theirs):
    x, y = data
    modules = [mlp(s) for s in range(MEMBERS)]
    ensemble = et.Ensemble.from_modules(copy.deepcopy(modules), example_inputs=(x,))
    step = ensemble.train_step(loss="mse", optimizer=ours)
    losses = torch.stack([step(x, y) for _ in range(5)])
    want = torch_loops(modules, theirs, x, y, 5)
    torch.testing.assert_close(losses, want, atol=2e-5, rtol=1e-4)
    assert_same_parameters(ensemble, modules)


def test_per_member_learning_rates(data):
    x, y = data
    rates = [1e-3, 3e-3, 1e-2, 3e-2]
    modules = [mlp(s) for s in range(MEMBERS)]
    ensemble = et.Ensemble.from_modules(copy.deepcopy(modules), example_inputs=(x,))
    step = ensemble.train_step(optimizer=et.Adam(lr=torch.tensor(rates)))
    for _ in range(4):
        step(x, y)
    for m, lr in zip(modules, rates):
        torch_loops([m], lambda p, lr=lr: torch.optim.Adam(p, lr=lr), x, y, 4)
    assert_same_parameters(ensemble, modules)


def test_ensemble_initialises_each_member_with_its_seed(data):
    x, _ = data
    ensemble = et.Ensemble(mlp(0), members=3, example_inputs=(x,), seed=10)
    for i, member in enumerate(ensemble.to_modules()):
        want = mlp(0)
        torch.manual_seed(10 + i)
        for sub in want.modules():
            if hasattr(sub, "reset_parameters"):
                sub.reset_parameters()
        for p, q in zip(member.parameters(), want.parameters()):
            torch.testing.assert_close(p, q)


def test_state_dict_round_trips(data):
    x, _ = data
    a = et.Ensemble.from_modules([mlp(s) for s in range(MEMBERS)], example_inputs=(x,))
    b = et.Ensemble.from_modules([mlp(s + 10) for s in range(MEMBERS)], example_inputs=(x,))
    assert not torch.equal(a(x), b(x))
    b.load_state_dict(a.state_dict())
    torch.testing.assert_close(b(x), a(x))
    with pytest.raises(ens.Error, match="expected"):
        b.load_state_dict({k: v[:1] for k, v in a.state_dict().items()})


class Sorts(torch.nn.Module):
    def forward(self, x):
        return torch.sort(x).values  # the line the error must name


def test_an_unsupported_op_is_named_with_its_line(data):
    x, _ = data
    line = inspect.getsourcelines(Sorts.forward)[1] + 1
    with pytest.raises(et.UnsupportedOpError, match=rf"aten\.sort.*test_torch\.py:{line}"):
        et.Ensemble.from_modules([Sorts()], example_inputs=(x,))(x)


def test_cross_entropy_matches_torch_optim():
    g = torch.Generator().manual_seed(3)
    x, labels = torch.randn(24, 5, generator=g), torch.randint(0, 3, (24,), generator=g)
    modules = [mlp(s, torch.nn.ReLU) for s in range(MEMBERS)]
    ensemble = et.Ensemble.from_modules(copy.deepcopy(modules), example_inputs=(x,))
    step = ensemble.train_step(loss="cross_entropy", optimizer=et.Adam(lr=1e-2))
    losses = torch.stack([step(x, labels) for _ in range(5)])
    want = []
    optimizers = [torch.optim.Adam(m.parameters(), lr=1e-2) for m in modules]
    for _ in range(5):
        row = []
        for m, opt in zip(modules, optimizers):
            opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(m(x), labels)
            loss.backward()
            opt.step()
            row.append(loss.item())
        want.append(row)
    torch.testing.assert_close(losses, torch.tensor(want), atol=2e-5, rtol=1e-4)
    assert_same_parameters(ensemble, modules)


def test_unknown_loss_and_optimizer(data):
    x, _ = data
    ensemble = et.Ensemble.from_modules([mlp(0)], example_inputs=(x,))
    with pytest.raises(ens.Error, match="loss .hinge. is not supported"):
        ensemble.train_step(loss="hinge")
    with pytest.raises(ens.Error, match="must be ens.torch.Adam"):
        ensemble.train_step(optimizer=torch.optim.Adam)
    with pytest.raises(ens.Error, match=r"lr has shape \(3,\); give one rate or 1"):
        ensemble.train_step(optimizer=et.Adam(lr=torch.ones(3)))


class Mixed(torch.nn.Module):
    """Most of the ops ens.torch imports, in one member."""

    def __init__(self, seed):
        super().__init__()
        torch.manual_seed(seed)
        self.a = torch.nn.Linear(6, 8)
        self.w = torch.nn.Parameter(torch.randn(8, 8) / 3)
        self.b = torch.nn.Linear(8, 4)
        self.scale = torch.nn.Parameter(torch.randn(4))
        self.drop = torch.nn.Dropout(0.5)

    def forward(self, x):                                  # [B, 2, 3]
        h = torch.nn.functional.silu(self.a(torch.flatten(x, 1)))
        h = torch.nn.functional.gelu(torch.matmul(h, self.w), approximate="tanh")
        h = self.drop(torch.cat([h, h * 0.5 - 1.0], dim=1))  # [B, 16]
        h = h.view(-1, 2, 8).permute(0, 2, 1).mean(dim=2)   # [B, 8]
        y = self.b(torch.tanh(h) / 2) * self.scale + 1.0
        y = torch.log_softmax(y, dim=-1) + torch.exp(y).sum(-1, keepdim=True) ** 2 / 100
        return torch.softmax(y, dim=1) + torch.sigmoid(y).t().t()


def test_many_ops_forward_and_training():
    g = torch.Generator().manual_seed(5)
    x, y = torch.randn(12, 2, 3, generator=g), torch.randn(12, 4, generator=g)
    modules = [Mixed(s).eval() for s in range(3)]
    ensemble = et.Ensemble.from_modules(copy.deepcopy(modules), example_inputs=(x,))
    with torch.no_grad():
        want = torch.stack([m(x) for m in modules])
    torch.testing.assert_close(ensemble(x), want, atol=1e-5, rtol=1e-5)
    step = ensemble.train_step(optimizer=et.Adam(lr=1e-2))
    losses = torch.stack([step(x, y) for _ in range(3)])
    want = torch_loops(modules, lambda p: torch.optim.Adam(p, lr=1e-2), x, y, 3)
    torch.testing.assert_close(losses, want, atol=2e-5, rtol=1e-4)
    assert_same_parameters(ensemble, modules)


def test_dropout_in_training_mode_draws_a_mask_per_member_and_call():
    x = torch.randn(32, 5)
    torch.manual_seed(1)
    linear = torch.nn.Linear(5, 64)
    member = torch.nn.Sequential(linear, torch.nn.Dropout(0.25))  # train mode
    ensemble = et.Ensemble.from_modules([copy.deepcopy(member) for _ in range(4)], example_inputs=(x,))
    with torch.no_grad():
        dense = linear(x)
    first, second = ensemble(x), ensemble(x)
    for out in (first, second):
        kept = out != 0
        # Kept elements are scaled by 1 / (1 - p), the rest are zero.
        torch.testing.assert_close(out[kept], (dense / 0.75).expand_as(out)[kept], atol=1e-5, rtol=1e-5)
        for m in range(4):
            assert 0.2 < 1 - kept[m].float().mean().item() < 0.3
    masks = [(first[m] != 0) for m in range(4)] + [second[0] != 0]
    for i in range(len(masks)):
        for j in range(i):
            assert not torch.equal(masks[i], masks[j])


def test_training_with_dropout_uses_one_mask_for_loss_and_gradient():
    # With dropout before the only layer's output, a unit dropped in the
    # loss gets no gradient: its weights stay as they were with SGD.
    torch.manual_seed(2)
    x, y = torch.randn(1, 5), torch.randn(1, 64)
    member = torch.nn.Sequential(torch.nn.Linear(5, 64), torch.nn.Dropout(0.5))
    ensemble = et.Ensemble.from_modules([member], example_inputs=(x,))
    before = ensemble.params[0].clone()
    loss = ensemble.train_step(optimizer=et.SGD(lr=0.1))(x, y)
    kept = (ensemble.params[0] != before).any(dim=2)[0]
    assert 10 < kept.sum().item() < 54
    # The loss is the one of the mask that the gradient saw.
    with torch.no_grad():
        out = member[0](x) / 0.5 * kept
    torch.testing.assert_close(loss[0], torch.nn.functional.mse_loss(out, y), atol=1e-5, rtol=1e-5)


def cnn(seed):
    torch.manual_seed(seed)
    return torch.nn.Sequential(
        torch.nn.Conv2d(1, 4, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
        torch.nn.Conv2d(4, 6, 3, stride=1, dilation=1), torch.nn.Tanh(), torch.nn.AvgPool2d(2),
        torch.nn.Flatten(), torch.nn.Linear(6, 3))


def test_cnn_trains_as_torch_optim_adam():
    g = torch.Generator().manual_seed(9)
    x, labels = torch.randn(8, 1, 8, 8, generator=g), torch.randint(0, 3, (8,), generator=g)
    modules = [cnn(s) for s in range(3)]
    ensemble = et.Ensemble.from_modules(copy.deepcopy(modules), example_inputs=(x,))
    with torch.no_grad():
        want = torch.stack([m(x) for m in modules])
    torch.testing.assert_close(ensemble(x), want, atol=1e-5, rtol=1e-5)
    step = ensemble.train_step(loss="cross_entropy", optimizer=et.Adam(lr=1e-2))
    for _ in range(3):
        step(x, labels)
    optimizers = [torch.optim.Adam(m.parameters(), lr=1e-2) for m in modules]
    for _ in range(3):
        for m, opt in zip(modules, optimizers):
            opt.zero_grad()
            torch.nn.functional.cross_entropy(m(x), labels).backward()
            opt.step()
    assert_same_parameters(ensemble, modules)


def test_conv1d_with_stride_and_groups_forward():
    torch.manual_seed(4)
    x = torch.randn(5, 4, 11)
    modules = [torch.nn.Sequential(torch.nn.Conv1d(4, 6, 3, stride=2, padding=1, groups=2),
                                   torch.nn.MaxPool1d(2)) for _ in range(2)]
    ensemble = et.Ensemble.from_modules(modules, example_inputs=(x,))
    with torch.no_grad():
        want = torch.stack([m(x) for m in modules])
    torch.testing.assert_close(ensemble(x), want, atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("pool", [
    torch.nn.MaxPool2d(3, stride=2, padding=1),
    torch.nn.AvgPool2d(3, stride=2, padding=1),
    torch.nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False),
    torch.nn.MaxPool1d(2, padding=1),
])
def test_padded_pooling_forward_and_gradient(pool):
    one_d = isinstance(pool, torch.nn.MaxPool1d)
    x = torch.randn(3, 2, 7) if one_d else torch.randn(3, 2, 7, 7)
    torch.manual_seed(0)
    conv = torch.nn.Conv1d(2, 2, 1) if one_d else torch.nn.Conv2d(2, 2, 1)
    modules = [torch.nn.Sequential(copy.deepcopy(conv), pool, torch.nn.Flatten(), torch.nn.LazyLinear(1))
               for _ in range(2)]
    for m in modules:
        m(x)  # materialise the lazy layer
    ensemble = et.Ensemble.from_modules(copy.deepcopy(modules), example_inputs=(x,))
    with torch.no_grad():
        want = torch.stack([m(x) for m in modules])
    torch.testing.assert_close(ensemble(x), want, atol=1e-5, rtol=1e-5)
    y = torch.randn(3, 1)
    step = ensemble.train_step(optimizer=et.SGD(lr=0.1))
    for _ in range(2):
        step(x, y)
    torch_loops(modules, lambda p: torch.optim.SGD(p, lr=0.1), x, y, 2)
    assert_same_parameters(ensemble, modules)


def test_pooling_with_ceil_mode_is_refused():
    x = torch.randn(2, 1, 7, 7)
    # No frame of the caller: the line is torch's own.
    with pytest.raises(et.UnsupportedOpError, match=r"aten\.max_pool2d.*ceil_mode.*pooling\.py:\d+"):
        et.Ensemble.from_modules([torch.nn.MaxPool2d(2, ceil_mode=True)], example_inputs=(x,))(x)


def test_layer_norm_and_einsum_train_as_torch_optim_adam(data):
    x, y = data

    class Member(torch.nn.Module):
        def __init__(self, seed):
            super().__init__()
            torch.manual_seed(seed)
            self.a = torch.nn.Linear(5, 8)
            self.norm = torch.nn.LayerNorm(8)
            self.w = torch.nn.Parameter(torch.randn(8, 3) / 3)

        def forward(self, x):
            return torch.einsum("bi,io->bo", self.norm(torch.relu(self.a(x))), self.w)

    modules = [Member(s) for s in range(3)]
    for m in modules:  # LayerNorm starts at ones and zeros: make them count
        with torch.no_grad():
            m.norm.weight.uniform_(0.5, 1.5)
            m.norm.bias.uniform_(-0.5, 0.5)
    ensemble = et.Ensemble.from_modules(copy.deepcopy(modules), example_inputs=(x,))
    with torch.no_grad():
        want = torch.stack([m(x) for m in modules])
    torch.testing.assert_close(ensemble(x), want, atol=1e-5, rtol=1e-5)
    step = ensemble.train_step(optimizer=et.Adam(lr=1e-2))
    for _ in range(3):
        step(x, y)
    torch_loops(modules, lambda p: torch.optim.Adam(p, lr=1e-2), x, y, 3)
    assert_same_parameters(ensemble, modules)


def test_a_callable_loss(data):
    x, y = data
    modules = [mlp(s) for s in range(MEMBERS)]
    ensemble = et.Ensemble.from_modules(copy.deepcopy(modules), example_inputs=(x,))

    def huberish(prediction, target):
        e = prediction - target
        return (torch.sqrt(e * e + 1.0) - 1.0).mean() + torch.nn.functional.mse_loss(prediction, target)

    step = ensemble.train_step(loss=huberish, optimizer=et.Adam(lr=1e-2))
    losses = torch.stack([step(x, y) for _ in range(3)])
    optimizers = [torch.optim.Adam(m.parameters(), lr=1e-2) for m in modules]
    want = []
    for _ in range(3):
        row = []
        for m, opt in zip(modules, optimizers):
            opt.zero_grad()
            loss = huberish(m(x), y)
            loss.backward()
            opt.step()
            row.append(loss.item())
        want.append(row)
    torch.testing.assert_close(losses, torch.tensor(want), atol=2e-5, rtol=1e-4)
    assert_same_parameters(ensemble, modules)


def test_the_same_shapes_never_recompile(data):
    x, y = data
    ensemble = et.Ensemble.from_modules([mlp(s) for s in range(2)], example_inputs=(x,))
    step = ensemble.train_step()
    for _ in range(3):
        step(x, y)
        ensemble(x)
    assert len(step._programs) == 1 and len(ensemble._forwards) == 1
    step(x[:7], y[:7])
    assert len(step._programs) == 2


def bn_cnn(seed):
    torch.manual_seed(seed)
    net = torch.nn.Sequential(
        # No bias before a batch norm: its gradient is zero up to rounding,
        # which Adam would blow up to steps of lr in any direction.
        torch.nn.Conv2d(2, 4, 3, padding=1, bias=False), torch.nn.BatchNorm2d(4), torch.nn.ReLU(),
        torch.nn.AvgPool2d(2), torch.nn.Flatten(), torch.nn.Linear(4 * 3 * 3, 5, bias=False),
        torch.nn.BatchNorm1d(5), torch.nn.Tanh(), torch.nn.Linear(5, 2))
    for m in net.modules():  # batch norm starts at ones and zeros: make them count
        if isinstance(m, torch.nn.modules.batchnorm._BatchNorm):
            with torch.no_grad():
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.5, 0.5)
    return net


def assert_same_buffers(ensemble, modules):
    for i, (mine, theirs) in enumerate(zip(ensemble.to_modules(), modules)):
        for (name, b), c in zip(mine.named_buffers(), theirs.buffers()):
            torch.testing.assert_close(b, c, atol=2e-4, rtol=1e-4, msg=lambda m: f"member {i} {name}: {m}")


def test_batch_norm_in_training_mode_matches_torch():
    g = torch.Generator().manual_seed(11)
    x, y = torch.randn(6, 2, 6, 6, generator=g), torch.randn(6, 2, generator=g)
    modules = [bn_cnn(s) for s in range(3)]
    ensemble = et.Ensemble.from_modules(copy.deepcopy(modules), example_inputs=(x,))
    # A forward in training mode uses the batch's statistics and updates
    # the running ones, as torch's does.
    want = torch.stack([m(x) for m in modules]).detach()
    torch.testing.assert_close(ensemble(x), want, atol=1e-5, rtol=1e-5)
    assert_same_buffers(ensemble, modules)
    step = ensemble.train_step(optimizer=et.Adam(lr=1e-2))
    losses = torch.stack([step(x, y) for _ in range(3)])
    want = torch_loops(modules, lambda p: torch.optim.Adam(p, lr=1e-2), x, y, 3)
    torch.testing.assert_close(losses, want, atol=2e-5, rtol=1e-4)
    assert_same_parameters(ensemble, modules)
    assert_same_buffers(ensemble, modules)


def test_batch_norm_in_eval_mode_uses_the_running_statistics():
    x = torch.randn(6, 2, 6, 6)
    modules = [bn_cnn(s) for s in range(2)]
    for m in modules:
        m(torch.randn(6, 2, 6, 6))  # move the running statistics
        m.eval()
    ensemble = et.Ensemble.from_modules(copy.deepcopy(modules), example_inputs=(x,))
    with torch.no_grad():
        want = torch.stack([m(x) for m in modules])
    torch.testing.assert_close(ensemble(x), want, atol=1e-5, rtol=1e-5)
    assert_same_buffers(ensemble, modules)


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu_forward_and_training(data, approximate):
    x, y = data
    x = x * 3  # reach the tails
    modules = [torch.nn.Sequential(torch.nn.Linear(5, 16), torch.nn.GELU(approximate), torch.nn.Linear(16, 3))
               for _ in range(2)]
    ensemble = et.Ensemble.from_modules(copy.deepcopy(modules), example_inputs=(x,))
    with torch.no_grad():
        want = torch.stack([m(x) for m in modules])
    torch.testing.assert_close(ensemble(x), want, atol=1e-5, rtol=1e-5)
    step = ensemble.train_step(optimizer=et.Adam(lr=1e-2))
    for _ in range(3):
        step(x, y)
    torch_loops(modules, lambda p: torch.optim.Adam(p, lr=1e-2), x, y, 3)
    assert_same_parameters(ensemble, modules)


def test_an_unsupported_op_is_refused_when_the_ensemble_is_made(data):
    x, _ = data
    with pytest.raises(et.UnsupportedOpError, match=r"aten\.sort"):
        et.Ensemble.from_modules([Sorts()], example_inputs=(x,))


def test_the_model_ensembling_tutorial():
    """PyTorch's model-ensembling tutorial: 10 members of 784-128-128-10,
    stacked with torch.func.stack_module_state and run with vmap."""
    from torch.func import functional_call, stack_module_state

    def member(seed):
        torch.manual_seed(seed)
        return torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(784, 128), torch.nn.ReLU(),
                                   torch.nn.Linear(128, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10))

    modules = [member(s) for s in range(10)]
    g = torch.Generator().manual_seed(12)
    data, targets = torch.randn(64, 1, 28, 28, generator=g), torch.randint(0, 10, (64,), generator=g)
    params, buffers = stack_module_state(modules)
    base = copy.deepcopy(modules[0]).to("meta")

    def call(p, b, x):
        return functional_call(base, (p, b), (x,))

    with torch.no_grad():
        want = torch.vmap(call, in_dims=(0, 0, None))(params, buffers, data)
    ensemble = et.Ensemble.from_modules(copy.deepcopy(modules), example_inputs=(data,))
    torch.testing.assert_close(ensemble(data), want, atol=1e-5, rtol=1e-5)
    step = ensemble.train_step(loss="cross_entropy", optimizer=et.Adam(lr=1e-3))
    for _ in range(3):
        step(data, targets)
    optimizers = [torch.optim.Adam(m.parameters(), lr=1e-3) for m in modules]
    for _ in range(3):
        for m, opt in zip(modules, optimizers):
            opt.zero_grad()
            torch.nn.functional.cross_entropy(m(data), targets).backward()
            opt.step()
    assert_same_parameters(ensemble, modules)


def test_the_multi_head_q_network():
    """The seed's multi-head Q-network: 128 heads of Linear-Tanh-Linear,
    each trained on its own, their predictions averaged."""
    heads = 128
    g = torch.Generator().manual_seed(13)
    states, returns = torch.randn(32, 6, generator=g), torch.randn(32, 4, generator=g)

    def head(seed):
        torch.manual_seed(seed)
        return torch.nn.Sequential(torch.nn.Linear(6, 16), torch.nn.Tanh(), torch.nn.Linear(16, 4))

    modules = [head(s) for s in range(heads)]
    ensemble = et.Ensemble.from_modules(copy.deepcopy(modules), example_inputs=(states,))
    step = ensemble.train_step(optimizer=et.Adam(lr=3e-3))
    for _ in range(4):
        step(states, returns)
    torch_loops(modules, lambda p: torch.optim.Adam(p, lr=3e-3), states, returns, 4)
    assert_same_parameters(ensemble, modules)
    with torch.no_grad():
        want = torch.stack([m(states) for m in modules]).mean(0)
    torch.testing.assert_close(ensemble(states).mean(0), want, atol=1e-5, rtol=1e-5)


def test_a_training_step_with_a_batch_per_member():
    g = torch.Generator().manual_seed(14)
    xs, ys = torch.randn(MEMBERS, 16, 5, generator=g), torch.randn(MEMBERS, 16, 3, generator=g)
    modules = [mlp(s) for s in range(MEMBERS)]
    ensemble = et.Ensemble.from_modules(copy.deepcopy(modules), example_inputs=(xs[0],))
    step = ensemble.train_step(optimizer=et.Adam(lr=1e-2), member_inputs=True)
    losses = torch.stack([step(xs, ys) for _ in range(3)])
    want = torch.cat([torch_loops([m], lambda p: torch.optim.Adam(p, lr=1e-2), xs[i], ys[i], 3)
                      for i, m in enumerate(modules)], dim=1)
    torch.testing.assert_close(losses, want, atol=2e-5, rtol=1e-4)
    assert_same_parameters(ensemble, modules)
    with pytest.raises(ens.Error, match="lead with the 4 members"):
        step(xs[:2], ys[:2])
