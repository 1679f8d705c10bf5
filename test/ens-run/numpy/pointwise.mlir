// NumPy agreement tests of the pointwise ops (elementwise arithmetic, math,
// cmp, select and convert): every op run by ens-run on fixed inputs and
// checked against NumPy (rtol 1e-5, atol 1e-6; integer and i1 results must
// match exactly). The other op families have their own files here. GENERATED
// by make_fixtures.py -- do not edit; regenerate these files and
// Inputs/*.npy, from the repository root, with:
//
//   python3 test/ens-run/numpy/make_fixtures.py
//
// Each function @<case> reads Inputs/<case>.in<k>.npy and is checked against
// Inputs/<case>.out<k>.npy. Expected outputs are computed by NumPy in
// float64 from the float32 (or float64) inputs and then cast to the result
// dtype (float32 for f32 results); integer results are computed exactly and
// wrapped to i32. Random ops, ens.vmap and ens.value_and_grad are not
// covered here.

// RUN: ens-run %s --entry=add_f32 --input=%S/Inputs/add_f32.in0.npy --input=%S/Inputs/add_f32.in1.npy --expect=%S/Inputs/add_f32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=add_f32 --input=%S/Inputs/add_f32.in0.npy --input=%S/Inputs/add_f32.in1.npy --expect=%S/Inputs/add_f32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=add_f32 --input=%S/Inputs/add_f32.in0.npy --input=%S/Inputs/add_f32.in1.npy --expect=%S/Inputs/add_f32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=add_f32 --input=%S/Inputs/add_f32.in0.npy --input=%S/Inputs/add_f32.in1.npy --expect=%S/Inputs/add_f32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=add_f32 --input=%S/Inputs/add_f32.in0.npy --input=%S/Inputs/add_f32.in1.npy --expect=%S/Inputs/add_f32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=sub_f32 --input=%S/Inputs/sub_f32.in0.npy --input=%S/Inputs/sub_f32.in1.npy --expect=%S/Inputs/sub_f32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=sub_f32 --input=%S/Inputs/sub_f32.in0.npy --input=%S/Inputs/sub_f32.in1.npy --expect=%S/Inputs/sub_f32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=sub_f32 --input=%S/Inputs/sub_f32.in0.npy --input=%S/Inputs/sub_f32.in1.npy --expect=%S/Inputs/sub_f32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=sub_f32 --input=%S/Inputs/sub_f32.in0.npy --input=%S/Inputs/sub_f32.in1.npy --expect=%S/Inputs/sub_f32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=sub_f32 --input=%S/Inputs/sub_f32.in0.npy --input=%S/Inputs/sub_f32.in1.npy --expect=%S/Inputs/sub_f32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=mul_f32 --input=%S/Inputs/mul_f32.in0.npy --input=%S/Inputs/mul_f32.in1.npy --expect=%S/Inputs/mul_f32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=mul_f32 --input=%S/Inputs/mul_f32.in0.npy --input=%S/Inputs/mul_f32.in1.npy --expect=%S/Inputs/mul_f32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=mul_f32 --input=%S/Inputs/mul_f32.in0.npy --input=%S/Inputs/mul_f32.in1.npy --expect=%S/Inputs/mul_f32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=mul_f32 --input=%S/Inputs/mul_f32.in0.npy --input=%S/Inputs/mul_f32.in1.npy --expect=%S/Inputs/mul_f32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=mul_f32 --input=%S/Inputs/mul_f32.in0.npy --input=%S/Inputs/mul_f32.in1.npy --expect=%S/Inputs/mul_f32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=max_f32 --input=%S/Inputs/max_f32.in0.npy --input=%S/Inputs/max_f32.in1.npy --expect=%S/Inputs/max_f32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=max_f32 --input=%S/Inputs/max_f32.in0.npy --input=%S/Inputs/max_f32.in1.npy --expect=%S/Inputs/max_f32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=max_f32 --input=%S/Inputs/max_f32.in0.npy --input=%S/Inputs/max_f32.in1.npy --expect=%S/Inputs/max_f32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=max_f32 --input=%S/Inputs/max_f32.in0.npy --input=%S/Inputs/max_f32.in1.npy --expect=%S/Inputs/max_f32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=max_f32 --input=%S/Inputs/max_f32.in0.npy --input=%S/Inputs/max_f32.in1.npy --expect=%S/Inputs/max_f32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=min_f32 --input=%S/Inputs/min_f32.in0.npy --input=%S/Inputs/min_f32.in1.npy --expect=%S/Inputs/min_f32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=min_f32 --input=%S/Inputs/min_f32.in0.npy --input=%S/Inputs/min_f32.in1.npy --expect=%S/Inputs/min_f32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=min_f32 --input=%S/Inputs/min_f32.in0.npy --input=%S/Inputs/min_f32.in1.npy --expect=%S/Inputs/min_f32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=min_f32 --input=%S/Inputs/min_f32.in0.npy --input=%S/Inputs/min_f32.in1.npy --expect=%S/Inputs/min_f32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=min_f32 --input=%S/Inputs/min_f32.in0.npy --input=%S/Inputs/min_f32.in1.npy --expect=%S/Inputs/min_f32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=div_f32 --input=%S/Inputs/div_f32.in0.npy --input=%S/Inputs/div_f32.in1.npy --expect=%S/Inputs/div_f32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=div_f32 --input=%S/Inputs/div_f32.in0.npy --input=%S/Inputs/div_f32.in1.npy --expect=%S/Inputs/div_f32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=div_f32 --input=%S/Inputs/div_f32.in0.npy --input=%S/Inputs/div_f32.in1.npy --expect=%S/Inputs/div_f32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=div_f32 --input=%S/Inputs/div_f32.in0.npy --input=%S/Inputs/div_f32.in1.npy --expect=%S/Inputs/div_f32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=div_f32 --input=%S/Inputs/div_f32.in0.npy --input=%S/Inputs/div_f32.in1.npy --expect=%S/Inputs/div_f32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=pow_f32 --input=%S/Inputs/pow_f32.in0.npy --input=%S/Inputs/pow_f32.in1.npy --expect=%S/Inputs/pow_f32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=pow_f32 --input=%S/Inputs/pow_f32.in0.npy --input=%S/Inputs/pow_f32.in1.npy --expect=%S/Inputs/pow_f32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=pow_f32 --input=%S/Inputs/pow_f32.in0.npy --input=%S/Inputs/pow_f32.in1.npy --expect=%S/Inputs/pow_f32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=pow_f32 --input=%S/Inputs/pow_f32.in0.npy --input=%S/Inputs/pow_f32.in1.npy --expect=%S/Inputs/pow_f32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=pow_f32 --input=%S/Inputs/pow_f32.in0.npy --input=%S/Inputs/pow_f32.in1.npy --expect=%S/Inputs/pow_f32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=max_min_nan_f32 --input=%S/Inputs/max_min_nan_f32.in0.npy --input=%S/Inputs/max_min_nan_f32.in1.npy --expect=%S/Inputs/max_min_nan_f32.out0.npy --expect=%S/Inputs/max_min_nan_f32.out1.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=max_min_nan_f32 --input=%S/Inputs/max_min_nan_f32.in0.npy --input=%S/Inputs/max_min_nan_f32.in1.npy --expect=%S/Inputs/max_min_nan_f32.out0.npy --expect=%S/Inputs/max_min_nan_f32.out1.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=max_min_nan_f32 --input=%S/Inputs/max_min_nan_f32.in0.npy --input=%S/Inputs/max_min_nan_f32.in1.npy --expect=%S/Inputs/max_min_nan_f32.out0.npy --expect=%S/Inputs/max_min_nan_f32.out1.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=max_min_nan_f32 --input=%S/Inputs/max_min_nan_f32.in0.npy --input=%S/Inputs/max_min_nan_f32.in1.npy --expect=%S/Inputs/max_min_nan_f32.out0.npy --expect=%S/Inputs/max_min_nan_f32.out1.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=max_min_nan_f32 --input=%S/Inputs/max_min_nan_f32.in0.npy --input=%S/Inputs/max_min_nan_f32.in1.npy --expect=%S/Inputs/max_min_nan_f32.out0.npy --expect=%S/Inputs/max_min_nan_f32.out1.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=neg_f32 --input=%S/Inputs/neg_f32.in0.npy --expect=%S/Inputs/neg_f32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=neg_f32 --input=%S/Inputs/neg_f32.in0.npy --expect=%S/Inputs/neg_f32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=neg_f32 --input=%S/Inputs/neg_f32.in0.npy --expect=%S/Inputs/neg_f32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=neg_f32 --input=%S/Inputs/neg_f32.in0.npy --expect=%S/Inputs/neg_f32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=neg_f32 --input=%S/Inputs/neg_f32.in0.npy --expect=%S/Inputs/neg_f32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=exp_f32 --input=%S/Inputs/exp_f32.in0.npy --expect=%S/Inputs/exp_f32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=exp_f32 --input=%S/Inputs/exp_f32.in0.npy --expect=%S/Inputs/exp_f32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=exp_f32 --input=%S/Inputs/exp_f32.in0.npy --expect=%S/Inputs/exp_f32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=exp_f32 --input=%S/Inputs/exp_f32.in0.npy --expect=%S/Inputs/exp_f32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=exp_f32 --input=%S/Inputs/exp_f32.in0.npy --expect=%S/Inputs/exp_f32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=log_f32 --input=%S/Inputs/log_f32.in0.npy --expect=%S/Inputs/log_f32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=log_f32 --input=%S/Inputs/log_f32.in0.npy --expect=%S/Inputs/log_f32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=log_f32 --input=%S/Inputs/log_f32.in0.npy --expect=%S/Inputs/log_f32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=log_f32 --input=%S/Inputs/log_f32.in0.npy --expect=%S/Inputs/log_f32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=log_f32 --input=%S/Inputs/log_f32.in0.npy --expect=%S/Inputs/log_f32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=tanh_f32 --input=%S/Inputs/tanh_f32.in0.npy --expect=%S/Inputs/tanh_f32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=tanh_f32 --input=%S/Inputs/tanh_f32.in0.npy --expect=%S/Inputs/tanh_f32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=tanh_f32 --input=%S/Inputs/tanh_f32.in0.npy --expect=%S/Inputs/tanh_f32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=tanh_f32 --input=%S/Inputs/tanh_f32.in0.npy --expect=%S/Inputs/tanh_f32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=tanh_f32 --input=%S/Inputs/tanh_f32.in0.npy --expect=%S/Inputs/tanh_f32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=sigmoid_f32 --input=%S/Inputs/sigmoid_f32.in0.npy --expect=%S/Inputs/sigmoid_f32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=sigmoid_f32 --input=%S/Inputs/sigmoid_f32.in0.npy --expect=%S/Inputs/sigmoid_f32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=sigmoid_f32 --input=%S/Inputs/sigmoid_f32.in0.npy --expect=%S/Inputs/sigmoid_f32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=sigmoid_f32 --input=%S/Inputs/sigmoid_f32.in0.npy --expect=%S/Inputs/sigmoid_f32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=sigmoid_f32 --input=%S/Inputs/sigmoid_f32.in0.npy --expect=%S/Inputs/sigmoid_f32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=relu_f32 --input=%S/Inputs/relu_f32.in0.npy --expect=%S/Inputs/relu_f32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=relu_f32 --input=%S/Inputs/relu_f32.in0.npy --expect=%S/Inputs/relu_f32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=relu_f32 --input=%S/Inputs/relu_f32.in0.npy --expect=%S/Inputs/relu_f32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=relu_f32 --input=%S/Inputs/relu_f32.in0.npy --expect=%S/Inputs/relu_f32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=relu_f32 --input=%S/Inputs/relu_f32.in0.npy --expect=%S/Inputs/relu_f32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=sqrt_f32 --input=%S/Inputs/sqrt_f32.in0.npy --expect=%S/Inputs/sqrt_f32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=sqrt_f32 --input=%S/Inputs/sqrt_f32.in0.npy --expect=%S/Inputs/sqrt_f32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=sqrt_f32 --input=%S/Inputs/sqrt_f32.in0.npy --expect=%S/Inputs/sqrt_f32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=sqrt_f32 --input=%S/Inputs/sqrt_f32.in0.npy --expect=%S/Inputs/sqrt_f32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=sqrt_f32 --input=%S/Inputs/sqrt_f32.in0.npy --expect=%S/Inputs/sqrt_f32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=rsqrt_f32 --input=%S/Inputs/rsqrt_f32.in0.npy --expect=%S/Inputs/rsqrt_f32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=rsqrt_f32 --input=%S/Inputs/rsqrt_f32.in0.npy --expect=%S/Inputs/rsqrt_f32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=rsqrt_f32 --input=%S/Inputs/rsqrt_f32.in0.npy --expect=%S/Inputs/rsqrt_f32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=rsqrt_f32 --input=%S/Inputs/rsqrt_f32.in0.npy --expect=%S/Inputs/rsqrt_f32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=rsqrt_f32 --input=%S/Inputs/rsqrt_f32.in0.npy --expect=%S/Inputs/rsqrt_f32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=abs_f32 --input=%S/Inputs/abs_f32.in0.npy --expect=%S/Inputs/abs_f32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=abs_f32 --input=%S/Inputs/abs_f32.in0.npy --expect=%S/Inputs/abs_f32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=abs_f32 --input=%S/Inputs/abs_f32.in0.npy --expect=%S/Inputs/abs_f32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=abs_f32 --input=%S/Inputs/abs_f32.in0.npy --expect=%S/Inputs/abs_f32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=abs_f32 --input=%S/Inputs/abs_f32.in0.npy --expect=%S/Inputs/abs_f32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=square_f32 --input=%S/Inputs/square_f32.in0.npy --expect=%S/Inputs/square_f32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=square_f32 --input=%S/Inputs/square_f32.in0.npy --expect=%S/Inputs/square_f32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=square_f32 --input=%S/Inputs/square_f32.in0.npy --expect=%S/Inputs/square_f32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=square_f32 --input=%S/Inputs/square_f32.in0.npy --expect=%S/Inputs/square_f32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=square_f32 --input=%S/Inputs/square_f32.in0.npy --expect=%S/Inputs/square_f32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=add_i32 --input=%S/Inputs/add_i32.in0.npy --input=%S/Inputs/add_i32.in1.npy --expect=%S/Inputs/add_i32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=add_i32 --input=%S/Inputs/add_i32.in0.npy --input=%S/Inputs/add_i32.in1.npy --expect=%S/Inputs/add_i32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=add_i32 --input=%S/Inputs/add_i32.in0.npy --input=%S/Inputs/add_i32.in1.npy --expect=%S/Inputs/add_i32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=add_i32 --input=%S/Inputs/add_i32.in0.npy --input=%S/Inputs/add_i32.in1.npy --expect=%S/Inputs/add_i32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=add_i32 --input=%S/Inputs/add_i32.in0.npy --input=%S/Inputs/add_i32.in1.npy --expect=%S/Inputs/add_i32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=sub_i32 --input=%S/Inputs/sub_i32.in0.npy --input=%S/Inputs/sub_i32.in1.npy --expect=%S/Inputs/sub_i32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=sub_i32 --input=%S/Inputs/sub_i32.in0.npy --input=%S/Inputs/sub_i32.in1.npy --expect=%S/Inputs/sub_i32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=sub_i32 --input=%S/Inputs/sub_i32.in0.npy --input=%S/Inputs/sub_i32.in1.npy --expect=%S/Inputs/sub_i32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=sub_i32 --input=%S/Inputs/sub_i32.in0.npy --input=%S/Inputs/sub_i32.in1.npy --expect=%S/Inputs/sub_i32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=sub_i32 --input=%S/Inputs/sub_i32.in0.npy --input=%S/Inputs/sub_i32.in1.npy --expect=%S/Inputs/sub_i32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=mul_i32 --input=%S/Inputs/mul_i32.in0.npy --input=%S/Inputs/mul_i32.in1.npy --expect=%S/Inputs/mul_i32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=mul_i32 --input=%S/Inputs/mul_i32.in0.npy --input=%S/Inputs/mul_i32.in1.npy --expect=%S/Inputs/mul_i32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=mul_i32 --input=%S/Inputs/mul_i32.in0.npy --input=%S/Inputs/mul_i32.in1.npy --expect=%S/Inputs/mul_i32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=mul_i32 --input=%S/Inputs/mul_i32.in0.npy --input=%S/Inputs/mul_i32.in1.npy --expect=%S/Inputs/mul_i32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=mul_i32 --input=%S/Inputs/mul_i32.in0.npy --input=%S/Inputs/mul_i32.in1.npy --expect=%S/Inputs/mul_i32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=max_i32 --input=%S/Inputs/max_i32.in0.npy --input=%S/Inputs/max_i32.in1.npy --expect=%S/Inputs/max_i32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=max_i32 --input=%S/Inputs/max_i32.in0.npy --input=%S/Inputs/max_i32.in1.npy --expect=%S/Inputs/max_i32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=max_i32 --input=%S/Inputs/max_i32.in0.npy --input=%S/Inputs/max_i32.in1.npy --expect=%S/Inputs/max_i32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=max_i32 --input=%S/Inputs/max_i32.in0.npy --input=%S/Inputs/max_i32.in1.npy --expect=%S/Inputs/max_i32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=max_i32 --input=%S/Inputs/max_i32.in0.npy --input=%S/Inputs/max_i32.in1.npy --expect=%S/Inputs/max_i32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=min_i32 --input=%S/Inputs/min_i32.in0.npy --input=%S/Inputs/min_i32.in1.npy --expect=%S/Inputs/min_i32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=min_i32 --input=%S/Inputs/min_i32.in0.npy --input=%S/Inputs/min_i32.in1.npy --expect=%S/Inputs/min_i32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=min_i32 --input=%S/Inputs/min_i32.in0.npy --input=%S/Inputs/min_i32.in1.npy --expect=%S/Inputs/min_i32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=min_i32 --input=%S/Inputs/min_i32.in0.npy --input=%S/Inputs/min_i32.in1.npy --expect=%S/Inputs/min_i32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=min_i32 --input=%S/Inputs/min_i32.in0.npy --input=%S/Inputs/min_i32.in1.npy --expect=%S/Inputs/min_i32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=neg_i32 --input=%S/Inputs/neg_i32.in0.npy --expect=%S/Inputs/neg_i32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=neg_i32 --input=%S/Inputs/neg_i32.in0.npy --expect=%S/Inputs/neg_i32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=neg_i32 --input=%S/Inputs/neg_i32.in0.npy --expect=%S/Inputs/neg_i32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=neg_i32 --input=%S/Inputs/neg_i32.in0.npy --expect=%S/Inputs/neg_i32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=neg_i32 --input=%S/Inputs/neg_i32.in0.npy --expect=%S/Inputs/neg_i32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=abs_i32 --input=%S/Inputs/abs_i32.in0.npy --expect=%S/Inputs/abs_i32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=abs_i32 --input=%S/Inputs/abs_i32.in0.npy --expect=%S/Inputs/abs_i32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=abs_i32 --input=%S/Inputs/abs_i32.in0.npy --expect=%S/Inputs/abs_i32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=abs_i32 --input=%S/Inputs/abs_i32.in0.npy --expect=%S/Inputs/abs_i32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=abs_i32 --input=%S/Inputs/abs_i32.in0.npy --expect=%S/Inputs/abs_i32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=square_i32 --input=%S/Inputs/square_i32.in0.npy --expect=%S/Inputs/square_i32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=square_i32 --input=%S/Inputs/square_i32.in0.npy --expect=%S/Inputs/square_i32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=square_i32 --input=%S/Inputs/square_i32.in0.npy --expect=%S/Inputs/square_i32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=square_i32 --input=%S/Inputs/square_i32.in0.npy --expect=%S/Inputs/square_i32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=square_i32 --input=%S/Inputs/square_i32.in0.npy --expect=%S/Inputs/square_i32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_lt_f32 --input=%S/Inputs/cmp_lt_f32.in0.npy --input=%S/Inputs/cmp_lt_f32.in1.npy --expect=%S/Inputs/cmp_lt_f32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_lt_f32 --input=%S/Inputs/cmp_lt_f32.in0.npy --input=%S/Inputs/cmp_lt_f32.in1.npy --expect=%S/Inputs/cmp_lt_f32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_lt_f32 --input=%S/Inputs/cmp_lt_f32.in0.npy --input=%S/Inputs/cmp_lt_f32.in1.npy --expect=%S/Inputs/cmp_lt_f32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_lt_f32 --input=%S/Inputs/cmp_lt_f32.in0.npy --input=%S/Inputs/cmp_lt_f32.in1.npy --expect=%S/Inputs/cmp_lt_f32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_lt_f32 --input=%S/Inputs/cmp_lt_f32.in0.npy --input=%S/Inputs/cmp_lt_f32.in1.npy --expect=%S/Inputs/cmp_lt_f32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_le_f32 --input=%S/Inputs/cmp_le_f32.in0.npy --input=%S/Inputs/cmp_le_f32.in1.npy --expect=%S/Inputs/cmp_le_f32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_le_f32 --input=%S/Inputs/cmp_le_f32.in0.npy --input=%S/Inputs/cmp_le_f32.in1.npy --expect=%S/Inputs/cmp_le_f32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_le_f32 --input=%S/Inputs/cmp_le_f32.in0.npy --input=%S/Inputs/cmp_le_f32.in1.npy --expect=%S/Inputs/cmp_le_f32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_le_f32 --input=%S/Inputs/cmp_le_f32.in0.npy --input=%S/Inputs/cmp_le_f32.in1.npy --expect=%S/Inputs/cmp_le_f32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_le_f32 --input=%S/Inputs/cmp_le_f32.in0.npy --input=%S/Inputs/cmp_le_f32.in1.npy --expect=%S/Inputs/cmp_le_f32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_gt_f32 --input=%S/Inputs/cmp_gt_f32.in0.npy --input=%S/Inputs/cmp_gt_f32.in1.npy --expect=%S/Inputs/cmp_gt_f32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_gt_f32 --input=%S/Inputs/cmp_gt_f32.in0.npy --input=%S/Inputs/cmp_gt_f32.in1.npy --expect=%S/Inputs/cmp_gt_f32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_gt_f32 --input=%S/Inputs/cmp_gt_f32.in0.npy --input=%S/Inputs/cmp_gt_f32.in1.npy --expect=%S/Inputs/cmp_gt_f32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_gt_f32 --input=%S/Inputs/cmp_gt_f32.in0.npy --input=%S/Inputs/cmp_gt_f32.in1.npy --expect=%S/Inputs/cmp_gt_f32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_gt_f32 --input=%S/Inputs/cmp_gt_f32.in0.npy --input=%S/Inputs/cmp_gt_f32.in1.npy --expect=%S/Inputs/cmp_gt_f32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_ge_f32 --input=%S/Inputs/cmp_ge_f32.in0.npy --input=%S/Inputs/cmp_ge_f32.in1.npy --expect=%S/Inputs/cmp_ge_f32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_ge_f32 --input=%S/Inputs/cmp_ge_f32.in0.npy --input=%S/Inputs/cmp_ge_f32.in1.npy --expect=%S/Inputs/cmp_ge_f32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_ge_f32 --input=%S/Inputs/cmp_ge_f32.in0.npy --input=%S/Inputs/cmp_ge_f32.in1.npy --expect=%S/Inputs/cmp_ge_f32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_ge_f32 --input=%S/Inputs/cmp_ge_f32.in0.npy --input=%S/Inputs/cmp_ge_f32.in1.npy --expect=%S/Inputs/cmp_ge_f32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_ge_f32 --input=%S/Inputs/cmp_ge_f32.in0.npy --input=%S/Inputs/cmp_ge_f32.in1.npy --expect=%S/Inputs/cmp_ge_f32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_eq_f32 --input=%S/Inputs/cmp_eq_f32.in0.npy --input=%S/Inputs/cmp_eq_f32.in1.npy --expect=%S/Inputs/cmp_eq_f32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_eq_f32 --input=%S/Inputs/cmp_eq_f32.in0.npy --input=%S/Inputs/cmp_eq_f32.in1.npy --expect=%S/Inputs/cmp_eq_f32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_eq_f32 --input=%S/Inputs/cmp_eq_f32.in0.npy --input=%S/Inputs/cmp_eq_f32.in1.npy --expect=%S/Inputs/cmp_eq_f32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_eq_f32 --input=%S/Inputs/cmp_eq_f32.in0.npy --input=%S/Inputs/cmp_eq_f32.in1.npy --expect=%S/Inputs/cmp_eq_f32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_eq_f32 --input=%S/Inputs/cmp_eq_f32.in0.npy --input=%S/Inputs/cmp_eq_f32.in1.npy --expect=%S/Inputs/cmp_eq_f32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_ne_f32 --input=%S/Inputs/cmp_ne_f32.in0.npy --input=%S/Inputs/cmp_ne_f32.in1.npy --expect=%S/Inputs/cmp_ne_f32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_ne_f32 --input=%S/Inputs/cmp_ne_f32.in0.npy --input=%S/Inputs/cmp_ne_f32.in1.npy --expect=%S/Inputs/cmp_ne_f32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_ne_f32 --input=%S/Inputs/cmp_ne_f32.in0.npy --input=%S/Inputs/cmp_ne_f32.in1.npy --expect=%S/Inputs/cmp_ne_f32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_ne_f32 --input=%S/Inputs/cmp_ne_f32.in0.npy --input=%S/Inputs/cmp_ne_f32.in1.npy --expect=%S/Inputs/cmp_ne_f32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_ne_f32 --input=%S/Inputs/cmp_ne_f32.in0.npy --input=%S/Inputs/cmp_ne_f32.in1.npy --expect=%S/Inputs/cmp_ne_f32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_lt_i32 --input=%S/Inputs/cmp_lt_i32.in0.npy --input=%S/Inputs/cmp_lt_i32.in1.npy --expect=%S/Inputs/cmp_lt_i32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_lt_i32 --input=%S/Inputs/cmp_lt_i32.in0.npy --input=%S/Inputs/cmp_lt_i32.in1.npy --expect=%S/Inputs/cmp_lt_i32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_lt_i32 --input=%S/Inputs/cmp_lt_i32.in0.npy --input=%S/Inputs/cmp_lt_i32.in1.npy --expect=%S/Inputs/cmp_lt_i32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_lt_i32 --input=%S/Inputs/cmp_lt_i32.in0.npy --input=%S/Inputs/cmp_lt_i32.in1.npy --expect=%S/Inputs/cmp_lt_i32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=cmp_lt_i32 --input=%S/Inputs/cmp_lt_i32.in0.npy --input=%S/Inputs/cmp_lt_i32.in1.npy --expect=%S/Inputs/cmp_lt_i32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=select_f32 --input=%S/Inputs/select_f32.in0.npy --input=%S/Inputs/select_f32.in1.npy --input=%S/Inputs/select_f32.in2.npy --expect=%S/Inputs/select_f32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=select_f32 --input=%S/Inputs/select_f32.in0.npy --input=%S/Inputs/select_f32.in1.npy --input=%S/Inputs/select_f32.in2.npy --expect=%S/Inputs/select_f32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=select_f32 --input=%S/Inputs/select_f32.in0.npy --input=%S/Inputs/select_f32.in1.npy --input=%S/Inputs/select_f32.in2.npy --expect=%S/Inputs/select_f32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=select_f32 --input=%S/Inputs/select_f32.in0.npy --input=%S/Inputs/select_f32.in1.npy --input=%S/Inputs/select_f32.in2.npy --expect=%S/Inputs/select_f32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=select_f32 --input=%S/Inputs/select_f32.in0.npy --input=%S/Inputs/select_f32.in1.npy --input=%S/Inputs/select_f32.in2.npy --expect=%S/Inputs/select_f32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=convert_f32_i32 --input=%S/Inputs/convert_f32_i32.in0.npy --expect=%S/Inputs/convert_f32_i32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=convert_f32_i32 --input=%S/Inputs/convert_f32_i32.in0.npy --expect=%S/Inputs/convert_f32_i32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=convert_f32_i32 --input=%S/Inputs/convert_f32_i32.in0.npy --expect=%S/Inputs/convert_f32_i32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=convert_f32_i32 --input=%S/Inputs/convert_f32_i32.in0.npy --expect=%S/Inputs/convert_f32_i32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=convert_f32_i32 --input=%S/Inputs/convert_f32_i32.in0.npy --expect=%S/Inputs/convert_f32_i32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=convert_f32_f64 --input=%S/Inputs/convert_f32_f64.in0.npy --expect=%S/Inputs/convert_f32_f64.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=convert_f32_f64 --input=%S/Inputs/convert_f32_f64.in0.npy --expect=%S/Inputs/convert_f32_f64.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=convert_f32_f64 --input=%S/Inputs/convert_f32_f64.in0.npy --expect=%S/Inputs/convert_f32_f64.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=convert_f32_f64 --input=%S/Inputs/convert_f32_f64.in0.npy --expect=%S/Inputs/convert_f32_f64.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=convert_f32_f64 --input=%S/Inputs/convert_f32_f64.in0.npy --expect=%S/Inputs/convert_f32_f64.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=convert_i32_f32 --input=%S/Inputs/convert_i32_f32.in0.npy --expect=%S/Inputs/convert_i32_f32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=convert_i32_f32 --input=%S/Inputs/convert_i32_f32.in0.npy --expect=%S/Inputs/convert_i32_f32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=convert_i32_f32 --input=%S/Inputs/convert_i32_f32.in0.npy --expect=%S/Inputs/convert_i32_f32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=convert_i32_f32 --input=%S/Inputs/convert_i32_f32.in0.npy --expect=%S/Inputs/convert_i32_f32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=convert_i32_f32 --input=%S/Inputs/convert_i32_f32.in0.npy --expect=%S/Inputs/convert_i32_f32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=convert_f32_i1 --input=%S/Inputs/convert_f32_i1.in0.npy --expect=%S/Inputs/convert_f32_i1.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=convert_f32_i1 --input=%S/Inputs/convert_f32_i1.in0.npy --expect=%S/Inputs/convert_f32_i1.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=convert_f32_i1 --input=%S/Inputs/convert_f32_i1.in0.npy --expect=%S/Inputs/convert_f32_i1.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=convert_f32_i1 --input=%S/Inputs/convert_f32_i1.in0.npy --expect=%S/Inputs/convert_f32_i1.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=convert_f32_i1 --input=%S/Inputs/convert_f32_i1.in0.npy --expect=%S/Inputs/convert_f32_i1.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=convert_i1_f32 --input=%S/Inputs/convert_i1_f32.in0.npy --expect=%S/Inputs/convert_i1_f32.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=convert_i1_f32 --input=%S/Inputs/convert_i1_f32.in0.npy --expect=%S/Inputs/convert_i1_f32.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=convert_i1_f32 --input=%S/Inputs/convert_i1_f32.in0.npy --expect=%S/Inputs/convert_i1_f32.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=convert_i1_f32 --input=%S/Inputs/convert_i1_f32.in0.npy --expect=%S/Inputs/convert_i1_f32.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=convert_i1_f32 --input=%S/Inputs/convert_i1_f32.in0.npy --expect=%S/Inputs/convert_i1_f32.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=tanh_f64 --input=%S/Inputs/tanh_f64.in0.npy --expect=%S/Inputs/tanh_f64.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=tanh_f64 --input=%S/Inputs/tanh_f64.in0.npy --expect=%S/Inputs/tanh_f64.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=tanh_f64 --input=%S/Inputs/tanh_f64.in0.npy --expect=%S/Inputs/tanh_f64.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=tanh_f64 --input=%S/Inputs/tanh_f64.in0.npy --expect=%S/Inputs/tanh_f64.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=tanh_f64 --input=%S/Inputs/tanh_f64.in0.npy --expect=%S/Inputs/tanh_f64.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=div_f64 --input=%S/Inputs/div_f64.in0.npy --input=%S/Inputs/div_f64.in1.npy --expect=%S/Inputs/div_f64.out0.npy --backend=interp --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=div_f64 --input=%S/Inputs/div_f64.in0.npy --input=%S/Inputs/div_f64.in1.npy --expect=%S/Inputs/div_f64.out0.npy --backend=cpu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=div_f64 --input=%S/Inputs/div_f64.in0.npy --input=%S/Inputs/div_f64.in1.npy --expect=%S/Inputs/div_f64.out0.npy --backend=cuda-emu --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=div_f64 --input=%S/Inputs/div_f64.in0.npy --input=%S/Inputs/div_f64.in1.npy --expect=%S/Inputs/div_f64.out0.npy --backend=cuda-emu --cuda-strategy=member-per-block --rtol=1e-5 --atol=1e-6
// RUN: ens-run %s --entry=div_f64 --input=%S/Inputs/div_f64.in0.npy --input=%S/Inputs/div_f64.in1.npy --expect=%S/Inputs/div_f64.out0.npy --backend=cuda-emu --cuda-strategy=tiled --rtol=1e-5 --atol=1e-6

