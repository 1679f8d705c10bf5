"""torch.export of one member into an ens function."""

import collections
import operator

import torch

import ens

from ._ir import _DTYPES, _Function, _type, _unsupported
from ._ops import _LOWERINGS


Imported = collections.namedtuple("Imported", "text parameter_names result_type random")


def import_module(module, example_inputs, name="forward"):
    """One member's forward as an ens function.

    Returns an ``Imported(text, parameter_names, result_type, random)``: the
    function ``@name`` takes the parameters in ``named_parameters()`` order,
    then the inputs, at the shapes of ``example_inputs``, and when
    ``random`` (dropout in training mode) a last ``tensor<2xi32>`` key.
    """
    exported = torch.export.export(module, tuple(example_inputs))
    signature = exported.graph_signature
    if signature.inputs_to_buffers:
        raise ens.Error("ens.torch: modules with buffers (batch norm's running "
                        "statistics) are not supported yet")
    to_parameter = signature.inputs_to_parameters
    names = [n for n, _ in module.named_parameters()]
    f = _Function(name)
    values, params, inputs = {}, {}, []

    def resolve(arg):
        if isinstance(arg, torch.fx.Node):
            return values[arg.name]
        if isinstance(arg, (list, tuple)):
            return type(arg)(resolve(a) for a in arg)
        return arg
    for node in exported.graph.nodes:
        if node.op == "placeholder":
            val = node.meta["val"]
            dtype = _DTYPES.get(val.dtype)
            if dtype is None:
                raise ens.Error(f"ens.torch: input {node.name} has dtype {val.dtype}, "
                                "which ens does not support")
            arg = (f"%{node.name}", tuple(val.shape), dtype)
            values[node.name] = arg
            if node.name in to_parameter:
                params[to_parameter[node.name]] = arg
            else:
                inputs.append(arg)
        elif node.op == "call_function" and node.target is operator.getitem:
            values[node.name] = resolve(node.args[0])[node.args[1]]
        elif node.op == "call_function":
            lower = _LOWERINGS.get(str(node.target))
            if lower is None:
                raise _unsupported(node)
            args = [resolve(a) for a in node.args]
            kwargs = {k: resolve(a) for k, a in node.kwargs.items()}
            values[node.name] = lower(f, node, *args, **kwargs)
        elif node.op == "output":
            outputs = node.args[0]
            if len(outputs) != 1:
                raise ens.Error("ens.torch: the module must return one tensor")
            result = values[outputs[0].name]
    ordered = [params[n] for n in names] + inputs
    if f.dropouts:
        ordered.append(("%key", (2,), "i32"))
    header = ", ".join(f"{n}: {_type(s, d)}" for n, s, d in ordered)
    text = ("".join(d + "\n" for d in f.declarations)
            + f"func.func @{name}({header}) -> {_type(result[1], result[2])} {{\n"
            + "\n".join(f.lines)
            + f"\n  return {result[0]} : {_type(result[1], result[2])}\n}}\n")
    return Imported(text, names, _type(result[1], result[2]), f.dropouts > 0)
