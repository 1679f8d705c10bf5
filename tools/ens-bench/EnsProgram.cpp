//===- EnsProgram.cpp - The step programs ens runs ------------------------===//
//
// Writes the one-member step of a workload as MLIR text and lifts it over
// the members with Module::vmap.
//
//===----------------------------------------------------------------------===//

#include "EnsProgram.h"

#include <sstream>

using namespace ens_bench;

namespace {
std::string tensor(std::initializer_list<int64_t> shape) {
  std::string text = "tensor<";
  for (int64_t d : shape)
    text += std::to_string(d) + "x";
  return text + "f32>";
}

/// Declares the standard library's Adam for `type` as @`name`.
void declareAdam(std::ostringstream &os, const std::string &name,
                 const std::string &type) {
  os << "func.func private @" << name << "(" << type << ", " << type << ", "
     << type << ", " << type << ", !S, !S, !S, !S, !S, !S)\n    -> (" << type
     << ", " << type << ", " << type
     << ") attributes {ens.stdlib = \"adam\"}\n";
}

/// The constants of Adam, as torch.optim.Adam's defaults.
const char *kAdamConstants = R"(  %beta1 = ens.constant dense<0.9> : !S
  %beta2 = ens.constant dense<0.999> : !S
  %eps = ens.constant dense<1.0e-8> : !S
  %decay = ens.constant dense<0.0> : !S
)";

/// `%new_p, %new_m, %new_v = call @adam(p, g, m, v, ...)` for `type`.
void callAdam(std::ostringstream &os, const std::string &fn,
              const std::string &p, const std::string &g,
              const std::string &type) {
  os << "  %n" << p << ", %nm" << p << ", %nv" << p << " = call @" << fn << "(%"
     << p << ", %" << g << ", %m" << p << ", %v" << p
     << ", %step, %lr, %beta1, %beta2, %eps, %decay)\n      : (" << type << ", "
     << type << ", " << type << ", " << type << ", !S, !S, !S, !S, !S, !S) -> ("
     << type << ", " << type << ", " << type << ")\n";
}

/// The type aliases of `w`'s parameters, !W1, !B1, ..., in mlpParamNames'
/// order.
std::vector<std::string> mlpParamTypes(const Workload &w) {
  std::vector<std::string> types;
  for (const std::string &param : w.mlpParamNames())
    types.push_back("!" + std::string(1, param[0] == 'w' ? 'W' : 'B') +
                    param.substr(1));
  return types;
}

/// The type aliases of an MLP workload `w` (!X, !H, !T, !Wl, !Bl, !S) and
/// the declarations of the standard library's MSE and of Adam for each of
/// its parameters, whose types are `types`.
void writeMlpPrelude(std::ostringstream &os, const Workload &w,
                     const std::vector<std::string> &types) {
  const std::vector<int64_t> widths = w.mlpWidths();
  const std::vector<std::string> params = w.mlpParamNames();
  os << "!X = " << tensor({w.batch, w.in}) << "\n"
     << "!H = " << tensor({w.batch, w.hidden}) << "\n"
     << "!T = " << tensor({w.batch, w.out}) << "\n";
  for (size_t l = 1; l < widths.size(); ++l)
    os << "!W" << l << " = " << tensor({widths[l - 1], widths[l]}) << "\n"
       << "!B" << l << " = " << tensor({widths[l]}) << "\n";
  os << "!S = tensor<f32>\n\n"
     << "func.func private @mse(!T, !T) -> !S attributes {ens.stdlib = "
        "\"mse\"}\n";
  for (size_t i = 0; i < params.size(); ++i)
    declareAdam(os, "adam_" + params[i], types[i]);
}