func.func @add_f32(%a0: tensor<3x4xf32>, %a1: tensor<3x4xf32>) -> (tensor<3x4xf32>) {
  %r0 = ens.add %a0, %a1 : tensor<3x4xf32>
  return %r0 : tensor<3x4xf32>
}

func.func @sub_f32(%a0: tensor<3x4xf32>, %a1: tensor<3x4xf32>) -> (tensor<3x4xf32>) {
  %r0 = ens.sub %a0, %a1 : tensor<3x4xf32>
  return %r0 : tensor<3x4xf32>
}

func.func @mul_f32(%a0: tensor<3x4xf32>, %a1: tensor<3x4xf32>) -> (tensor<3x4xf32>) {
  %r0 = ens.mul %a0, %a1 : tensor<3x4xf32>
  return %r0 : tensor<3x4xf32>
}

func.func @max_f32(%a0: tensor<3x4xf32>, %a1: tensor<3x4xf32>) -> (tensor<3x4xf32>) {
  %r0 = ens.max %a0, %a1 : tensor<3x4xf32>
  return %r0 : tensor<3x4xf32>
}

func.func @min_f32(%a0: tensor<3x4xf32>, %a1: tensor<3x4xf32>) -> (tensor<3x4xf32>) {
  %r0 = ens.min %a0, %a1 : tensor<3x4xf32>
  return %r0 : tensor<3x4xf32>
}

