"""Per-example gradients through ens.torch against torch.func: the seed's
natively single-example tensordot model (issue #27 item 6)."""

import pytest
import torch
from torch.func import functional_call, grad, vmap

import ens
import ens.torch as et


class Tensordot(torch.nn.Module):
    """examples/tensordot.mlir in PyTorch: one 3x2 example to one output,
    with no batch dimension anywhere."""

    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(3, 2, 1) * 0.5)
        self.b = torch.nn.Parameter(torch.randn(1))

    def forward(self, x):
        return torch.tanh(torch.tensordot(x, self.w, dims=([0, 1], [0, 1]))) + self.b


def torch_per_example(model, loss, xs, ys):
    """torch.func's per-example losses and gradients, the oracle."""
    params = {k: v.detach() for k, v in model.named_parameters()}

    def one(p, x, y):
        return loss(functional_call(model, p, (x,)), y)

    return vmap(one, in_dims=(None, 0, 0))(params, xs, ys), \
        vmap(grad(one), in_dims=(None, 0, 0))(params, xs, ys)


def clipped_mean(grads, norm):
    """DP-SGD's update direction: each example's gradient clipped to `norm`
    (over all parameters), then averaged."""
    total = torch.sqrt(sum(g.flatten(1).pow(2).sum(1) for g in grads.values()))
    scale = (norm / total).clamp(max=1.0)
    return {k: (g * scale.view(-1, *[1] * (g.dim() - 1))).mean(0) for k, g in grads.items()}


@pytest.mark.parametrize("device", ["cpu", "cuda-emu"])
def test_tensordot_per_example_gradients_against_torch_func(device):
    torch.manual_seed(6)
    model, mirror = Tensordot(), Tensordot()
    mirror.load_state_dict(model.state_dict())
    xs, ys = torch.randn(16, 3, 2), torch.randn(16, 1)
    mse = torch.nn.functional.mse_loss
    grads = et.per_example_grad(model, (xs[0],), loss="mse", device=device)
    # Several DP-SGD steps, each from per-example gradients: ens's on
    # `model`, torch.func's on `mirror`.
    for _ in range(3):
        losses, got = grads(xs, ys)
        want_losses, want = torch_per_example(mirror, mse, xs, ys)
        torch.testing.assert_close(losses, want_losses, rtol=1e-5, atol=1e-6)
        assert got.keys() == want.keys() == {"w", "b"}
        for name in want:
            assert got[name].shape == (16, *dict(model.named_parameters())[name].shape)
            torch.testing.assert_close(got[name], want[name], rtol=1e-5, atol=1e-6)
        with torch.no_grad():
            for m, g in ((model, clipped_mean(got, 0.5)), (mirror, clipped_mean(want, 0.5))):
                for name, p in m.named_parameters():
                    p -= 0.1 * g[name]
    for p, q in zip(model.parameters(), mirror.parameters()):
        torch.testing.assert_close(p, q, rtol=1e-5, atol=1e-6)


def test_a_callable_loss_and_a_new_batch_size():
    torch.manual_seed(7)
    model = Tensordot()

    def l1(prediction, target):
        return (prediction - target).abs().sum()

    grads = et.per_example_grad(model, (torch.randn(3, 2),), loss=l1)
    for batch in (5, 9):
        xs, ys = torch.randn(batch, 3, 2), torch.randn(batch, 1)
        losses, got = grads(xs, ys)
        want_losses, want = torch_per_example(model, l1, xs, ys)
        torch.testing.assert_close(losses, want_losses, rtol=1e-5, atol=1e-6)
        for name in want:
            torch.testing.assert_close(got[name], want[name], rtol=1e-5, atol=1e-6)


def test_per_example_grad_refusals():
    model = Tensordot()
    with pytest.raises(ens.Error, match="loss 'cross_entropy' is not supported"):
        et.per_example_grad(model, (torch.randn(3, 2),), loss="cross_entropy")
    grads = et.per_example_grad(model, (torch.randn(3, 2),))
    with pytest.raises(ens.Error, match="xs and ys hold 4 and 3 examples"):
        grads(torch.randn(4, 3, 2), torch.randn(3, 1))


def test_per_example_grad_refuses_what_it_cannot_lift():
    x = torch.randn(3, 2)
    with pytest.raises(ens.Error, match="unknown device 'tpu'"):
        et.per_example_grad(Tensordot(), (x,), device="tpu")
    with pytest.raises(ens.Error, match="a module of one input"):
        et.per_example_grad(Tensordot(), (x, x))
    with pytest.raises(ens.Error, match="without float buffers"):
        et.per_example_grad(torch.nn.BatchNorm1d(2), (x,))


class Outer(torch.nn.Module):
    def forward(self, x):
        return torch.tensordot(x, x, dims=0)


def test_a_tensordot_without_contracted_dims_is_refused_by_name():
    with pytest.raises(et.UnsupportedOpError, match=r"aten.tensordot.default \(only with dims to contract\)"):
        et.import_module(Outer(), (torch.randn(3),))