/// The MLP's step: `loss` chains the layers (tanh after each but the last)
/// into the MSE; `member_step` differentiates it and applies Adam to each
/// parameter. Layer l's weight has type !Wl and its bias !Bl.
std::string mlpProgram(const Workload &w) {
  const std::vector<int64_t> widths = w.mlpWidths();
  const std::vector<std::string> params = w.mlpParamNames();
  const size_t numLayers = widths.size() - 1;
  const std::vector<std::string> types = mlpParamTypes(w);
  // "p0, p1, ..." with each item prefixed.
  auto list = [](const std::vector<std::string> &items, const char *prefix) {
    std::string text;
    for (const std::string &item : items)
      text += (text.empty() ? "" : ", ") + (prefix + item);
    return text;
  };
  // The activation of width `width`: !X, !H or !T.
  auto activation = [&](size_t layer) {
    return layer == 0 ? "!X" : layer == numLayers ? "!T" : "!H";
  };
  std::ostringstream os;
  writeMlpPrelude(os, w, types);

  // Layer l reads %a<l-1> (%a0 is %x) and defines %a<l>.
  os << "\nfunc.func @loss(%x: !X";
  for (size_t i = 0; i < params.size(); ++i)
    os << ", %" << params[i] << ": " << types[i];
  os << ", %t: !T) -> !S {\n";
  for (size_t l = 1; l <= numLayers; ++l) {
    std::string in = l == 1 ? "%x" : "%a" + std::to_string(l - 1);
    std::string out = activation(l), n = std::to_string(l);
    os << "  %z" << n << " = ens.matmul " << in << ", %w" << n << " : "
       << activation(l - 1) << ", !W" << n << " -> " << out << "\n"
       << "  %c" << n << " = ens.broadcast_in_dim %b" << n
       << " {dims = array<i64: 1>} : !B" << n << " -> " << out << "\n"
       << "  %" << (l == numLayers ? "y" : "s" + n) << " = ens.add %z" << n
       << ", %c" << n << " : " << out << "\n";
    if (l < numLayers)
      os << "  %a" << n << " = ens.tanh %s" << n << " : " << out << "\n";
  }
  os << "  %l = call @mse(%y, %t) : (!T, !T) -> !S\n"
     << "  return %l : !S\n}\n";

  // member_step(params, first moments, second moments, step, lr, x, t).
  std::vector<std::string> grads;
  std::vector<int64_t> wrt;
  for (size_t i = 0; i < params.size(); ++i) {
    grads.push_back("g" + std::to_string(i + 1));
    wrt.push_back(static_cast<int64_t>(i) + 1);
  }
  std::string stateTypes =
      list(types, "") + ", " + list(types, "") + ", " + list(types, "");
  os << "\nfunc.func @member_step(";
  for (const char *prefix : {"", "m", "v"})
    for (size_t i = 0; i < params.size(); ++i)
      os << "%" << prefix << params[i] << ": " << types[i] << ", ";
  os << "%step: !S, %lr: !S, %x: !X, %t: !T)\n    -> (" << stateTypes
     << ", !S) {\n"
     << "  %l, " << list(grads, "%") << " = ens.value_and_grad @loss(%x, "
     << list(params, "%") << ", %t)\n      {wrt = array<i64: ";
  for (size_t i = 0; i < wrt.size(); ++i)
    os << (i ? ", " : "") << wrt[i];
  os << ">}\n      : (!X, " << list(types, "") << ", !T) -> (!S, "
     << list(types, "") << ")\n"
     << kAdamConstants;
  for (size_t i = 0; i < params.size(); ++i)
    callAdam(os, "adam_" + params[i], params[i], grads[i], types[i]);
  os << "  return " << list(params, "%n") << ", " << list(params, "%nm") << ", "
     << list(params, "%nv") << ", %l\n      : " << stateTypes << ", !S\n}\n";
  return os.str();
}

