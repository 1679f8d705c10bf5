"""ens.torch: PyTorch modules in, trained as one compiled ensemble.

Imports one member, an ``nn.Module`` traced with ``torch.export``, into the
ens IR, lifts it over M members with ``ens.vmap`` and compiles a training
step (forward, loss, backward and the optimizer for every member) as one
program. This is the first slice of issue #27's ``ens.torch``: Linear,
matmul/mm/bmm, Conv1d/Conv2d, max and average pooling (not ceil_mode),
ReLU, Tanh, Sigmoid, SiLU, GELU, softmax and log-softmax,
elementwise arithmetic with NumPy broadcasting, sums, means and maxima,
view/reshape/flatten/permute/cat, einsum, tensordot, layer and batch
norm (running statistics kept and updated) and dropout (a mask per member, call and
step); the MSE and cross-entropy losses or a traced callable; Adam (with
L2 weight decay too), AdamW and SGD. Any other aten op raises
:class:`UnsupportedOpError` naming it and the line of the module it came
from. :func:`per_example_grad` gives the per-example gradients of one
module written for one example.

Importing this module imports torch; ``import ens`` does not.
"""

from ._ensemble import Ensemble
from ._groups import GroupedEnsemble
from ._importer import Imported, import_module
from ._ir import UnsupportedOpError
from ._optim import SGD, Adam, AdamW
from ._per_example import PerExampleGrad, per_example_grad

__all__ = ["Adam", "AdamW", "Ensemble", "GroupedEnsemble", "Imported", "PerExampleGrad", "SGD",
           "UnsupportedOpError", "import_module", "per_example_grad"]
