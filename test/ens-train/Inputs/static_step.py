"""Makes ens-train's --emit-ir output compilable on its own: every function
but @ens_train_step becomes private (so that symbol-dce drops what the step
does not call), and prints the step's argument types with the batch's `?`
size given, for ens-specialize's arg-types.

usage: static_step.py IN.mlir OUT.mlir BATCH
"""
import re
import sys

source, target, batch = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(source).read()
open(target, "w").write(
    re.sub(r"func\.func @(?!ens_train_step\()", "func.func private @", text))
start = text.index("func.func @ens_train_step(")
arguments = text[start:text.index("->", start)]
print(",".join(t.replace("?", batch)
               for t in re.findall(r"tensor<[^>]*>", arguments)), end="")