std::string tensordotProgram(const Workload &w) {
  std::ostringstream os;
  os << "!XS = " << tensor({w.batch, 3, 2}) << "\n"
     << "!YS = " << tensor({w.batch, 1}) << "\n"
     << "!X = tensor<3x2xf32>\n!W = tensor<3x2x1xf32>\n!B = tensor<1xf32>\n"
     << "!S = tensor<f32>\n\n"
     << "func.func private @mse(!YS, !YS) -> !S attributes {ens.stdlib = "
        "\"mse\"}\n";
  declareAdam(os, "adam_w", "!W");
  declareAdam(os, "adam_b", "!B");
  os << R"(
// examples/tensordot.mlir: the model for ONE example.
func.func @predict(%x: !X, %w: !W, %b: !B) -> !B {
  %0 = ens.tensordot %x, %w {lhs_dims = array<i64: 0, 1>,
                             rhs_dims = array<i64: 0, 1>} : !X, !W -> !B
  %y = ens.add %0, %b : !B
  return %y : !B
}

func.func @loss(%xs: !XS, %w: !W, %b: !B, %ys: !YS) -> !S {
  %p = ens.vmap @predict(%xs, %w, %b)
      {in_axes = array<i64: 0, -1, -1>, out_axes = array<i64: 0>,
       size = )"
     << w.batch << R"( : i64} : (!XS, !W, !B) -> !YS
  %l = call @mse(%p, %ys) : (!YS, !YS) -> !S
  return %l : !S
}

func.func @train_step(%w: !W, %b: !B, %mw: !W, %mb: !B, %vw: !W, %vb: !B,
                      %step: !S, %lr: !S, %xs: !XS, %ys: !YS)
    -> (!W, !B, !W, !B, !W, !B, !S) {
  %l, %gw, %gb = ens.value_and_grad @loss(%xs, %w, %b, %ys)
      {wrt = array<i64: 1, 2>} : (!XS, !W, !B, !YS) -> (!S, !W, !B)
)" << kAdamConstants;
  callAdam(os, "adam_w", "w", "gw", "!W");
  callAdam(os, "adam_b", "b", "gb", "!B");
  os << R"(  return %nw, %nb, %nmw, %nmb, %nvw, %nvb, %l
      : !W, !B, !W, !B, !W, !B, !S
}
)";
  return os.str();
}
/// examples/cnn.mlir's member and SGD step at the workload's shapes, with
/// the harness's argument order: parameters, step (unused by SGD), lr,
/// images, labels.
std::string cnnProgram(const Workload &w) {
  const int64_t b = w.batch, s = w.image, c1 = w.channels1, c2 = w.channels2,
                k = w.out;
  std::ostringstream os;
  os << "!X = " << tensor({b, 1, s, s}) << "\n"
     << "!C1 = " << tensor({b, c1, s, s}) << "\n"
     << "!P1 = " << tensor({b, c1, s / 2, s / 2}) << "\n"
     << "!C2 = " << tensor({b, c2, s / 2, s / 2}) << "\n"
     << "!P2 = " << tensor({b, c2, s / 4, s / 4}) << "\n"
     << "!F = " << tensor({b, w.cnnFeatures()}) << "\n"
     << "!Z = " << tensor({b, k}) << "\n"
     << "!W1 = " << tensor({c1, 1, 3, 3}) << "\n"
     << "!B1 = " << tensor({c1}) << "\n"
     << "!W2 = " << tensor({c2, c1, 3, 3}) << "\n"
     << "!B2 = " << tensor({c2}) << "\n"
     << "!W3 = " << tensor({w.cnnFeatures(), k}) << "\n"
     << "!B3 = " << tensor({k}) << "\n"
     << "!L = tensor<" << b << "xi32>\n"
     << "!S = tensor<f32>\n\n"
     << "func.func private @cross_entropy(!Z, !L) -> !S\n"
     << "    attributes {ens.stdlib = \"softmax_cross_entropy\"}\n";
  // conv 3x3 (padded), bias, relu and 2x2 max pooling, in NCHW/OIHW.
  auto block = [&](const char *name, const char *in, const char *weight,
                   const char *bias, const char *conv, const char *pooled) {
    os << "\nfunc.func @" << name << "(%x: " << in << ", %w: " << weight
       << ", %b: " << bias << ") -> " << pooled << " {\n"
       << "  %c = ens.conv %x, %w {lhs_dims = array<i64: 0, 1, 2, 3>,\n"
       << "                        rhs_dims = array<i64: 0, 1, 2, 3>,\n"
       << "                        out_dims = array<i64: 0, 1, 2, 3>,\n"
       << "                        padding = array<i64: 1, 1, 1, 1>}\n"
       << "      : " << in << ", " << weight << " -> " << conv << "\n"
       << "  %bias = ens.broadcast_in_dim %b {dims = array<i64: 1>} : " << bias
       << " -> " << conv << "\n"
       << "  %a = ens.add %c, %bias : " << conv << "\n"
       << "  %r = ens.relu %a : " << conv << "\n"
       << "  %p = ens.reduce_window max, %r "
          "{window_dimensions = array<i64: 1, 1, 2, 2>,\n"
       << "      window_strides = array<i64: 1, 1, 2, 2>} : " << conv << " -> "
       << pooled << "\n"
       << "  return %p : " << pooled << "\n}\n";
  };
  block("block1", "!X", "!W1", "!B1", "!C1", "!P1");
  block("block2", "!P1", "!W2", "!B2", "!C2", "!P2");
  os << R"(
func.func @loss(%x: !X, %w1: !W1, %b1: !B1, %w2: !W2, %b2: !B2, %w3: !W3,
                %b3: !B3, %labels: !L) -> !S {
  %h1 = call @block1(%x, %w1, %b1) : (!X, !W1, !B1) -> !P1
  %h2 = call @block2(%h1, %w2, %b2) : (!P1, !W2, !B2) -> !P2
  %flat = ens.reshape %h2 : !P2 -> !F
  %z = ens.matmul %flat, %w3 : !F, !W3 -> !Z
  %bias = ens.broadcast_in_dim %b3 {dims = array<i64: 1>} : !B3 -> !Z
  %logits = ens.add %z, %bias : !Z
  %l = call @cross_entropy(%logits, %labels) : (!Z, !L) -> !S
  return %l : !S
}

func.func @member_step(%w1: !W1, %b1: !B1, %w2: !W2, %b2: !B2, %w3: !W3,
                       %b3: !B3, %step: !S, %lr: !S, %x: !X, %labels: !L)
    -> (!W1, !B1, !W2, !B2, !W3, !B3, !S) {
  %l, %g1, %g2, %g3, %g4, %g5, %g6 = ens.value_and_grad @loss(%x, %w1, %b1,
                                                              %w2, %b2, %w3,
                                                              %b3, %labels)
      {wrt = array<i64: 1, 2, 3, 4, 5, 6>}
      : (!X, !W1, !B1, !W2, !B2, !W3, !B3, !L)
      -> (!S, !W1, !B1, !W2, !B2, !W3, !B3)
)";
  const char *params[] = {"w1", "b1", "w2", "b2", "w3", "b3"};
  const char *types[] = {"!W1", "!B1", "!W2", "!B2", "!W3", "!B3"};
  for (int i = 0; i < 6; ++i) {
    std::string p = params[i], t = types[i], g = "%g" + std::to_string(i + 1);
    os << "  %lr_" << p << " = ens.broadcast_in_dim %lr {dims = array<i64>} : "
       << "!S -> " << t << "\n"
       << "  %d" << p << " = ens.mul " << g << ", %lr_" << p << " : " << t
       << "\n"
       << "  %n" << p << " = ens.sub %" << p << ", %d" << p << " : " << t
       << "\n";
  }
  os << R"(  return %nw1, %nb1, %nw2, %nb2, %nw3, %nb3, %l
      : !W1, !B1, !W2, !B2, !W3, !B3, !S
}
)";
  return os.str();
}

