# ===- digits_torch.py - The PyTorch reference for ens-train on digits ----=== #
#
# Trains ensembles of 8 members of a 64-64-10 ReLU classifier on the UCI
# handwritten digits, as written by test/ens-train/Inputs/
# standardize_digits.py (so that PyTorch reads exactly the bytes that
# ens-train reads), and prints each member's test accuracy, the members'
# mean, the ensemble's accuracy and NLL, per seed and over the seeds. It is
# the reference that ens-train --task=classify --batch-size=64 is compared
# with (docs/ens-train.md); it is not run by ens-bench or by the tests.
#
#   python3 test/ens-train/Inputs/standardize_digits.py \
#       test/ens-train/Inputs/digits.npz /tmp/digits
#   python3 tools/ens-bench/peers/digits_torch.py /tmp/digits [--seeds=5]
#
# The protocol, per member: nn.Linear(64, 64), ReLU, nn.Linear(64, 10);
# weights nn.init.xavier_uniform_, biases zero; torch.optim.Adam (lr 1e-3,
# betas 0.9/0.999, eps 1e-8, no weight decay) on nn.CrossEntropyLoss, 30
# epochs of batches of 64 rows in an order drawn anew each epoch with
# torch.randperm, the last, partial batch of 29 rows included; float32, one
# CPU thread. torch.manual_seed(seed) is called once per ensemble; then
# each member in turn is built (nn.Linear's own initialisation, then the
# Xavier one, both drawn from the seed's stream) and trained (its 30
# permutations drawn from the same stream). The ensemble predicts the mean
# of its members' softmax probabilities: its accuracy is that of the argmax
# (ties to the first class), its NLL the mean of -log of the label's mean
# probability, both over the 360 test rows.
#
# ===----------------------------------------------------------------------=== #

import argparse
import os
import platform
import time

import numpy as np
import torch
import torch.nn as nn

FEATURES, CLASSES, HIDDEN = 64, 10, 64
MEMBERS, BATCH, EPOCHS = 8, 64, 30


def load(path):
    """x [N, 64] float32 and y [N] int64 from a CSV file of
    standardize_digits.py (%.9g values, read as float64 and rounded to the
    float32 they were printed from)."""
    table = np.loadtxt(path, delimiter=",", dtype=np.float64, ndmin=2)
    assert table.shape[1] == FEATURES + 1
    x = table[:, :FEATURES].astype(np.float32)
    y = table[:, FEATURES].astype(np.int64)
    assert np.array_equal(y, table[:, FEATURES])
    return torch.from_numpy(x), torch.from_numpy(y)


def member():
    model = nn.Sequential(nn.Linear(FEATURES, HIDDEN), nn.ReLU(),
                          nn.Linear(HIDDEN, CLASSES))
    for layer in (model[0], model[2]):
        nn.init.xavier_uniform_(layer.weight)
        nn.init.zeros_(layer.bias)
    return model


def train(model, x, y):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3,
                                 betas=(0.9, 0.999), eps=1e-8,
                                 weight_decay=0)
    loss_fn = nn.CrossEntropyLoss()
    rows = x.shape[0]
    for _ in range(EPOCHS):
        order = torch.randperm(rows)
        for start in range(0, rows, BATCH):
            batch = order[start:start + BATCH]
            loss = loss_fn(model(x[batch]), y[batch])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return loss.item()


def probabilities(model, x):
    with torch.no_grad():
        return torch.softmax(model(x), dim=1).numpy().astype(np.float64)


def ensemble(seed, data):
    """Trains one ensemble; returns its metrics (accuracies in percent)."""
    (x, y), (tx, ty) = data
    torch.manual_seed(seed)
    members, last_losses = [], []
    for _ in range(MEMBERS):
        model = member()
        last_losses.append(train(model, x, y))
        members.append(model)
    labels = ty.numpy()
    probs = [probabilities(model, tx) for model in members]
    accuracy = [100.0 * np.mean(p.argmax(1) == labels) for p in probs]
    mean = np.mean(probs, axis=0)
    train_mean = np.mean([probabilities(model, x) for model in members], 0)
    return {
        "members": accuracy,
        "last_losses": last_losses,
        "member_mean": float(np.mean(accuracy)),
        "accuracy": 100.0 * np.mean(mean.argmax(1) == labels),
        "nll": float(-np.mean(np.log(mean[np.arange(len(labels)), labels]))),
        "train_accuracy": 100.0 * np.mean(train_mean.argmax(1) == y.numpy()),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("dir", help="where digits-train.csv and "
                        "digits-test.csv are")
    parser.add_argument("--seeds", type=int, default=5,
                        help="ensembles to train, with seeds 0, 1, ... "
                        "(the protocol's is 5)")
    args = parser.parse_args()
    seeds = list(range(args.seeds))
    torch.set_num_threads(1)
    data = (load(os.path.join(args.dir, "digits-train.csv")),
            load(os.path.join(args.dir, "digits-test.csv")))
    print(f"torch {torch.__version__}, numpy {np.__version__}, python "
          f"{platform.python_version()}, {platform.machine()}, "
          f"{torch.get_num_threads()} thread")
    print(f"train {tuple(data[0][0].shape)}, test {tuple(data[1][0].shape)}; "
          f"{MEMBERS} members of {FEATURES}-{HIDDEN}-{CLASSES} ReLU, "
          f"batch {BATCH}, {EPOCHS} epochs, Adam lr 1e-3")
    results = []
    for seed in seeds:
        start = time.perf_counter()
        r = ensemble(seed, data)
        seconds = time.perf_counter() - start
        results.append(r)
        print(f"\nseed {seed} ({seconds:.1f} s)")
        print("  member  test accuracy %  last batch loss")
        for m, (a, loss) in enumerate(zip(r["members"], r["last_losses"])):
            print(f"  {m:6d}  {a:15.2f}  {loss:15.4g}")
        print(f"  members' mean {r['member_mean']:.2f}%, ensemble "
              f"{r['accuracy']:.2f}%, ensemble NLL {r['nll']:.4f} "
              f"(ensemble training accuracy {r['train_accuracy']:.2f}%)")
    print("\nseed  members' mean acc %  ensemble acc %  ensemble NLL")
    for seed, r in zip(seeds, results):
        print(f"{seed:4d}  {r['member_mean']:19.2f}  {r['accuracy']:14.2f}  "
              f"{r['nll']:12.4f}")
    columns = [[r[k] for r in results]
               for k in ("member_mean", "accuracy", "nll")]
    means = [np.mean(c) for c in columns]
    stds = [np.std(c, ddof=1) for c in columns]
    print(f"mean  {means[0]:19.2f}  {means[1]:14.2f}  {means[2]:12.4f}")
    print(f"std   {stds[0]:19.2f}  {stds[1]:14.2f}  {stds[2]:12.4f}")
    print("(std over the seeds, ddof=1)")


if __name__ == "__main__":
    main()
