#!/usr/bin/env python3
"""PyTorch fixtures for test/ens-run/cnn-torch.mlir: one member of
examples/cnn.mlir (@loss and its gradients) computed by PyTorch.

How the committed files in Inputs/cnn-torch/ were made: from the
repository root, with a Python 3 that has torch 2.15.0 (torch.__version__
"2.15.0+cu132", run on the CPU) and NumPy 2.4.6,

    python test/ens-run/Inputs/cnn_torch_fixtures.py test/ens-run/Inputs/cnn-torch

Running it again writes the same files byte for byte. Nothing of PyTorch
is needed to run the test (CI has none); only to remake the files.

Inputs (seed SEED = 17, NumPy's default_rng, so the values do not depend
on the torch version):
  x       [8,1,12,12] float32, standard normal
  labels  [8]         int32, uniform in 0..3
  w1 [4,1,3,3], b1 [4], w2 [8,4,3,3], b2 [8], w3 [72,4], b3 [4]  float32,
          normal with standard deviation 1/sqrt(fan_in) (weights) and 0.1
          (biases)
These are drawn in float32 and the whole computation starts from those
float32 values, widened exactly to float64.

The network, in float64, matching examples/cnn.mlir op by op:
  ens.conv NCHW/OIHW (dims 0,1,2,3), padding (1,1),(1,1), stride 1
                      -> F.conv2d(x, w, padding=1) (a cross-correlation)
  ens.broadcast_in_dim b {dims = 1} + ens.add -> + b[None, :, None, None]
  ens.relu            -> F.relu
  ens.reduce_window max, window 1x1x2x2, strides 1x1x2x2, no padding
                      -> F.max_pool2d(kernel_size=2, stride=2)
  ens.reshape 8x8x3x3 -> 8x72 (row-major) -> h.reshape(8, 72)
  ens.matmul flat[8,72] x w3[72,4] + b3 -> flat @ w3 + b3
  softmax_cross_entropy (mean over the batch) -> F.cross_entropy
                      (reduction='mean')
The gradients are torch.autograd's in float64.

Ties: max pooling's gradient at a tie differs between libraries' tie rules,
so the inputs are continuous random values and the script checks that no
2x2 window has a tie that matters: in every window whose maximum is
positive, the largest value exceeds the second by more than MARGIN, and
every pre-activation (conv + bias) is further than MARGIN from 0, so that
float32 rounding cannot flip a relu or a window's argmax. Windows whose
four values are all relu'd to 0 are ties, but every element of them has a
negative pre-activation, so relu's gradient is 0 there whichever element
the pooling picks: no tie rule changes any gradient.

Outputs (each .npy, little-endian):
  inputs:   x.npy, labels.npy (int32), w1.npy b1.npy w2.npy b2.npy w3.npy
            b3.npy (float32)
  expected: loss.npy (a 0-d float32), g_w1.npy ... g_b3.npy (float32,
            the float64 values rounded once), and the same in float64 as
            loss_f64.npy, g_w1_f64.npy, ... for reference.
"""

import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

SEED = 17
MARGIN = 1e-5


def make_inputs(seed=SEED):
    rng = np.random.default_rng(seed)

    def normal(shape, std):
        return (rng.standard_normal(shape) * std).astype(np.float32)

    x = normal((8, 1, 12, 12), 1.0)
    labels = rng.integers(0, 4, size=(8,)).astype(np.int32)
    w1 = normal((4, 1, 3, 3), 1.0 / np.sqrt(1 * 9))
    b1 = normal((4,), 0.1)
    w2 = normal((8, 4, 3, 3), 1.0 / np.sqrt(4 * 9))
    b2 = normal((8,), 0.1)
    w3 = normal((72, 4), 1.0 / np.sqrt(72))
    b3 = normal((4,), 0.1)
    return x, labels, (w1, b1, w2, b2, w3, b3)


def check_no_ties(pre, name):
    """pre: [N,C,H,W] pre-activations (conv + bias) of one block."""
    a = pre.detach().numpy()
    assert np.abs(a).min() > MARGIN, f"{name}: a pre-activation is near 0"
    r = np.maximum(a, 0.0)
    n, c, h, w = r.shape
    win = r.reshape(n, c, h // 2, 2, w // 2, 2).transpose(0, 1, 2, 4, 3, 5)
    win = np.sort(win.reshape(n, c, h // 2, w // 2, 4), axis=-1)
    top, second = win[..., 3], win[..., 2]
    positive = top > 0
    gap = (top - second)[positive]
    assert gap.min() > MARGIN, f"{name}: a near-tie in a pooling window"
    return np.abs(a).min(), gap.min(), int((~positive).sum())


def block(h, w, b, name, report):
    pre = F.conv2d(h, w, stride=1, padding=1) + b[None, :, None, None]
    report.append((name,) + check_no_ties(pre, name))
    return F.max_pool2d(F.relu(pre), kernel_size=2, stride=2)


def loss_fn(x, labels, w1, b1, w2, b2, w3, b3, report):
    h1 = block(x, w1, b1, "block1", report)          # [8,4,6,6]
    h2 = block(h1, w2, b2, "block2", report)         # [8,8,3,3]
    flat = h2.reshape(h2.shape[0], 72)               # row-major, as ens.reshape
    logits = flat @ w3 + b3                          # ens.matmul [8,72]x[72,4]
    return F.cross_entropy(logits, labels.long(), reduction="mean")


def main(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    x, labels, weights = make_inputs()
    names = ["w1", "b1", "w2", "b2", "w3", "b3"]

    xt = torch.from_numpy(x).double()
    lt = torch.from_numpy(labels)
    wt = [torch.from_numpy(w).double().requires_grad_(True) for w in weights]
    report = []
    loss = loss_fn(xt, lt, *wt, report)
    grads = torch.autograd.grad(loss, wt)

    np.save(os.path.join(out_dir, "x.npy"), x)
    np.save(os.path.join(out_dir, "labels.npy"), labels)
    for n, w in zip(names, weights):
        np.save(os.path.join(out_dir, f"{n}.npy"), w)
    l64 = np.array(loss.item(), dtype=np.float64)
    np.save(os.path.join(out_dir, "loss.npy"), l64.astype(np.float32))
    np.save(os.path.join(out_dir, "loss_f64.npy"), l64)
    for n, g in zip(names, grads):
        g64 = g.numpy().astype(np.float64)
        np.save(os.path.join(out_dir, f"g_{n}.npy"), g64.astype(np.float32))
        np.save(os.path.join(out_dir, f"g_{n}_f64.npy"), g64)

    print(f"torch {torch.__version__}, numpy {np.__version__}, seed {SEED}")
    print(f"loss {loss.item():.17g}")
    for n, g in zip(names, grads):
        print(f"g_{n}: max |g| {g.abs().max().item():.3g}, "
              f"min |g| {g.abs().min().item():.3g}")
    for name, min_pre, min_gap, zero_windows in report:
        print(f"{name}: min |pre-activation| {min_pre:.3g}, min window gap "
              f"{min_gap:.3g}, all-zero windows {zero_windows}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else
         os.path.join(os.path.dirname(os.path.abspath(__file__)), "cnn-torch"))