/// `text` with its symbols (@name) and type aliases (!name) prefixed, so
/// that several generated programs can share one module: ens-bench's
/// programs use `@` and `!` for nothing else.
std::string prefixNames(const std::string &text, const std::string &prefix) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '@' || c == '!')
      out += prefix;
  }
  return out;
}

/// The prefix of architecture `k`'s names in the Hetero module.
std::string architecturePrefix(size_t k) {
  return "a" + std::to_string(k) + "_";
}

/// The widest architecture's member step with masks, for every member of a
/// Hetero workload padded to it: each weight and bias is multiplied by its
/// 0/1 mask (zero outside the member's own widths), and hidden layer l > 1
/// is gated, a_l = g_l * tanh(s_l) + (1 - g_l) * a_(l-1), with g_l = 0 for
/// the layers the member does not have, so that it passes its input
/// through. Masked entries get zero gradients, which Adam leaves unchanged.
///   @member_step(params, m, v, masks, gates, step, lr, x, t)
///     -> (params', m', v', loss)
std::string paddedProgram(const Workload &hetero) {
  const Workload w = hetero.padded();
  const std::vector<int64_t> widths = w.mlpWidths();
  const std::vector<std::string> params = w.mlpParamNames();
  const size_t numLayers = widths.size() - 1;
  const std::vector<std::string> types = mlpParamTypes(w);
  std::ostringstream os;
  writeMlpPrelude(os, w, types);
  // Gates of hidden layers 2..L.
  std::vector<std::string> gates;
  for (size_t l = 2; l < numLayers; ++l)
    gates.push_back("gate" + std::to_string(l));
  auto typed = [](const std::vector<std::string> &names,
                  const std::vector<std::string> &types, const char *prefix) {
    std::string text;
    for (size_t i = 0; i < names.size(); ++i)
      text += "%" + (prefix + names[i]) + ": " + types[i] + ", ";
    return text;
  };
  std::vector<std::string> scalars(gates.size(), "!S");
  std::string maskArgs = typed(params, types, "k") + typed(gates, scalars, "");

  os << "\nfunc.func @loss(%x: !X, " << typed(params, types, "") << maskArgs
     << "%t: !T) -> !S {\n";
  for (size_t i = 0; i < params.size(); ++i)
    os << "  %e" << params[i] << " = ens.mul %" << params[i] << ", %k"
       << params[i] << " : " << types[i] << "\n";
  for (size_t l = 1; l <= numLayers; ++l) {
    std::string n = std::to_string(l);
    std::string in = l == 1 ? "%x" : "%a" + std::to_string(l - 1);
    std::string inType = l == 1 ? "!X" : "!H",
                out = l == numLayers ? "!T" : "!H";
    os << "  %z" << n << " = ens.matmul " << in << ", %ew" << n << " : "
       << inType << ", !W" << n << " -> " << out << "\n"
       << "  %c" << n << " = ens.broadcast_in_dim %eb" << n
       << " {dims = array<i64: 1>} : !B" << n << " -> " << out << "\n"
       << "  %" << (l == numLayers ? "y" : "s" + n) << " = ens.add %z" << n
       << ", %c" << n << " : " << out << "\n";
    if (l == numLayers)
      break;
    if (l == 1) {
      os << "  %a1 = ens.tanh %s1 : !H\n";
      continue;
    }
    // g * r + (1 - g) * a: exactly r for g = 1 and a for g = 0.
    std::string prev = "%a" + std::to_string(l - 1);
    os << "  %r" << n << " = ens.tanh %s" << n << " : !H\n"
       << "  %one" << n << " = ens.constant dense<1.0> : !S\n"
       << "  %h" << n << " = ens.sub %one" << n << ", %gate" << n << " : !S\n"
       << "  %gb" << n << " = ens.broadcast_in_dim %gate" << n
       << " {dims = array<i64>} : !S -> !H\n"
       << "  %hb" << n << " = ens.broadcast_in_dim %h" << n
       << " {dims = array<i64>} : !S -> !H\n"
       << "  %on" << n << " = ens.mul %gb" << n << ", %r" << n << " : !H\n"
       << "  %off" << n << " = ens.mul %hb" << n << ", " << prev << " : !H\n"
       << "  %a" << n << " = ens.add %on" << n << ", %off" << n << " : !H\n";
  }
  os << "  %l = call @mse(%y, %t) : (!T, !T) -> !S\n"
     << "  return %l : !S\n}\n";

  std::string paramTypes, maskTypes, names, masks;
  for (size_t i = 0; i < params.size(); ++i) {
    paramTypes += (i ? ", " : "") + types[i];
    names += ", %" + params[i];
    masks += ", %k" + params[i];
  }
  for (const std::string &gate : gates)
    masks += ", %" + gate;
  maskTypes = paramTypes;
  for (size_t i = 0; i < gates.size(); ++i)
    maskTypes += ", !S";
  os << "\nfunc.func @member_step(" << typed(params, types, "")
     << typed(params, types, "m") << typed(params, types, "v") << maskArgs
     << "%step: !S, %lr: !S, %x: !X, %t: !T)\n    -> (" << paramTypes << ", "
     << paramTypes << ", " << paramTypes << ", !S) {\n  %l";
  for (size_t i = 0; i < params.size(); ++i)
    os << ", %g" << i + 1;
  os << " = ens.value_and_grad @loss(%x" << names << masks
     << ", %t)\n      {wrt = array<i64: ";
  for (size_t i = 0; i < params.size(); ++i)
    os << (i ? ", " : "") << i + 1;
  os << ">}\n      : (!X, " << paramTypes << ", " << maskTypes
     << ", !T) -> (!S, " << paramTypes << ")\n"
     << kAdamConstants;
  for (size_t i = 0; i < params.size(); ++i)
    callAdam(os, "adam_" + params[i], params[i], "g" + std::to_string(i + 1),
             types[i]);
  os << "  return ";
  for (const char *prefix : {"%n", "%nm", "%nv"})
    for (size_t i = 0; i < params.size(); ++i)
      os << prefix << params[i] << ", ";
  os << "%l\n      : " << paramTypes << ", " << paramTypes << ", " << paramTypes
     << ", !S\n}\n";
  return os.str();
}
} // namespace

