//===- Module.cpp - Contexts and modules of the C++ API -------------------===//

#include "Internal.h"

#include "ens/Backend/CpuBackend.h"
#include "ens/Dialect/Ens/IR/EnsOps.h"
#include "ens/Dialect/Ens/Transforms/Passes.h"
#include "ens/InitAllDialects.h"
#include "ens/Parser/Parser.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

using namespace ens;

Context::Impl::Impl() {
  mlir::DialectRegistry registry;
  mlir::ens::registerAllDialects(registry);
  mlir::ens::registerCpuBackendDialects(registry);
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
  // Diagnostics are collected per call and thrown, never printed.
  context.printOpOnDiagnostic(false);
}

DiagnosticCollector::DiagnosticCollector(mlir::MLIRContext *context)
    : context(context) {
  handler = context->getDiagEngine().registerHandler(
      [this](mlir::Diagnostic &diagnostic) {
        mlir::DiagnosticSeverity severity = diagnostic.getSeverity();
        if (severity != mlir::DiagnosticSeverity::Error &&
            severity != mlir::DiagnosticSeverity::Warning)
          return mlir::success();
        // A diagnostic located in the text reads as MLIR prints it:
        // "file:line:col: error: message".
        std::string located;
        if (auto location =
                llvm::dyn_cast<mlir::FileLineColLoc>(diagnostic.getLocation()))
          located =
              (location.getFilename().str() + ":" +
               std::to_string(location.getLine()) + ":" +
               std::to_string(location.getColumn()) + ": " +
               (severity == mlir::DiagnosticSeverity::Error ? "error: "
                                                            : "warning: "));
        messages += (messages.empty() ? "" : "; ") + located + diagnostic.str();
        return mlir::success();
      });
}

DiagnosticCollector::~DiagnosticCollector() {
  context->getDiagEngine().eraseHandler(handler);
}

void DiagnosticCollector::fail(const std::string &what) const {
  throw Error(messages.empty() ? what : what + ": " + messages);
}

mlir::LogicalResult ens::verifyFunction(mlir::func::FuncOp function) {
  if (failed(mlir::verify(function)))
    return mlir::failure();
  mlir::SymbolTableCollection symbols;
  mlir::WalkResult result = function.walk([&](mlir::SymbolUserOpInterface op) {
    return failed(op.verifySymbolUses(symbols)) ? mlir::WalkResult::interrupt()
                                                : mlir::WalkResult::advance();
  });
  return mlir::failure(result.wasInterrupted());
}

mlir::OwningOpRef<mlir::ModuleOp> ens::cloneFinished(mlir::ModuleOp module) {
  mlir::OwningOpRef<mlir::ModuleOp> clone = module.clone();
  for (auto function : llvm::to_vector(clone->getOps<mlir::func::FuncOp>())) {
    if (function.isExternal())
      continue;
    mlir::Block &body = function.getBody().front();
    if (body.empty() || !body.back().hasTrait<mlir::OpTrait::IsTerminator>())
      function.erase();
  }
  return clone;
}

Context::Context() : impl_(std::make_shared<Impl>()) {}

Context::~Context() = default;

Module Context::parse(const std::string &text) const {
  return parse(text, "module");
}

Module Context::parse(const std::string &text,
                      const std::string &fileName) const {
  std::lock_guard<std::recursive_mutex> lock(impl_->mutex);
  DiagnosticCollector diagnostics(&impl_->context);
  auto module = std::make_shared<Module::Impl>();
  module->context = impl_;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(text, fileName),
                               llvm::SMLoc());
  module->module = mlir::ens::parseSourceSafely(sourceMgr, &impl_->context);
  if (!module->module)
    diagnostics.fail("cannot parse the module");
  return Module(std::move(module));
}

Module Context::createModule() const {
  std::lock_guard<std::recursive_mutex> lock(impl_->mutex);
  auto module = std::make_shared<Module::Impl>();
  module->context = impl_;
  module->module =
      mlir::ModuleOp::create(mlir::UnknownLoc::get(&impl_->context));
  return Module(std::move(module));
}

Module::Module(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}

std::string Module::str() const {
  std::lock_guard<std::recursive_mutex> lock(impl_->context->mutex);
  std::string text;
  llvm::raw_string_ostream os(text);
  impl_->module->print(os);
  return text;
}

std::vector<std::string> Module::functionNames() const {
  std::lock_guard<std::recursive_mutex> lock(impl_->context->mutex);
  std::vector<std::string> names;
  for (auto function : impl_->module->getOps<mlir::func::FuncOp>())
    names.push_back(function.getSymName().str());
  return names;
}

/// The function named `name`, or an Error.
static mlir::func::FuncOp lookup(mlir::ModuleOp module,
                                 const std::string &name) {
  auto function = module.lookupSymbol<mlir::func::FuncOp>(name);
  if (!function)
    throw Error("no function named '" + name + "'");
  return function;
}