func.func @div_f32(%a0: tensor<3x4xf32>, %a1: tensor<3x4xf32>) -> (tensor<3x4xf32>) {
  %r0 = ens.div %a0, %a1 : tensor<3x4xf32>
  return %r0 : tensor<3x4xf32>
}

func.func @pow_f32(%a0: tensor<3x4xf32>, %a1: tensor<3x4xf32>) -> (tensor<3x4xf32>) {
  %r0 = ens.pow %a0, %a1 : tensor<3x4xf32>
  return %r0 : tensor<3x4xf32>
}

func.func @max_min_nan_f32(%a0: tensor<2x3xf32>, %a1: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %r0 = ens.max %a0, %a1 : tensor<2x3xf32>
  %r1 = ens.min %a0, %a1 : tensor<2x3xf32>
  return %r0, %r1 : tensor<2x3xf32>, tensor<2x3xf32>
}

func.func @neg_f32(%a0: tensor<3x4xf32>) -> (tensor<3x4xf32>) {
  %r0 = ens.neg %a0 : tensor<3x4xf32>
  return %r0 : tensor<3x4xf32>
}

func.func @exp_f32(%a0: tensor<3x4xf32>) -> (tensor<3x4xf32>) {
  %r0 = ens.exp %a0 : tensor<3x4xf32>
  return %r0 : tensor<3x4xf32>
}

