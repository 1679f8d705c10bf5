//===- Bindings.cpp - The ens Python extension module ---------------------===//
//
// Thin nanobind bindings over include/ens/ens.h: Context, Module, Signature,
// TensorType and Executable, with ens::Error raised as ens.Error; and
// the trainer (Train.cpp). Arrays are
// read and written in place through DLPack (Arrays.h); the logic lives in
// the C++ API.
//
//===----------------------------------------------------------------------===//

#include "Arrays.h"
#include "Builder.h"
#include "Train.h"

#include <nanobind/operators.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <optional>

namespace nb = nanobind;
using namespace nb::literals;
using namespace ens;
using namespace ens::python;

namespace {
/// A target's Python name and the Target.
struct TargetName {
  const char *name;
  Target target;
};
} // namespace

static const TargetName targetNames[] = {{"cpu", Target::Cpu},
                                         {"cuda", Target::Cuda},
                                         {"cuda-emu", Target::CudaEmu},
                                         {"interp", Target::Interpreter}};

Target ens::python::parseTarget(const std::string &name) {
  for (const TargetName &entry : targetNames)
    if (name == entry.name)
      return entry.target;
  throw Error("unknown target '" + name +
              "'; expected cpu, cuda, cuda-emu or interp");
}

static const char *targetName(Target target) {
  for (const TargetName &entry : targetNames)
    if (target == entry.target)
      return entry.name;
  return "?";
}

static DType parseDType(const std::string &name) {
  for (DType dtype :
       {DType::F16, DType::BF16, DType::F32, DType::F64, DType::I32, DType::I1})
    if (name == toString(dtype))
      return dtype;
  throw Error("unknown element type '" + name +
              "'; expected f16, bf16, f32, f64, i32 or i1");
}

/// `object` (a TensorType or an array) as a TensorType, for argument `i`.
static TensorType toTensorType(nb::handle object, size_t i) {
  TensorType type;
  if (nb::try_cast(object, type, /*convert=*/false))
    return type;
  std::string what = "arg_types[" + std::to_string(i) + "]";
  InArray array;
  if (!nb::try_cast(object, array, /*convert=*/false))
    throw Error(what + " (of type " + typeName(object) +
                ") is neither an ens.TensorType nor a DLPack array");
  return typeOf(array, what);
}

/// `out` as a list of arrays: a list or tuple of them, or one array.
static std::vector<nb::object> outList(nb::handle out) {
  std::vector<nb::object> list;
  if (nb::isinstance<nb::list>(out) || nb::isinstance<nb::tuple>(out)) {
    for (nb::handle item : out)
      list.push_back(nb::borrow(item));
  } else {
    list.push_back(nb::borrow(out));
  }
  return list;
}

/// Runs `exe` on `args`, writing `out` (arrays allocated from the signature
/// when it is None), and returns the result arrays.
static std::vector<nb::object> run(const Executable &exe,
                                   const std::vector<nb::object> &args,
                                   nb::handle out) {
  const Signature &signature = exe.signature();
  if (args.size() != signature.inputs.size())
    throw Error("expected " + std::to_string(signature.inputs.size()) +
                " arguments, got " + std::to_string(args.size()));
  std::vector<InArray> inArrays;
  std::vector<DLTensor> inTensors;
  for (size_t i = 0; i < args.size(); ++i)
    inArrays.push_back(toInArray(args[i], "argument " + std::to_string(i)));
  for (const InArray &array : inArrays)
    inTensors.push_back(toDLTensor(array));

  std::vector<nb::object> results;
  if (!out.is_none()) {
    results = outList(out);
    if (results.size() != signature.results.size())
      throw Error("expected " + std::to_string(signature.results.size()) +
                  " out= arrays, got " + std::to_string(results.size()));
  } else {
    for (const TensorType &type : signature.results)
      results.push_back(nb::cast(allocate(type)));
  }
  std::vector<OutArray> outArrays;
  std::vector<DLTensor> outTensors;
  for (size_t i = 0; i < results.size(); ++i)
    outArrays.push_back(
        toOutArray(results[i], "out[" + std::to_string(i) + "]"));
  for (const OutArray &array : outArrays)
    outTensors.push_back(toDLTensor(array));

  std::vector<const DLTensor *> inPointers;
  std::vector<DLTensor *> outPointers;
  for (const DLTensor &tensor : inTensors)
    inPointers.push_back(&tensor);
  for (DLTensor &tensor : outTensors)
    outPointers.push_back(&tensor);
  {
    nb::gil_scoped_release release;
    exe.run(inPointers, outPointers);
  }
  return results;
}

