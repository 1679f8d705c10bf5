// The backends agree: the same training on cpu, cuda-emu (the CUDA source
// of the GPU backend, run on the CPU) and the interpreter ends with the
// same losses, within float rounding (the interpreter rounds each op once
// from double; cpu and CUDA use fused multiply-adds). A model with an open
// batch at batch 100 on 256 rows also compiles the partial batch of 56.
//
// RUN: rm -rf %t && %python %S/Inputs/make_data.py %t
// RUN: ens-train --model=%S/Inputs/open-batch.mlir --batch-size=100 --members=3 --steps=4 --data=%t/data.npz --shuffle=member --plot= --print-losses --backend=cpu > %t/cpu.txt
// RUN: ens-train --model=%S/Inputs/open-batch.mlir --batch-size=100 --members=3 --steps=4 --data=%t/data.npz --shuffle=member --plot= --print-losses --backend=cuda-emu > %t/emu.txt
// RUN: ens-train --model=%S/Inputs/open-batch.mlir --batch-size=100 --members=3 --steps=4 --data=%t/data.npz --shuffle=member --plot= --print-losses --backend=interp > %t/interp.txt
// RUN: FileCheck %s --check-prefix=EMU < %t/emu.txt
// EMU: 4 steps on the emulated GPU backend
// EMU: members whose loss fell: 3 of 3
// RUN: grep '^member ' %t/cpu.txt | awk '{ print $6 }' > %t/cpu-losses.txt
// RUN: grep '^member ' %t/emu.txt | awk '{ print $6 }' > %t/emu-losses.txt
// RUN: grep '^member ' %t/interp.txt | awk '{ print $6 }' > %t/interp-losses.txt
// RUN: count 3 < %t/cpu-losses.txt
// RUN: paste %t/cpu-losses.txt %t/emu-losses.txt %t/interp-losses.txt | awk '{ for (i = 2; i <= 3; ++i) { d = $i - $1; if (d < 0) d = -d; if (d > 1e-5 * $1 + 1e-7) exit 1 } }'
//
// Where the driver finds no GPU (a stand-in driver, %fake_cuda),
// --backend=cuda is one clear error.
// RUN: env LD_LIBRARY_PATH=%fake_cuda/no-device not ens-train --backend=cuda --steps=1 --plot= 2>&1 | FileCheck %s --check-prefix=NO-GPU
// NO-GPU: {{^}}ens-train: error: cannot compile @ens_train_step for model examples/mlp.mlir (built in): no CUDA device: the driver finds no device{{$}}
//
// ENS_CUDA_DEVICE chooses the GPU, modulo the devices the driver sees
// (here a stand-in that sees 2 and prints the device asked for); a value
// that is not a device number is one clear error.
// RUN: env ENS_CUDA_DEVICE=3 FAKE_CUDA_DEVICES=2 LD_LIBRARY_PATH=%fake_cuda/no-device not ens-train --backend=cuda --steps=1 --plot= 2>&1 | FileCheck %s --check-prefix=DEVICE
// DEVICE: fake cuda: cuDeviceGet(1)
// RUN: env ENS_CUDA_DEVICE=one FAKE_CUDA_DEVICES=2 LD_LIBRARY_PATH=%fake_cuda/no-device not ens-train --backend=cuda --steps=1 --plot= 2>&1 | FileCheck %s --check-prefix=BAD-DEVICE
// BAD-DEVICE: {{^}}ens-train: error: cannot compile @ens_train_step for model examples/mlp.mlir (built in): ENS_CUDA_DEVICE=one is not a device number (0, 1, ...){{$}}