func.func @log_f32(%a0: tensor<3x4xf32>) -> (tensor<3x4xf32>) {
  %r0 = ens.log %a0 : tensor<3x4xf32>
  return %r0 : tensor<3x4xf32>
}

func.func @tanh_f32(%a0: tensor<3x4xf32>) -> (tensor<3x4xf32>) {
  %r0 = ens.tanh %a0 : tensor<3x4xf32>
  return %r0 : tensor<3x4xf32>
}

func.func @sigmoid_f32(%a0: tensor<3x4xf32>) -> (tensor<3x4xf32>) {
  %r0 = ens.sigmoid %a0 : tensor<3x4xf32>
  return %r0 : tensor<3x4xf32>
}

func.func @relu_f32(%a0: tensor<3x4xf32>) -> (tensor<3x4xf32>) {
  %r0 = ens.relu %a0 : tensor<3x4xf32>
  return %r0 : tensor<3x4xf32>
}

func.func @sqrt_f32(%a0: tensor<3x4xf32>) -> (tensor<3x4xf32>) {
  %r0 = ens.sqrt %a0 : tensor<3x4xf32>
  return %r0 : tensor<3x4xf32>
}

func.func @rsqrt_f32(%a0: tensor<3x4xf32>) -> (tensor<3x4xf32>) {
  %r0 = ens.rsqrt %a0 : tensor<3x4xf32>
  return %r0 : tensor<3x4xf32>
}

