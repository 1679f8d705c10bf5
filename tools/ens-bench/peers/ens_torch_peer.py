# ===- ens_torch_peer.py - ens-bench's ens.torch peer ---------------------=== #
#
# The training step of an ens-bench workload through ens's own Python path:
# the members as torch_peer.py makes them (nn.Sequential), stacked by
# ens.torch.Ensemble.from_modules, and one compiled train_step (forward,
# loss, backward and the optimizer of every member) per step; see common.py
# for the protocol. Adam for the MLPs, SGD for the CNN, as the other peers.
# Ensembles of ensembles (groups) give each member its group's batch with
# member_inputs=True. The hetero workload's members, of three architectures,
# make a GroupedEnsemble: one program of one vmap per architecture. ens-bench
# sets ENS_PYTHON_PATH to the package its build made (build/python).
#
#   --impl=train-step   the only implementation
#
# ===----------------------------------------------------------------------=== #

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

if os.environ.get("ENS_PYTHON_PATH"):
    sys.path.insert(0, os.environ["ENS_PYTHON_PATH"])
try:
    import torch
    import ens.torch as et
except ImportError as error:
    common.unavailable(f"cannot import ens.torch: {error}")
import torch_peer  # noqa: E402


def main():
    args = common.parse_args()
    torch.set_num_threads(args.threads)
    if args.impl != "train-step":
        common.unavailable(f"unknown implementation {args.impl}")
    if args.model == "tensordot":
        common.unavailable("the tensordot workload is one model, not members")
    if args.model == "hetero":
        models = []
        for alone, a in common.hetero_architectures(args):
            models += torch_peer.make_models(alone, a)
        x, t = torch.from_numpy(a["x"][0]), torch.from_numpy(a["t"][0])
        loss, optimizer, member_inputs = "mse", et.Adam(lr=args.lr), False
    elif args.model == "cnn":
        a = common.cnn_arrays(args)
        models = torch_peer.make_cnns(args, a)
        x, t = torch.from_numpy(a["x"]), torch.from_numpy(a["t"])
        loss, optimizer, member_inputs = "cross_entropy", et.SGD(lr=args.lr), False
    else:
        a = common.mlp_arrays(args)
        models = torch_peer.make_models(args, a)
        x, t = torch.from_numpy(a["x"]), torch.from_numpy(a["t"])
        member_inputs = args.groups > 1
        if member_inputs:  # member m trains on its group's batch
            per_group = args.members // args.groups
            x = x.repeat_interleave(per_group, dim=0).contiguous()
            t = t.repeat_interleave(per_group, dim=0).contiguous()
        else:
            x, t = x[0], t[0]
        loss, optimizer = "mse", et.Adam(lr=args.lr)
    example = x[0] if member_inputs else x
    ensemble = et.Ensemble.from_modules(models, example_inputs=(example,), threads=args.threads)
    train = ensemble.train_step(loss=loss, optimizer=optimizer, member_inputs=member_inputs)

    def step(want):
        losses = train(x, t)
        return losses.tolist() if want else None

    info = {"impl": args.impl, "version": f"ens.torch, torch {torch.__version__}",
            "blas": "ens's own code", "threads": args.threads,
            "notes": "ens.torch: Ensemble.from_modules of the nn.Sequential members, "
                     f"one compiled train_step ({loss}, {type(optimizer).__name__})"}
    common.serve(step, info, args.check_steps)


if __name__ == "__main__":
    main()
