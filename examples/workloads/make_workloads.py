"""Writes the training-step workloads of this folder (issue #13, item 5).

Each workload is one full training step of an ensemble of MLPs, written
like examples/ensemble_train_step.mlir (the "seed-001" step, which is
workload 1 and is not generated): ONE member's forward pass, its MSE loss,
ens.value_and_grad for the gradients and the standard library's Adam for
every parameter, lifted over the members with ens.vmap; the batch is shared
by all members and each member has its own learning rate. Each file also
has @random_state, which makes a well-formed input for @train_step from one
key (weights, biases, nonzero Adam moments with v >= 0, step 3, a
learning-rate sweep, a normal batch and targets), so that the step can be
run and compared between backends without .npy files.

    python3 examples/workloads/make_workloads.py           # rewrites the files
    python3 examples/workloads/make_workloads.py --print mnist_mlp
    python3 examples/workloads/make_workloads.py --members 3 --batch 37 \\
        --widths 50,33,7 --activation relu -o small.mlir    # any other shape

The lit tests (test/Backend/Cuda/workloads-*.mlir) compare the committed
files with this script's output and run smaller shapes made by it.
"""
import argparse
import pathlib
import sys

# name: (members, batch, widths, activation, what)
WORKLOADS = {
    "mnist_mlp": (10, 64, [784, 128, 128, 10], "relu",
                  "10 members 784->128 relu->128 relu->10, batch 64"),
    "wide_relu": (16, 256, [512, 512, 512], "relu",
                  "16 members 512->512 relu->512, batch 256"),
    "tanh_256": (4, 512, [256, 256, 256], "tanh",
                 "4 members 256->256 tanh->256, batch 512"),
}


def tensor(*dims):
    return "tensor<" + "".join(f"{d}x" for d in dims) + "f32>"


def mlir_float(value):
    """A float literal MLIR parses: repr, with a '.0' before any exponent."""
    text = repr(float(value))
    mantissa, e, exponent = text.partition("e")
    if e and "." not in mantissa:
        mantissa += ".0"
    return mantissa + e + exponent


def wrap(text, width=80):
    """Breaks code lines longer than `width` after ", " (MLIR ignores the
    line breaks), continuing four columns deeper; comments stay as they are."""
    lines = []
    for line in text.split("\n"):
        if len(line) <= width or line.lstrip().startswith("//"):
            lines.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip()) + 4)
        pieces = line.split(", ")
        current = pieces[0]
        for piece in pieces[1:]:
            if len(current) + 2 + len(piece) < width:
                current += ", " + piece
            else:
                lines.append(current + ",")
                current = indent + piece
        lines.append(current)
    return "\n".join(lines)


def shape_name(dims):
    return "x".join(str(d) for d in dims)