func.func @abs_f32(%a0: tensor<3x4xf32>) -> (tensor<3x4xf32>) {
  %r0 = ens.abs %a0 : tensor<3x4xf32>
  return %r0 : tensor<3x4xf32>
}

func.func @square_f32(%a0: tensor<3x4xf32>) -> (tensor<3x4xf32>) {
  %r0 = ens.square %a0 : tensor<3x4xf32>
  return %r0 : tensor<3x4xf32>
}

func.func @add_i32(%a0: tensor<2x4xi32>, %a1: tensor<2x4xi32>) -> (tensor<2x4xi32>) {
  %r0 = ens.add %a0, %a1 : tensor<2x4xi32>
  return %r0 : tensor<2x4xi32>
}

func.func @sub_i32(%a0: tensor<2x4xi32>, %a1: tensor<2x4xi32>) -> (tensor<2x4xi32>) {
  %r0 = ens.sub %a0, %a1 : tensor<2x4xi32>
  return %r0 : tensor<2x4xi32>
}

func.func @mul_i32(%a0: tensor<2x4xi32>, %a1: tensor<2x4xi32>) -> (tensor<2x4xi32>) {
  %r0 = ens.mul %a0, %a1 : tensor<2x4xi32>
  return %r0 : tensor<2x4xi32>
}