Signature Module::signature(const std::string &function) const {
  std::lock_guard<std::recursive_mutex> lock(impl_->context->mutex);
  return toSignature(lookup(*impl_->module, function).getFunctionType());
}

FunctionBuilder Module::function(const std::string &name,
                                 const std::vector<TensorType> &args) {
  std::lock_guard<std::recursive_mutex> lock(impl_->context->mutex);
  mlir::MLIRContext *context = &impl_->context->context;
  if (impl_->module->lookupSymbol(name))
    throw Error("the module already has a symbol named '" + name + "'");
  std::vector<mlir::Type> types;
  for (const TensorType &arg : args)
    types.push_back(toMlirType(context, arg));
  mlir::OpBuilder builder(context);
  builder.setInsertionPointToEnd(impl_->module->getBody());
  auto function = builder.create<mlir::func::FuncOp>(
      mlir::UnknownLoc::get(context), name, builder.getFunctionType(types, {}));
  function.addEntryBlock();
  return FunctionBuilder(
      std::make_unique<FunctionBuilder::Impl>(impl_, function));
}

/// Adds a function `name` (or `base` + `suffix`, made unique) of `type`
/// whose body is made by `build` from the arguments, returning the values
/// `build` gives; verifies the function, removing it on failure.
template <typename BuildFn>
static std::string addWrapper(Module::Impl &impl, const std::string &name,
                              const std::string &base, const char *suffix,
                              mlir::FunctionType type, BuildFn build) {
  mlir::MLIRContext *context = &impl.context->context;
  DiagnosticCollector diagnostics(context);
  mlir::OpBuilder builder(context);
  builder.setInsertionPointToEnd(impl.module->getBody());
  mlir::Location loc = mlir::UnknownLoc::get(context);
  std::string wanted = name.empty() ? base + suffix : name;
  if (!name.empty() && impl.module->lookupSymbol(name))
    throw Error("the module already has a symbol named '" + name + "'");
  auto function = builder.create<mlir::func::FuncOp>(loc, wanted, type);
  mlir::SymbolTable(*impl.module).insert(function);
  builder.setInsertionPointToStart(function.addEntryBlock());
  llvm::SmallVector<mlir::Value> results =
      build(builder, loc, function.getArguments());
  builder.create<mlir::func::ReturnOp>(loc, results);
  if (failed(verifyFunction(function))) {
    function.erase();
    diagnostics.fail("cannot add " + wanted);
  }
  return function.getSymName().str();
}

/// The type of `function` (of `type`) lifted over `size` members along
/// `inAxes` and `outAxes`, as ens.vmap gives it; an Error if they do not fit.
static mlir::FunctionType
vmapType(mlir::MLIRContext *context, const std::string &function,
         mlir::FunctionType type, const std::vector<int64_t> &inAxes,
         const std::vector<int64_t> &outAxes, int64_t size) {
  if (inAxes.size() != type.getNumInputs() ||
      outAxes.size() != type.getNumResults())
    throw Error("vmap of @" + function +
                " needs one in_axes entry per "
                "argument and one out_axes entry per result (" +
                std::to_string(type.getNumInputs()) + " and " +
                std::to_string(type.getNumResults()) + ")");
  if (size < 1)
    throw Error("vmap size must be at least 1, got " + std::to_string(size));
  auto batched = [&](mlir::TypeRange types, const std::vector<int64_t> &axes,
                     bool allowShared) {
    std::vector<mlir::Type> result;
    for (auto [i, member] : llvm::enumerate(types)) {
      auto tensorType = mlir::cast<mlir::RankedTensorType>(member);
      int64_t axis = axes[i];
      if (allowShared && axis == -1) {
        result.push_back(member);
        continue;
      }
      if (axis < 0 || axis > tensorType.getRank())
        throw Error("vmap axis " + std::to_string(axis) +
                    " is out of range "
                    "for " +
                    toTensorType(member).str());
      llvm::SmallVector<int64_t> shape(tensorType.getShape());
      shape.insert(shape.begin() + axis, size);
      result.push_back(
          mlir::RankedTensorType::get(shape, tensorType.getElementType()));
    }
    return result;
  };
  return mlir::FunctionType::get(context,
                                 batched(type.getInputs(), inAxes, true),
                                 batched(type.getResults(), outAxes, false));
}

/// An ens.vmap of `function` over `size` members of `args`.
static mlir::ens::VmapOp
createVmap(mlir::OpBuilder &builder, mlir::Location loc,
           const std::string &function, mlir::TypeRange results,
           mlir::ValueRange args, const std::vector<int64_t> &inAxes,
           const std::vector<int64_t> &outAxes, int64_t size) {
  return builder.create<mlir::ens::VmapOp>(
      loc, results,
      mlir::FlatSymbolRefAttr::get(builder.getContext(), function), args,
      builder.getDenseI64ArrayAttr(inAxes),
      builder.getDenseI64ArrayAttr(outAxes), builder.getI64IntegerAttr(size),
      builder.getStringAttr("different"));
}

