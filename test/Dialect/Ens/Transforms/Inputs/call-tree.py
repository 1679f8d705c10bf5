"""Prints a call tree of DEPTH functions, each calling the next twice, the
last one an ens.exp: once inlined, @f0 has 2^DEPTH exp ops (issue #25)."""
import sys

depth = int(sys.argv[1])
for level in range(depth):
    print(f"func.func @f{level}(%x: tensor<f32>) -> tensor<f32> {{")
    print(f"  %a = call @f{level + 1}(%x) : (tensor<f32>) -> tensor<f32>")
    print(f"  %b = call @f{level + 1}(%a) : (tensor<f32>) -> tensor<f32>")
    print("  return %b : tensor<f32>")
    print("}")
print(f"func.func @f{depth}(%x: tensor<f32>) -> tensor<f32> {{")
print("  %y = ens.exp %x : tensor<f32>")
print("  return %y : tensor<f32>")
print("}")
