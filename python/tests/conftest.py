"""Shared fixtures of the ens package's tests: small models in the ens IR."""

import numpy as np
import pytest

import ens

# One member: a tanh layer on a batch of any size, and its mean squared
# error against targets.
MLP = """
func.func @predict(%x: tensor<?x4xf32>, %w: tensor<4x3xf32>,
                   %b: tensor<3xf32>) -> tensor<?x3xf32> {
  %0 = ens.matmul %x, %w : tensor<?x4xf32>, tensor<4x3xf32> -> tensor<?x3xf32>
  %1 = ens.broadcast_in_dim %b {dims = array<i64: 1>}
      : tensor<3xf32> -> tensor<?x3xf32>
  %2 = ens.add %0, %1 : tensor<?x3xf32>
  %y = ens.tanh %2 : tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}

func.func @loss(%x: tensor<?x4xf32>, %w: tensor<4x3xf32>, %b: tensor<3xf32>,
                %t: tensor<?x3xf32>) -> tensor<f32> {
  %y = call @predict(%x, %w, %b)
      : (tensor<?x4xf32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  %e = ens.sub %y, %t : tensor<?x3xf32>
  %s = ens.square %e : tensor<?x3xf32>
  %l = ens.reduce_mean %s {dims = array<i64: 0, 1>}
      : tensor<?x3xf32> -> tensor<f32>
  return %l : tensor<f32>
}
"""


def np_predict(x, w, b):
    """The NumPy oracle of @predict."""
    return np.tanh(x.astype(np.float64) @ w + b)


def np_loss_and_grads(x, w, b, t):
    """The NumPy oracle of @loss and its gradients by w and b."""
    x, w, b, t = (a.astype(np.float64) for a in (x, w, b, t))
    y = np.tanh(x @ w + b)
    e = y - t
    loss = np.mean(e * e)
    dz = 2.0 * e / e.size * (1.0 - y * y)
    return loss, x.T @ dz, dz.sum(axis=0)


@pytest.fixture
def rng():
    return np.random.default_rng(27)


@pytest.fixture
def module():
    return ens.Context().parse(MLP)


def randn(rng, *shape):
    return rng.standard_normal(shape).astype(np.float32)