std::string ens_bench::paddedMemberProgram(const Workload &hetero) {
  return paddedProgram(hetero);
}

std::string ens_bench::addPaddedStep(ens::Module &module,
                                     const Workload &hetero) {
  const Workload widest = hetero.padded();
  const size_t numParams = widest.mlpParamNames().size();
  const size_t numGates = static_cast<size_t>(widest.layers) - 1;
  std::vector<int64_t> in(4 * numParams + numGates, 0),
      out(3 * numParams + 1, 0);
  in.insert(in.end(), {-1, -1, -1, -1});
  return module.vmap("member_step", in, out, widest.members, "train_step");
}

std::string ens_bench::memberProgram(const Workload &workload) {
  switch (workload.kind) {
  case Workload::Kind::Mlp:
    return mlpProgram(workload);
  case Workload::Kind::Tensordot:
    return tensordotProgram(workload);
  case Workload::Kind::Cnn:
    return cnnProgram(workload);
  case Workload::Kind::Hetero: {
    std::string text;
    for (size_t k = 0; k < workload.architectures.size(); ++k)
      text += prefixNames(mlpProgram(workload.architecture(k)),
                          architecturePrefix(k));
    return text;
  }
  }
  return "";
}

std::string ens_bench::addWorkloadStep(ens::Module &module,
                                       const Workload &workload) {
  if (workload.kind == Workload::Kind::Tensordot)
    return "train_step";
  if (workload.kind == Workload::Kind::Hetero) {
    // One group per architecture: its state carries the members; step, lr
    // and the batch are shared by all groups.
    std::vector<ens::Group> groups;
    for (size_t k = 0; k < workload.architectures.size(); ++k) {
      Workload alone = workload.architecture(k);
      size_t numState = 3 * alone.mlpParamNames().size();
      std::vector<int64_t> in(numState, 0), out(numState + 1, 0);
      in.insert(in.end(), {-1, -1, -1, -1});
      groups.push_back(
          {architecturePrefix(k) + "member_step", in, out, alone.members});
    }
    return module.groups(groups, "train_step");
  }
  if (workload.kind == Workload::Kind::Cnn) {
    // Parameters carry the members; step, lr and the batch are shared. The
    // members' convolutions become grouped ones (docs/batching.md).
    std::vector<int64_t> in(6, 0), out(7, 0);
    in.insert(in.end(), {-1, -1, -1, -1});
    return module.vmap("member_step", in, out, workload.members, "train_step");
  }
  // Parameters and moments carry the members; step and lr are shared; the
  // data is shared within an ensemble and batched across ensembles.
  const size_t numState = 3 * workload.mlpParamNames().size();
  std::vector<int64_t> state(numState, 0), results(numState + 1, 0);
  auto axes = [&](int64_t data) {
    std::vector<int64_t> in = state;
    in.insert(in.end(), {-1, -1, data, data});
    return in;
  };
  if (workload.groups == 1)
    return module.vmap("member_step", axes(-1), results, workload.members,
                       "train_step");
  if (workload.groups == workload.members)
    return module.vmap("member_step", axes(0), results, workload.members,
                       "train_step");
  std::string ensemble =
      module.vmap("member_step", axes(-1), results, workload.membersPerGroup(),
                  "ensemble_step");
  return module.vmap(ensemble, axes(0), results, workload.groups, "train_step");
}
