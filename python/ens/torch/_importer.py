"""torch.export of one member into an ens function."""

import collections
import operator

import torch

import ens

from ._ir import _DTYPES, _Function, _type, _unsupported
from ._ops import _LOWERINGS


Imported = collections.namedtuple(
    "Imported", "text parameter_names result_type random buffer_names mutated_buffers")


def import_module(module, example_inputs, name="forward"):
    """One member's forward as an ens function.

    Returns an ``Imported(text, parameter_names, result_type, random,
    buffer_names, mutated_buffers)``: the function ``@name`` takes the
    parameters in ``named_parameters()`` order, the float buffers
    (``buffer_names``, batch norm's running statistics), the inputs at the
    shapes of ``example_inputs``, and when ``random`` (dropout in training
    mode) a last ``tensor<2xi32>`` key. It returns the module's result and
    then the new values of ``mutated_buffers``, those that the module
    updates in place. Integer buffers (``num_batches_tracked``) are left to
    the caller.
    """
    exported = torch.export.export(module, tuple(example_inputs))
    signature = exported.graph_signature
    to_parameter = signature.inputs_to_parameters
    to_buffer = signature.inputs_to_buffers
    names = [n for n, _ in module.named_parameters()]
    buffer_names = [n for n, b in module.named_buffers() if b.dtype in _DTYPES]
    f = _Function(name)
    values, params, buffers, inputs = {}, {}, {}, []

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
            if dtype is None and node.name in to_buffer:
                values[node.name] = None
                continue
            if dtype is None:
                raise ens.Error(f"ens.torch: input {node.name} has dtype {val.dtype}, "
                                "which ens does not support")
            arg = (f"%{node.name}", tuple(val.shape), dtype)
            values[node.name] = arg
            if node.name in to_parameter:
                params[to_parameter[node.name]] = arg
            elif node.name in to_buffer:
                buffers[to_buffer[node.name]] = arg
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
    ordered = [params[n] for n in names] + [buffers[n] for n in buffer_names] + inputs
    if f.dropouts:
        ordered.append(("%key", (2,), "i32"))
    mutated = [n for n in buffer_names if buffers[n][0] in f.mutations]
    results = [result] + [f.mutations[buffers[n][0]] for n in mutated]
    header = ", ".join(f"{n}: {_type(s, d)}" for n, s, d in ordered)
    types = ", ".join(_type(s, d) for _, s, d in results)
    text = (f"func.func @{name}({header}) -> ({types}) {{\n"
            + "\n".join(f.lines)
            + f"\n  return {', '.join(v for v, _, _ in results)} : {types}\n}}\n")
    return Imported(text, names, _type(result[1], result[2]), f.dropouts > 0, buffer_names, mutated)