func.func @max_i32(%a0: tensor<2x4xi32>, %a1: tensor<2x4xi32>) -> (tensor<2x4xi32>) {
  %r0 = ens.max %a0, %a1 : tensor<2x4xi32>
  return %r0 : tensor<2x4xi32>
}

func.func @min_i32(%a0: tensor<2x4xi32>, %a1: tensor<2x4xi32>) -> (tensor<2x4xi32>) {
  %r0 = ens.min %a0, %a1 : tensor<2x4xi32>
  return %r0 : tensor<2x4xi32>
}

func.func @neg_i32(%a0: tensor<2x4xi32>) -> (tensor<2x4xi32>) {
  %r0 = ens.neg %a0 : tensor<2x4xi32>
  return %r0 : tensor<2x4xi32>
}

func.func @abs_i32(%a0: tensor<2x4xi32>) -> (tensor<2x4xi32>) {
  %r0 = ens.abs %a0 : tensor<2x4xi32>
  return %r0 : tensor<2x4xi32>
}

func.func @square_i32(%a0: tensor<2x4xi32>) -> (tensor<2x4xi32>) {
  %r0 = ens.square %a0 : tensor<2x4xi32>
  return %r0 : tensor<2x4xi32>
}

func.func @cmp_lt_f32(%a0: tensor<3x4xf32>, %a1: tensor<3x4xf32>) -> (tensor<3x4xi1>) {
  %r0 = ens.cmp lt, %a0, %a1 : tensor<3x4xf32>
  return %r0 : tensor<3x4xi1>
}