NB_MODULE(_ens, m) {
  m.doc() = "ens: ensembles of neural networks, compiled (the C++ API)";
  nb::exception<Error>(m, "Error", PyExc_RuntimeError);

  nb::class_<TensorType>(m, "TensorType",
                         "A ranked tensor type; -1 stands for a `?` size.")
      .def(
          "__init__",
          [](TensorType *self, const std::string &dtype,
             std::vector<int64_t> shape) {
            new (self) TensorType{parseDType(dtype), std::move(shape)};
          },
          "dtype"_a, "shape"_a)
      .def_static(
          "of", [](nb::handle array) { return toTensorType(array, 0); },
          "array"_a, "The type of a DLPack array.")
      .def_prop_ro("dtype",
                   [](const TensorType &type) { return toString(type.dtype); })
      .def_prop_ro("shape",
                   [](const TensorType &type) {
                     return nb::tuple(nb::cast(type.shape));
                   })
      .def("__str__", &TensorType::str)
      .def("__repr__",
           [](const TensorType &type) {
             return "ens.TensorType(" + type.str() + ")";
           })
      .def(nb::self == nb::self)
      .def(nb::self != nb::self);

  nb::class_<Signature>(m, "Signature",
                        "The types a function takes and returns.")
      .def_ro("inputs", &Signature::inputs)
      .def_ro("results", &Signature::results);

  nb::class_<Executable>(m, "Executable", "A function compiled for a target.")
      .def_prop_ro("signature", &Executable::signature)
      .def_prop_ro(
          "target",
          [](const Executable &exe) { return targetName(exe.target()); })
      .def_prop_ro("threads", &Executable::threads)
      .def("run", &run, "args"_a, "out"_a = nb::none(),
           "Runs on DLPack arrays, read in place; writes `out` (or new "
           "arrays) and returns the results as a list.")
      .def(
          "__call__",
          [](const Executable &exe, nb::args args,
             nb::handle out) -> nb::object {
            std::vector<nb::object> argList;
            for (nb::handle arg : args)
              argList.push_back(nb::borrow(arg));
            std::vector<nb::object> results = run(exe, argList, out);
            if (results.size() == 1)
              return results[0];
            return nb::tuple(nb::cast(results));
          },
          "args"_a, nb::kw_only(), "out"_a = nb::none(),
          "Runs on the arguments; returns the one result or a tuple.")
      .def("save", &Executable::save, "path"_a,
           "Saves the compiled function as a libens-runtime artifact.");

  bindBuilder(m, parseDType);

  nb::class_<Module>(m, "Module", "A set of functions in the ens IR.")
      .def("__str__", &Module::str)
      .def("function", &Module::function, "name"_a, "arg_types"_a,
           nb::keep_alive<0, 1>(),
           "Starts a new function taking `arg_types`; finish it with "
           "FunctionBuilder.ret.")
      .def_prop_ro("function_names", &Module::functionNames)
      .def("signature", &Module::signature, "function"_a)
      .def("vmap", &Module::vmap, "function"_a, "in_axes"_a, "out_axes"_a,
           "size"_a, "name"_a = "",
           "Adds `function` lifted over `size` members (ens.vmap); returns "
           "the new function's name.")
      .def(
          "groups",
          [](Module &module,
             const std::vector<std::tuple<std::string, std::vector<int64_t>,
                                          std::vector<int64_t>, int64_t>>
                 &groups,
             const std::string &name) {
            std::vector<Group> list;
            for (const auto &[function, inAxes, outAxes, size] : groups)
              list.push_back({function, inAxes, outAxes, size});
            return module.groups(list, name);
          },
          "groups"_a, "name"_a = "",
          "Adds a function computing several groups of members side by "
          "side, one ens.vmap per group: `groups` lists (function, in_axes, "
          "out_axes, size). The shared arguments (-1) come first, then each "
          "group's own; the results are each group's in order. Returns the "
          "new function's name.")
      .def("value_and_grad", &Module::valueAndGrad, "function"_a, "wrt"_a,
           "name"_a = "",
           "Adds `function`'s loss and its gradients with respect to the "
           "arguments `wrt` (ens.value_and_grad); returns the new name.")
      .def(
          "compile",
          [](const Module &module, const std::string &function,
             const std::string &target,
             std::optional<std::vector<nb::object>> argTypes, int threads,
             int64_t maxBufferBytes, const std::string &cudaStrategy,
             const std::string &cudaGemm, const std::string &gpuPrecision) {
            CompileOptions options;
            options.threads = threads;
            options.maxBufferBytes = maxBufferBytes;
            options.cudaStrategy = cudaStrategy;
            options.cudaGemm = cudaGemm;
            options.gpuPrecision = gpuPrecision;
            Target parsed = parseTarget(target);
            std::vector<TensorType> types;
            for (size_t i = 0; argTypes && i < argTypes->size(); ++i)
              types.push_back(toTensorType((*argTypes)[i], i));
            nb::gil_scoped_release release;
            if (!argTypes)
              return module.compile(function, parsed, options);
            return module.compile(function, types, parsed, options);
          },
          "function"_a, "target"_a = "cpu", "arg_types"_a = nb::none(),
          nb::kw_only(), "threads"_a = 0, "max_buffer_bytes"_a = 0,
          "cuda_strategy"_a = "", "cuda_gemm"_a = "", "gpu_precision"_a = "",
          "Compiles `function` for `target` (cpu, cuda, cuda-emu, interp), "
          "specialised to `arg_types` (TensorTypes or arrays) if given.");

  nb::class_<Context>(m, "Context",
                      "Owns everything ens needs to parse and compile.")
      .def(nb::init<>())
      .def(
          "parse",
          [](const Context &context, const std::string &text,
             std::optional<std::string> fileName) {
            return fileName ? context.parse(text, *fileName)
                            : context.parse(text);
          },
          "text"_a, "file_name"_a = nb::none(), nb::keep_alive<0, 1>(),
          "Parses and verifies a module in the ens IR; with `file_name`, "
          "an error names its line in that file.")
      .def("create_module", &Context::createModule, nb::keep_alive<0, 1>(),
           "An empty module, to build functions in.");

  bindTrainer(m);

  m.def("data_pointer", &dataPointer, "array"_a,
        "The address of a DLPack array's first element as ens reads it.");
}