class Workload:
    def __init__(self, name, members, batch, widths, activation, what):
        if len(widths) < 2:
            raise ValueError("a workload needs at least one layer")
        if activation not in ("relu", "tanh"):
            raise ValueError("activation must be relu or tanh")
        self.name = name
        self.members = members
        self.batch = batch
        self.widths = widths
        self.activation = activation
        self.what = what
        self.layers = len(widths) - 1
        # The parameters of one member, in order: w1, b1, w2, b2, ...
        self.params = []
        for layer in range(1, self.layers + 1):
            fan_in, fan_out = widths[layer - 1], widths[layer]
            self.params.append((f"w{layer}", [fan_in, fan_out], fan_in))
            self.params.append((f"b{layer}", [fan_out], fan_in))

    # Types of one member's values and of the stacked ones.
    def ptype(self, i):
        return tensor(*self.params[i][1])

    def stacked(self, i):
        return tensor(self.members, *self.params[i][1])

    def x_type(self):
        return tensor(self.batch, self.widths[0])

    def y_type(self):
        return tensor(self.batch, self.widths[-1])

    def adam_name(self, i):
        return "adam_" + shape_name(self.params[i][1])

    def step_arg_types(self, member):
        """Types of @member_step's (member) or @train_step's arguments."""
        one = self.ptype if member else self.stacked
        n = len(self.params)
        types = [one(i) for i in range(n)] * 3
        types += ["tensor<f32>",
                  "tensor<f32>" if member else tensor(self.members),
                  self.x_type(), self.y_type()]
        return types

    def step_result_types(self, member):
        one = self.ptype if member else self.stacked
        n = len(self.params)
        return [one(i) for i in range(n)] * 3 + [
            "tensor<f32>" if member else tensor(self.members)]

    def arg_names(self):
        names = [p[0] for p in self.params]
        names += ["m" + p[0] for p in self.params]
        names += ["v" + p[0] for p in self.params]
        return names + ["step", "lr", "x", "targets"]

    def header(self, command_name):
        w = self.widths
        layers = " -> ".join(
            [str(w[0])] + [f"{d} {self.activation}" for d in w[1:-1]] +
            [str(w[-1])])
        params = ", ".join(p[0] for p in self.params)
        n = len(self.params)
        return f"""\
// Workload "{self.name}" ({self.what}):
// one complete training step of an ensemble of {self.members} MLPs,
//   {layers}, on a shared batch of {self.batch},
// as ONE function, written like examples/ensemble_train_step.mlir: forward,
// MSE, backward (ens.value_and_grad) and an Adam update (from the standard
// library), lifted over the members with ens.vmap. Each member has its own
// learning rate. Generated by examples/workloads/make_workloads.py; edit
// that script, not this file.
//
// @train_step({params},   stacked parameters [{self.members} x ...]
//             the {n} first moments, then the {n} second moments (Adam),
//             step,     the step number, from 1 (shared)
//             lr,       learning rates [{self.members}]
//             x, targets)  the batch [{self.batch}x{w[0]}], [{self.batch}x{w[-1]}] (shared)
//   -> (new parameters, first moments, second moments, losses [{self.members}])
//
// @random_state(key) makes one well-formed input for @train_step.
//
//   ens-run {command_name} --entry=random_state --random-inputs=1 --output-dir=state
//   ens-run {command_name} --entry=train_step --input=state/out0.npy ... (all {3 * n + 4})
//   ens-run {command_name} --entry=train_step --kernel-report=json
//   ens-run {command_name} --entry=train_step --cuda-plan
"""

    def declarations(self):
        out = ["func.func private @mse({0}, {0}) -> tensor<f32>".format(
            self.y_type()), '    attributes {ens.stdlib = "mse"}']
        seen = set()
        for i in range(len(self.params)):
            name = self.adam_name(i)
            if name in seen:
                continue
            seen.add(name)
            t = self.ptype(i)
            out.append(f"func.func private @{name}({t}, {t}, {t}, {t},")
            out.append("    tensor<f32>, tensor<f32>, tensor<f32>, "
                       "tensor<f32>, tensor<f32>, tensor<f32>)")
            out.append(f"    -> ({t}, {t}, {t})")
            out.append('    attributes {ens.stdlib = "adam"}')
        return "\n".join(out) + "\n"

    def forward(self):
        b, w = self.batch, self.widths
        args = [f"%x: {self.x_type()}"] + [
            f"%{p[0]}: {self.ptype(i)}" for i, p in enumerate(self.params)]
        out = ["func.func @forward(" + ", ".join(args) + ")",
               f"    -> {self.y_type()} {{"]
        prev = "%x"
        for layer in range(1, self.layers + 1):
            t_in = tensor(b, w[layer - 1])
            t_w = tensor(w[layer - 1], w[layer])
            t_out = tensor(b, w[layer])
            if layer == 1:
                out.append(f'  %a{layer} = ens.einsum {prev}, %w{layer} '
                           f'{{spec = "bi,ih->bh"}}')
            else:
                out.append(f"  %a{layer} = ens.matmul {prev}, %w{layer}")
            out.append(f"      : {t_in}, {t_w} -> {t_out}")
            out.append(f"  %c{layer} = ens.broadcast_in_dim %b{layer} "
                       "{dims = array<i64: 1>}")
            out.append(f"      : {tensor(w[layer])} -> {t_out}")
            out.append(f"  %z{layer} = ens.add %a{layer}, %c{layer} : {t_out}")
            if layer < self.layers:
                out.append(f"  %h{layer} = ens.{self.activation} %z{layer} "
                           f": {t_out}")
                prev = f"%h{layer}"
        out.append(f"  return %z{self.layers} : {self.y_type()}")
        out.append("}")
        return "\n".join(out) + "\n"

    def loss(self):
        args = [f"%x: {self.x_type()}"] + [
            f"%{p[0]}: {self.ptype(i)}" for i, p in enumerate(self.params)] + [
            f"%targets: {self.y_type()}"]
        call_args = ", ".join(["%x"] + [f"%{p[0]}" for p in self.params])
        call_types = ", ".join([self.x_type()] + [
            self.ptype(i) for i in range(len(self.params))])
        return f"""\
func.func @loss({", ".join(args)})
    -> tensor<f32> {{
  %y = call @forward({call_args})
      : ({call_types}) -> {self.y_type()}
  %mse = call @mse(%y, %targets)
      : ({self.y_type()}, {self.y_type()}) -> tensor<f32>
  return %mse : tensor<f32>
}}
"""

    def member_step(self):
        n = len(self.params)
        names = self.arg_names()
        types = self.step_arg_types(member=True)
        args = ", ".join(f"%{a}: {t}" for a, t in zip(names, types))
        results = ", ".join(self.step_result_types(member=True))
        loss_args = ", ".join(["%x"] + [f"%{p[0]}" for p in self.params] +
                              ["%targets"])
        loss_types = ", ".join([self.x_type()] + [
            self.ptype(i) for i in range(n)] + [self.y_type()])
        grads = ", ".join(f"%g{i}" for i in range(n))
        grad_types = ", ".join(self.ptype(i) for i in range(n))
        wrt = ", ".join(str(i + 1) for i in range(n))
        out = [f"func.func @member_step({args})",
               f"    -> ({results}) {{",
               f"  %loss, {grads} = ens.value_and_grad @loss({loss_args})",
               f"      {{wrt = array<i64: {wrt}>}}",
               f"      : ({loss_types})",
               f"      -> (tensor<f32>, {grad_types})",
               "  %beta1 = ens.constant dense<0.9> : tensor<f32>",
               "  %beta2 = ens.constant dense<0.999> : tensor<f32>",
               "  %eps = ens.constant dense<1.0e-8> : tensor<f32>",
               "  %decay = ens.constant dense<0.0> : tensor<f32>"]
        for i, (p, _, _) in enumerate(self.params):
            t = self.ptype(i)
            out.append(f"  %n{p}, %nm{p}, %nv{p} = call @{self.adam_name(i)}"
                       f"(%{p}, %g{i}, %m{p}, %v{p}, %step, %lr, %beta1, "
                       "%beta2, %eps, %decay)")
            out.append(f"      : ({t}, {t}, {t}, {t}, tensor<f32>, "
                       "tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, "
                       f"tensor<f32>) -> ({t}, {t}, {t})")
        rets = ([f"%n{p[0]}" for p in self.params] +
                [f"%nm{p[0]}" for p in self.params] +
                [f"%nv{p[0]}" for p in self.params] + ["%loss"])
        out.append(f"  return {', '.join(rets)}")
        out.append(f"      : {results}")
        out.append("}")
        return "\n".join(out) + "\n"

    def train_step(self):
        n = len(self.params)
        names = self.arg_names()
        types = self.step_arg_types(member=False)
        args = ", ".join(f"%{a}: {t}" for a, t in zip(names, types))
        results = ", ".join(self.step_result_types(member=False))
        operands = ", ".join(f"%{a}" for a in names)
        in_axes = ", ".join(["0"] * (3 * n) + ["-1", "0", "-1", "-1"])
        out_axes = ", ".join(["0"] * (3 * n + 1))
        k = 3 * n + 1
        rets = ", ".join(f"%r#{i}" for i in range(k))
        return f"""\
func.func @train_step({args})
    -> ({results}) {{
  %r:{k} = ens.vmap @member_step({operands})
      {{in_axes = array<i64: {in_axes}>,
       out_axes = array<i64: {out_axes}>,
       size = {self.members} : i64}}
      : ({", ".join(types)})
      -> ({results})
  return {rets}
      : {results}
}}
"""

    def random_state(self):
        """@random_state(key): an input for @train_step, drawn from one key."""
        n = len(self.params)
        types = self.step_arg_types(member=False)
        out = ["// A well-formed input for @train_step from one key: weights and biases",
               "// U(-1/sqrt(fan_in), 1/sqrt(fan_in)), first moments U(-1e-3, 1e-3),",
               "// second moments U(0, 1e-6), step 3, learning rates U(1e-4, 1e-3),",
               "// a standard normal batch and standard normal targets.",
               "func.func @random_state(%key: tensor<2xi32>)",
               f"    -> ({', '.join(types)}) {{"]
        values = []

        def uniform(index, t, lo, hi):
            name = f"%s{index}"
            out.append(f"  %i{index} = ens.constant dense<{index}> "
                       ": tensor<i32>")
            out.append(f"  %k{index} = ens.random_fold_in %key, %i{index} "
                       ": tensor<2xi32>, tensor<i32> -> tensor<2xi32>")
            out.append(f"  %u{index} = ens.random_uniform %k{index} "
                       f": tensor<2xi32> -> {t}")
            out.append(f"  %scale{index} = ens.constant dense<{mlir_float(hi - lo)}> "
                       f": {t}")
            out.append(f"  %lo{index} = ens.constant dense<{mlir_float(lo)}> : {t}")
            out.append(f"  %p{index} = ens.mul %u{index}, %scale{index} "
                       f": {t}")
            out.append(f"  {name} = ens.add %p{index}, %lo{index} : {t}")
            values.append(name)

        def normal(index, t):
            out.append(f"  %i{index} = ens.constant dense<{index}> "
                       ": tensor<i32>")
            out.append(f"  %k{index} = ens.random_fold_in %key, %i{index} "
                       ": tensor<2xi32>, tensor<i32> -> tensor<2xi32>")
            out.append(f"  %s{index} = ens.random_normal %k{index} "
                       f": tensor<2xi32> -> {t}")
            values.append(f"%s{index}")

        index = 0
        for i, (_, _, fan_in) in enumerate(self.params):
            bound = 1.0 / fan_in ** 0.5
            uniform(index, types[index], -bound, bound)
            index += 1
        for i in range(n):
            uniform(index, types[index], -1e-3, 1e-3)
            index += 1
        for i in range(n):
            uniform(index, types[index], 0.0, 1e-6)
            index += 1
        out.append(f"  %s{index} = ens.constant dense<3.0> : tensor<f32>")
        values.append(f"%s{index}")
        index += 1
        uniform(index, types[index], 1e-4, 1e-3)
        index += 1
        normal(index, types[index])
        index += 1
        normal(index, types[index])
        out.append(f"  return {', '.join(values)}")
        out.append(f"      : {', '.join(types)}")
        out.append("}")
        return "\n".join(out) + "\n"

    def text(self, command_name):
        return wrap("\n".join([self.header(command_name),
                               self.declarations(), self.forward(),
                               self.loss(), self.member_step(),
                               self.train_step(), self.random_state()]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--print", metavar="NAME", choices=WORKLOADS,
                        help="print one named workload instead of writing")
    parser.add_argument("--members", type=int)
    parser.add_argument("--batch", type=int)
    parser.add_argument("--widths", help="layer widths, e.g. 784,128,10")
    parser.add_argument("--activation", choices=("relu", "tanh"))
    parser.add_argument("-o", "--output", help="with the shape options: "
                        "write the workload here ('-': stdout)")
    args = parser.parse_args()
    here = pathlib.Path(__file__).resolve().parent
    custom = (args.members, args.batch, args.widths, args.activation)
    if any(v is not None for v in custom):
        if any(v is None for v in custom) or args.output is None:
            parser.error("a custom shape needs --members, --batch, --widths, "
                         "--activation and -o")
        widths = [int(w) for w in args.widths.split(",")]
        what = (f"{args.members} members "
                f"{'->'.join(str(w) for w in widths)}, batch {args.batch}")
        text = Workload("custom", args.members, args.batch, widths,
                        args.activation, what).text("FILE.mlir")
        if args.output == "-":
            sys.stdout.write(text)
        else:
            pathlib.Path(args.output).write_text(text)
        return
    for name, spec in WORKLOADS.items():
        text = Workload(name, *spec).text(f"examples/workloads/{name}.mlir")
        if args.print:
            if name == args.print:
                sys.stdout.write(text)
            continue
        (here / f"{name}.mlir").write_text(text)


if __name__ == "__main__":
    main()
