#!/usr/bin/env python3
"""Prints an ens function @chain(%x: tensor<2x3xf32>) of N elementwise ops
in one of three shapes, each with a closed form:

  chain   adds 1 and subtracts 0.5 in turn: x + N / 4 (N even).
  shared  each op subtracts the value before the previous one from the
          previous one, so that every value is read by the next two ops;
          the values repeat with period 6: 0, -x, -x, 0, x, x, 0, ...
          (N = 20000 gives -x).
  leaves  a chain that subtracts -x (a leaf op of its own) N / 2 times:
          x + (N / 2) * x (N even).

    elementwise-chain.py SHAPE N
"""

import sys


def main():
    shape, count = sys.argv[1], int(sys.argv[2])
    ty = "tensor<2x3xf32>"
    print(f"func.func @chain(%x: {ty}) -> {ty} {{")
    if shape == "chain":
        print(f"  %one = ens.constant dense<1.0> : {ty}")
        print(f"  %half = ens.constant dense<0.5> : {ty}")
        previous = "%x"
        for i in range(count):
            op, constant = ("add", "%one") if i % 2 == 0 else ("sub", "%half")
            print(f"  %v{i} = ens.{op} {previous}, {constant} : {ty}")
            previous = f"%v{i}"
    elif shape == "shared":
        before, previous = "%x", "%x"
        for i in range(count):
            print(f"  %v{i} = ens.sub {previous}, {before} : {ty}")
            before, previous = previous, f"%v{i}"
    elif shape == "leaves":
        previous = "%x"
        for i in range(0, count, 2):
            print(f"  %n{i} = ens.neg %x : {ty}")
            print(f"  %v{i} = ens.sub {previous}, %n{i} : {ty}")
            previous = f"%v{i}"
    else:
        sys.exit(f"unknown shape {shape}")
    print(f"  return {previous} : {ty}")
    print("}")


if __name__ == "__main__":
    main()
