// One member of the CNN ensemble (examples/cnn.mlir's @loss: two 3x3
// conv/relu/2x2 max-pool blocks, a linear head, softmax cross-entropy)
// agrees with PyTorch: the loss and its gradients with respect to the six
// parameters, for the same inputs and weights, on the interpreter, the CPU
// backend and cuda-emu. The fixtures in Inputs/cnn-torch/ were written by
// Inputs/cnn_torch_fixtures.py (how, with what seed and torch version: its
// docstring), which computes the same network with F.conv2d, F.relu,
// F.max_pool2d and F.cross_entropy in float64 from the float32 inputs and
// weights, with no ties in any max-pooling window that reaches a gradient.
//
// The test runs examples/cnn.mlir itself: ens-run takes one file, so the
// RUN lines append this file's @loss_and_grads wrapper to a copy of it.
//
// Tolerances: ens computes in float32 (the interpreter and the backends
// sum in other orders), PyTorch's values are the float64 ones rounded
// once to float32. The loss is about 1.3, the gradients at most about 1,
// and some gradients are 0 (w3's rows for features that are 0 in the whole
// batch) or small (|g| down to 6e-4). Measured against the float64 values,
// the largest absolute error is 1.9e-7 (cpu; 5e-8 on the interpreter,
// 1.4e-7 on cuda-emu) and the largest relative error over |g| > 1e-3 is
// 1.2e-5 (cpu). rtol = 1e-4 and atol = 1e-6 leave a factor of 5 or more
// over those and are far below what a mistake costs: flipped filters (a
// convolution instead of a cross-correlation) move the loss by 1.3e-2 and
// a gradient by 0.5, a channels-last flatten the loss by 0.5; even moving
// one of w2's 288 weights by 1e-3 moves the loss by 3e-4 (2.3e-4
// relative) and fails.
//
// DEFINE: %{inputs} = --input=%S/Inputs/cnn-torch/x.npy --input=%S/Inputs/cnn-torch/w1.npy --input=%S/Inputs/cnn-torch/b1.npy --input=%S/Inputs/cnn-torch/w2.npy --input=%S/Inputs/cnn-torch/b2.npy --input=%S/Inputs/cnn-torch/w3.npy --input=%S/Inputs/cnn-torch/b3.npy --input=%S/Inputs/cnn-torch/labels.npy
// DEFINE: %{expect} = --expect=%S/Inputs/cnn-torch/loss.npy --expect=%S/Inputs/cnn-torch/g_w1.npy --expect=%S/Inputs/cnn-torch/g_b1.npy --expect=%S/Inputs/cnn-torch/g_w2.npy --expect=%S/Inputs/cnn-torch/g_b2.npy --expect=%S/Inputs/cnn-torch/g_w3.npy --expect=%S/Inputs/cnn-torch/g_b3.npy
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: cat %ens_src_root/examples/cnn.mlir %s > %t/cnn-grads.mlir
// RUN: ens-run %t/cnn-grads.mlir --entry=loss_and_grads %{inputs} --rtol=1e-4 --atol=1e-6 %{expect}
// RUN: ens-run %t/cnn-grads.mlir --entry=loss_and_grads %{inputs} --backend=cpu --rtol=1e-4 --atol=1e-6 %{expect}
// RUN: ens-run %t/cnn-grads.mlir --entry=loss_and_grads %{inputs} --backend=cuda-emu --rtol=1e-4 --atol=1e-6 %{expect}

func.func @loss_and_grads(%x: tensor<8x1x12x12xf32>, %w1: tensor<4x1x3x3xf32>, %b1: tensor<4xf32>, %w2: tensor<8x4x3x3xf32>, %b2: tensor<8xf32>, %w3: tensor<72x4xf32>, %b3: tensor<4xf32>,
                          %labels: tensor<8xi32>)
    -> (tensor<f32>, tensor<4x1x3x3xf32>, tensor<4xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>, tensor<72x4xf32>, tensor<4xf32>) {
  %loss, %g_w1, %g_b1, %g_w2, %g_b2, %g_w3, %g_b3 = ens.value_and_grad @loss(%x, %w1, %b1, %w2, %b2, %w3, %b3, %labels)
      {wrt = array<i64: 1, 2, 3, 4, 5, 6>}
      : (tensor<8x1x12x12xf32>, tensor<4x1x3x3xf32>, tensor<4xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>, tensor<72x4xf32>, tensor<4xf32>, tensor<8xi32>)
      -> (tensor<f32>, tensor<4x1x3x3xf32>, tensor<4xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>, tensor<72x4xf32>, tensor<4xf32>)
  return %loss, %g_w1, %g_b1, %g_w2, %g_b2, %g_w3, %g_b3 : tensor<f32>, tensor<4x1x3x3xf32>, tensor<4xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>, tensor<72x4xf32>, tensor<4xf32>
}