func.func @cmp_le_f32(%a0: tensor<3x4xf32>, %a1: tensor<3x4xf32>) -> (tensor<3x4xi1>) {
  %r0 = ens.cmp le, %a0, %a1 : tensor<3x4xf32>
  return %r0 : tensor<3x4xi1>
}

func.func @cmp_gt_f32(%a0: tensor<3x4xf32>, %a1: tensor<3x4xf32>) -> (tensor<3x4xi1>) {
  %r0 = ens.cmp gt, %a0, %a1 : tensor<3x4xf32>
  return %r0 : tensor<3x4xi1>
}

func.func @cmp_ge_f32(%a0: tensor<3x4xf32>, %a1: tensor<3x4xf32>) -> (tensor<3x4xi1>) {
  %r0 = ens.cmp ge, %a0, %a1 : tensor<3x4xf32>
  return %r0 : tensor<3x4xi1>
}

func.func @cmp_eq_f32(%a0: tensor<3x4xf32>, %a1: tensor<3x4xf32>) -> (tensor<3x4xi1>) {
  %r0 = ens.cmp eq, %a0, %a1 : tensor<3x4xf32>
  return %r0 : tensor<3x4xi1>
}

func.func @cmp_ne_f32(%a0: tensor<3x4xf32>, %a1: tensor<3x4xf32>) -> (tensor<3x4xi1>) {
  %r0 = ens.cmp ne, %a0, %a1 : tensor<3x4xf32>
  return %r0 : tensor<3x4xi1>
}

