# ===- make_digits_npz.py - Writes test/ens-train/Inputs/digits.npz -------=== #
#
# The UCI "Optical Recognition of Handwritten Digits" test set (1,797 8x8
# images of the digits 0..9, each pixel a count 0..16; CC BY 4.0) as
# scikit-learn ships it, sklearn.datasets.load_digits(), written in its row
# order with np.savez (stored, not compressed): x [1797, 64] uint8, the raw
# counts, and y [1797] int64, the labels. Needs NumPy and scikit-learn; the
# tests only read the file it wrote (see standardize_digits.py).
#
#   python3 make_digits_npz.py test/ens-train/Inputs/digits.npz
#
# ===----------------------------------------------------------------------=== #

import sys

import numpy as np
from sklearn.datasets import load_digits


def main():
    digits = load_digits()
    x = digits.data
    assert x.shape == (1797, 64) and np.all(x == np.round(x))
    assert x.min() >= 0 and x.max() <= 16
    x = x.astype(np.uint8)
    y = digits.target.astype(np.int64)
    assert y.shape == (1797,) and set(y.tolist()) == set(range(10))
    np.savez(sys.argv[1], x=x, y=y)


if __name__ == "__main__":
    main()