std::string Module::vmap(const std::string &function,
                         std::vector<int64_t> inAxes,
                         std::vector<int64_t> outAxes, int64_t size,
                         const std::string &name) {
  std::lock_guard<std::recursive_mutex> lock(impl_->context->mutex);
  mlir::MLIRContext *context = &impl_->context->context;
  mlir::FunctionType wrapperType = vmapType(
      context, function, lookup(*impl_->module, function).getFunctionType(),
      inAxes, outAxes, size);
  return addWrapper(
      *impl_, name, function, "_vmap", wrapperType,
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange args) {
        return llvm::SmallVector<mlir::Value>(
            createVmap(b, loc, function, wrapperType.getResults(), args, inAxes,
                       outAxes, size)
                ->getResults());
      });
}

std::string Module::groups(const std::vector<Group> &groups,
                           const std::string &name) {
  std::lock_guard<std::recursive_mutex> lock(impl_->context->mutex);
  if (groups.empty())
    throw Error("groups needs at least one group");
  mlir::MLIRContext *context = &impl_->context->context;
  // Each group's lifted type, and the shared arguments every group reads.
  std::vector<mlir::FunctionType> types;
  std::vector<mlir::Type> shared, inputs, results;
  for (auto [index, group] : llvm::enumerate(groups)) {
    types.push_back(
        vmapType(context, group.function,
                 lookup(*impl_->module, group.function).getFunctionType(),
                 group.inAxes, group.outAxes, group.size));
    std::vector<mlir::Type> groupShared;
    for (auto [axis, type] : llvm::zip(group.inAxes, types.back().getInputs()))
      (axis == -1 ? groupShared : inputs).push_back(type);
    results.insert(results.end(), types.back().getResults().begin(),
                   types.back().getResults().end());
    if (index == 0) {
      shared = groupShared;
      continue;
    }
    if (groupShared != shared) {
      auto spell = [](const std::vector<mlir::Type> &types) {
        std::string text;
        for (mlir::Type type : types)
          text += (text.empty() ? "" : ", ") + toTensorType(type).str();
        return "(" + text + ")";
      };
      throw Error("group " + std::to_string(index) + " (@" + group.function +
                  ") shares the arguments " + spell(groupShared) +
                  " but group 0 shares " + spell(shared) +
                  "; every group must share as many, of the same types");
    }
  }
  inputs.insert(inputs.begin(), shared.begin(), shared.end());
  auto wrapperType = mlir::FunctionType::get(context, inputs, results);
  return addWrapper(
      *impl_, name, groups.front().function, "_groups", wrapperType,
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange args) {
        llvm::SmallVector<mlir::Value> values;
        size_t own = shared.size();
        for (auto [group, type] : llvm::zip(groups, types)) {
          llvm::SmallVector<mlir::Value> operands;
          size_t next = 0;
          for (int64_t axis : group.inAxes)
            operands.push_back(axis == -1 ? args[next++] : args[own++]);
          auto vmap =
              createVmap(b, loc, group.function, type.getResults(), operands,
                         group.inAxes, group.outAxes, group.size);
          values.append(vmap->result_begin(), vmap->result_end());
        }
        return values;
      });
}

std::string Module::valueAndGrad(const std::string &function,
                                 std::vector<int64_t> wrt,
                                 const std::string &name) {
  std::lock_guard<std::recursive_mutex> lock(impl_->context->mutex);
  mlir::FunctionType type = lookup(*impl_->module, function).getFunctionType();
  if (type.getNumResults() == 0)
    throw Error("@" + function +
                " returns nothing; its first result must "
                "be the loss");
  std::vector<mlir::Type> results{type.getResult(0)};
  for (int64_t index : wrt) {
    if (index < 0 || index >= static_cast<int64_t>(type.getNumInputs()))
      throw Error("wrt index " + std::to_string(index) +
                  " is not an "
                  "argument of @" +
                  function);
    results.push_back(type.getInput(index));
  }
  mlir::MLIRContext *context = &impl_->context->context;
  auto wrapperType =
      mlir::FunctionType::get(context, type.getInputs(), results);
  return addWrapper(
      *impl_, name, function, "_value_and_grad", wrapperType,
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange args) {
        return llvm::SmallVector<mlir::Value>(
            b.create<mlir::ens::ValueAndGradOp>(
                 loc, results, mlir::FlatSymbolRefAttr::get(context, function),
                 args, b.getDenseI64ArrayAttr(wrt))
                ->getResults());
      });
}
