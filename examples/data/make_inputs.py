"""Makes the example inputs in this folder and prints NumPy's own results.

The .npy files are committed, so nothing in ens needs Python; this script
records how they were made (NumPy 2.4, default_rng(seed 2026)) and the
reference values the tests compare against:

    python3 examples/data/make_inputs.py
"""
import pathlib

import numpy as np

here = pathlib.Path(__file__).parent
rng = np.random.default_rng(2026)


def save(name, array):
    np.save(here / f"{name}.npy", np.require(array, requirements="C"))


def uniform(shape, bound):
    return rng.uniform(-bound, bound, size=shape).astype("<f4")


x = rng.standard_normal((256, 64)).astype("<f4")
w1 = uniform((64, 32), 1 / np.sqrt(64))
b1 = uniform((32,), 1 / np.sqrt(64))
w2 = uniform((32, 8), 1 / np.sqrt(32))
b2 = uniform((8,), 1 / np.sqrt(32))
targets = rng.standard_normal((256, 8)).astype("<f4")
for name, array in dict(x=x, w1=w1, b1=b1, w2=w2, b2=b2,
                        targets=targets).items():
    save(name, array)

td_x = np.arange(6, dtype="<f4").reshape(3, 2) / 4
td_w = np.linspace(-1, 1, 6, dtype="<f4").reshape(3, 2, 1)
td_b = np.array([0.5], dtype="<f4")
save("td_x", td_x)
save("td_w", td_w)
save("td_b", td_b)

x64 = [a.astype(np.float64) for a in (x, w1, b1, w2, b2, targets)]
y = np.tanh(x64[0] @ x64[1] + x64[2]) @ x64[3] + x64[4]
print("mlp loss (float64 from the float32 inputs):",
      repr(np.mean((y - x64[5]) ** 2)))
print("tensordot:", np.tensordot(td_x, td_w, axes=([0, 1], [0, 1])) + td_b)

# Inputs of the ensemble's initialisation and training step
# (examples/ensemble_init.mlir, ensemble_train_step.mlir): a key, the step
# numbers and a learning-rate sweep over the 128 members.
save("key", np.array([0, 42], dtype="<i4"))
for step in (1, 2, 3):
    save(f"step{step}", np.array(step, dtype="<f4"))
save("lr128", np.linspace(1e-3, 1e-2, 128, dtype="<f4"))