func.func @cmp_lt_i32(%a0: tensor<2x5xi32>, %a1: tensor<2x5xi32>) -> (tensor<2x5xi1>) {
  %r0 = ens.cmp lt, %a0, %a1 : tensor<2x5xi32>
  return %r0 : tensor<2x5xi1>
}

func.func @select_f32(%a0: tensor<3x4xi1>, %a1: tensor<3x4xf32>, %a2: tensor<3x4xf32>) -> (tensor<3x4xf32>) {
  %r0 = ens.select %a0, %a1, %a2 : tensor<3x4xi1>, tensor<3x4xf32>
  return %r0 : tensor<3x4xf32>
}

func.func @convert_f32_i32(%a0: tensor<2x6xf32>) -> (tensor<2x6xi32>) {
  %r0 = ens.convert %a0 : tensor<2x6xf32> -> tensor<2x6xi32>
  return %r0 : tensor<2x6xi32>
}

func.func @convert_f32_f64(%a0: tensor<2x3xf32>) -> (tensor<2x3xf64>) {
  %r0 = ens.convert %a0 : tensor<2x3xf32> -> tensor<2x3xf64>
  return %r0 : tensor<2x3xf64>
}

func.func @convert_i32_f32(%a0: tensor<6xi32>) -> (tensor<6xf32>) {
  %r0 = ens.convert %a0 : tensor<6xi32> -> tensor<6xf32>
  return %r0 : tensor<6xf32>
}

func.func @convert_f32_i1(%a0: tensor<6xf32>) -> (tensor<6xi1>) {
  %r0 = ens.convert %a0 : tensor<6xf32> -> tensor<6xi1>
  return %r0 : tensor<6xi1>
}

func.func @convert_i1_f32(%a0: tensor<2x3xi1>) -> (tensor<2x3xf32>) {
  %r0 = ens.convert %a0 : tensor<2x3xi1> -> tensor<2x3xf32>
  return %r0 : tensor<2x3xf32>
}

func.func @tanh_f64(%a0: tensor<3x4xf64>) -> (tensor<3x4xf64>) {
  %r0 = ens.tanh %a0 : tensor<3x4xf64>
  return %r0 : tensor<3x4xf64>
}

func.func @div_f64(%a0: tensor<3x4xf64>, %a1: tensor<3x4xf64>) -> (tensor<3x4xf64>) {
  %r0 = ens.div %a0, %a1 : tensor<3x4xf64>
  return %r0 : tensor<3x4xf64>
}
