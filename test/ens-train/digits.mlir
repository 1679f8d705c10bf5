// A 10-class classifier ensemble on a real, standardised data set, against
// the same architecture trained in PyTorch (docs/ens-train.md, "Against
// PyTorch"): the UCI handwritten digits (Inputs/digits.npz), split and
// standardised by Inputs/standardize_digits.py; five 8-member ensembles,
// seeds 0 to 4, each trained with --task=classify --batch-size=64 and
// scored on the 360 test rows by ens-train predict. The means over the
// seeds must be within 0.5 points of PyTorch's, recorded from
// tools/ens-bench/peers/digits_torch.py (seeds 0 to 4, PyTorch 2.15.0 on
// the CPU): ensemble accuracy 90.89%, members' mean accuracy 90.54%.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/standardize_digits.py %S/Inputs/digits.npz %t
// RUN: for seed in 0 1 2 3 4; do ens-train --task=classify --model=%S/Inputs/digits-mlp.mlir --data=%t/digits-train.csv --members=8 --batch-size=64 --epochs=30 --lr=1e-3 --shuffle=member --seed=$seed --plot= --checkpoint=%t/ck$seed --checkpoint-every=0 > /dev/null && ens-train predict --checkpoint=%t/ck$seed --data=%t/digits-test.csv --out=%t/pred$seed.npz || exit 1; done > %t/predict.txt
// RUN: FileCheck %s < %t/predict.txt
// CHECK-COUNT-5: ens-train predict: 8 members of {{.*}}digits-mlp.mlir on 360 rows of {{.*}}digits-test.csv
//
// "accuracy A% (members' mean M%), ...": the means of A and M over the five
// runs, against PyTorch's.
// RUN: grep '^accuracy' %t/predict.txt | tr -d '%%(),' | awk '{ a += $2; m += $5; n += 1 } END { a /= n; m /= n; printf "ensemble %%.2f members %%.2f\n", a, m; if (n != 5 || a < 90.89 - 0.5 || a > 90.89 + 0.5 || m < 90.54 - 0.5 || m > 90.54 + 0.5) exit 1 }'
