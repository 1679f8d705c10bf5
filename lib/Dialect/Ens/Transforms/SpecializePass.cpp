//===- SpecializePass.cpp - The ens-specialize pass -----------------------===//
//
// Clones functions at concrete argument types and re-infers every value's
// type with the shared shape rules, so that the `?` sizes of a model become
// the sizes of one call. Ops that infer their result types (and elementwise
// ops, whose result has their operands' shape) need nothing more; the ops
// whose result type carries the shape resolve a `?` by the rules below,
// which docs/shapes.md states for users.
//
//===----------------------------------------------------------------------===//

#include "ens/Dialect/Ens/Transforms/Specialize.h"

#include "ens/Dialect/Ens/IR/EnsOps.h"
#include "ens/Dialect/Ens/IR/ShapeInference.h"
#include "ens/Dialect/Ens/Transforms/Passes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Debug.h"

#include <map>

#define DEBUG_TYPE "ens-specialize"

namespace mlir::ens {
#define GEN_PASS_DEF_ENSSPECIALIZE
#include "ens/Dialect/Ens/Transforms/Passes.h.inc"
} // namespace mlir::ens

using namespace mlir;
using namespace mlir::ens;

bool mlir::ens::hasUnknownSizes(Type type) {
  if (auto function = dyn_cast<FunctionType>(type))
    return llvm::any_of(function.getInputs(), hasUnknownSizes) ||
           llvm::any_of(function.getResults(), hasUnknownSizes);
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && shaped.hasRank() && !shaped.hasStaticShape();
}

/// The function an op calls or transforms, if any: func.call, ens.vmap and
/// ens.value_and_grad all name it by a `callee` attribute.
static func::FuncOp getCallee(Operation *op, SymbolTable &symbols) {
  auto callee = op->getAttrOfType<FlatSymbolRefAttr>("callee");
  return callee ? symbols.lookup<func::FuncOp>(callee.getValue())
                : func::FuncOp();
}

/// `types` as they appear in a clone's name: "8x4xf32_f32".
static std::string mangle(TypeRange types) {
  SmallVector<std::string> parts;
  for (Type type : types) {
    std::string text;
    llvm::raw_string_ostream os(text);
    if (auto tensor = dyn_cast<RankedTensorType>(type)) {
      for (int64_t size : tensor.getShape())
        os << size << "x";
      os << tensor.getElementType();
    } else {
      os << type;
    }
    for (char &c : text)
      if (!llvm::isAlnum(c))
        c = '_';
    parts.push_back(text);
  }
  return parts.empty() ? "static" : llvm::join(parts, "_");
}

/// `declared` with each `?` replaced by the size at the same position of
/// `known` (which may itself be `?`).
static RankedTensorType refine(Type declared, ArrayRef<int64_t> known) {
  auto tensor = cast<RankedTensorType>(declared);
  SmallVector<int64_t> shape(tensor.getShape());
  for (auto [size, knownSize] : llvm::zip_equal(shape, known))
    size = joinSizes(size, knownSize);
  return RankedTensorType::get(shape, tensor.getElementType());
}

static ArrayRef<int64_t> shapeOf(Value value) {
  return cast<ShapedType>(value.getType()).getShape();
}

/// A shape of `rank` unknown sizes.
static SmallVector<int64_t> unknown(size_t rank) {
  return SmallVector<int64_t>(rank, ShapedType::kDynamic);
}

namespace {
/// Creates the clones of one specialization and remembers them.
class Specializer {
public:
  explicit Specializer(ModuleOp module) : module(module), symbols(module) {}

  /// The clone of `function` at `argTypes`; `user` (null for the entry) is
  /// where diagnostics point.
  FailureOr<func::FuncOp> specialize(func::FuncOp function, TypeRange argTypes,
                                     Operation *user);

  /// Every clone created, and the functions they were cloned from.
  SmallVector<func::FuncOp> clones;
  llvm::SetVector<Operation *> originals;

private:
  LogicalResult checkArguments(func::FuncOp function, TypeRange argTypes,
                               Operation *user);
  LogicalResult specializeBody(func::FuncOp clone);
  /// The result types of `op` from its (already specialized) operands.
  FailureOr<SmallVector<Type>> inferResultTypes(Operation *op);
  /// Result types of the ops whose result type carries the shape; `?`
  /// where a rule cannot resolve one.
  SmallVector<Type> refineDeclared(Operation *op);

  ModuleOp module;
  SymbolTable symbols;
  std::map<std::pair<Operation *, std::string>, func::FuncOp> cache;
  llvm::SetVector<Operation *> inProgress;
  llvm::DenseMap<Operation *, Operation *> lastClone;
};
} // namespace

LogicalResult Specializer::checkArguments(func::FuncOp function,
                                          TypeRange argTypes, Operation *user) {
  auto fail = [&]() {
    return user ? user->emitOpError() : function.emitOpError();
  };
  FunctionType type = function.getFunctionType();
  if (type.getNumInputs() != argTypes.size())
    return fail() << "cannot specialize @" << function.getSymName() << ", which"
                  << " takes " << type.getNumInputs() << " arguments, to "
                  << argTypes.size() << " argument types";
  for (auto [i, declared, given] :
       llvm::enumerate(type.getInputs(), argTypes)) {
    if (hasUnknownSizes(given))
      return fail() << "cannot specialize argument " << i << " of @"
                    << function.getSymName() << " to " << given
                    << ", which has a `?` size";
    if (getElementTypeOrSelf(declared) != getElementTypeOrSelf(given) ||
        failed(verifyCompatibleShape(declared, given)))
      return fail() << "cannot specialize argument " << i << " of @"
                    << function.getSymName() << " (" << declared << ") to "
                    << given;
  }
  return success();
}

FailureOr<func::FuncOp> Specializer::specialize(func::FuncOp function,
                                                TypeRange argTypes,
                                                Operation *user) {
  if (inProgress.contains(function))
    return user->emitOpError()
           << "reaches @" << function.getSymName()
           << " recursively, which ens-specialize cannot specialize";
  std::string types = mangle(argTypes);
  auto key = std::make_pair(function.getOperation(), types);
  if (auto it = cache.find(key); it != cache.end())
    return it->second;
  if (failed(checkArguments(function, argTypes, user)))
    return failure();

  func::FuncOp clone = function.clone();
  clone.setName((function.getSymName() + "_" + types).str());
  if (user)
    clone.setPrivate();
  // After the original and its earlier clones, so that clones appear in
  // the order they were made.
  Operation *&previous = lastClone[function];
  symbols.insert(clone,
                 std::next(Block::iterator(previous ? previous : function)));
  previous = clone;
  LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] @" << function.getSymName()
                          << " at (" << types << ") is @" << clone.getSymName()
                          << "\n");
  cache[key] = clone;
  clones.push_back(clone);
  originals.insert(function);

  SmallVector<Type> results(clone.getFunctionType().getResults());
  if (!clone.isExternal()) {
    inProgress.insert(function);
    for (auto [arg, type] : llvm::zip_equal(clone.getArguments(), argTypes))
      arg.setType(type);
    if (failed(specializeBody(clone)))
      return failure();
    inProgress.remove(function);
    results = llvm::to_vector(
        clone.getBody().back().getTerminator()->getOperandTypes());
  }
  for (auto [i, type] : llvm::enumerate(results))
    if (hasUnknownSizes(type))
      return clone.emitOpError()
             << "result " << i << " of @" << function.getSymName() << " stays "
             << type << " at argument types (" << types
             << "): a declaration's `?` results cannot be resolved";
  clone.setFunctionType(
      FunctionType::get(module.getContext(), argTypes, results));
  return clone;
}

/// `current` made as known as `inferred` allows: the inferred type with the
/// static sizes of `current` where it has `?`. An incompatible pair gives
/// `inferred`, for the op's verifier to report.
static Type join(Type current, Type inferred) {
  if (failed(verifyCompatibleShape(current, inferred)))
    return inferred;
  return refine(inferred, cast<ShapedType>(current).getShape());
}

/// Whether `op`'s operands and results share one shape.
static bool isElementwise(Operation *op) {
  return op->getNumOperands() != 0 &&
         (op->hasTrait<mlir::OpTrait::Elementwise>() ||
          op->hasTrait<mlir::OpTrait::SameOperandsAndResultType>());
}

/// The shape an elementwise op's operands and results share, as far as
/// any of them knows it.
static SmallVector<int64_t> getSharedShape(Operation *op) {
  SmallVector<int64_t> known = unknown(shapeOf(op->getResult(0)).size());
  for (TypeRange types :
       {TypeRange(op->getOperandTypes()), TypeRange(op->getResultTypes())})
    for (Type type : types)
      for (auto [size, typeSize] :
           llvm::zip(known, cast<ShapedType>(type).getShape()))
        size = joinSizes(size, typeSize);
  return known;
}

/// Sets `value`'s type to `type` if that makes it better known.
static bool update(Value value, Type type) {
  if (value.getType() == type)
    return false;
  value.setType(type);
  return true;
}

LogicalResult Specializer::specializeBody(func::FuncOp clone) {
  // Types flow forward through the ops. An elementwise op also gives its
  // operands the sizes the others know, so that a new dimension of a
  // broadcast takes the size of what it is added to; a size learnt that way
  // flows on in the next round, until nothing changes. Calls wait for
  // operand types without `?`.
  llvm::DenseSet<Operation *> calls;
  bool changed = true;
  while (changed) {
    changed = false;
    WalkResult walk = clone.walk([&](Operation *op) {
      bool isCall = op->hasAttr("callee");
      if ((op->getNumResults() == 0 && !isCall) || calls.contains(op) ||
          (isCall && llvm::any_of(op->getOperandTypes(), hasUnknownSizes)))
        return WalkResult::advance();
      FailureOr<SmallVector<Type>> types = inferResultTypes(op);
      if (failed(types))
        return WalkResult::interrupt();
      if (isCall)
        calls.insert(op);
      for (auto [result, type] : llvm::zip_equal(op->getResults(), *types))
        changed |= update(result, isCall ? type : join(result.getType(), type));
      if (isElementwise(op)) {
        SmallVector<int64_t> shared = getSharedShape(op);
        for (Value operand : op->getOperands())
          if (update(operand, refine(operand.getType(), shared))) {
            LLVM_DEBUG(llvm::dbgs()
                       << "[" DEBUG_TYPE "] " << op->getName() << " at "
                       << op->getLoc() << " gives an operand the type "
                       << operand.getType() << "\n");
            changed = true;
          }
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
  }
  WalkResult walk =
      clone.walk([&](Operation *op) {
        if (op->hasAttr("callee") && !calls.contains(op)) {
          op->emitOpError()
              << "cannot specialize @"
              << op->getAttrOfType<FlatSymbolRefAttr>("callee").getValue()
              << ": its argument types keep `?` sizes";
          return WalkResult::interrupt();
        }
        for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
          if (hasUnknownSizes(type)) {
            op->emitOpError()
                << "result " << i << ": cannot resolve the `?` "
                << "sizes of " << type << " from the operands (docs/shapes.md)";
            return WalkResult::interrupt();
          }
        return WalkResult::advance();
      });
  return failure(walk.wasInterrupted());
}

FailureOr<SmallVector<Type>> Specializer::inferResultTypes(Operation *op) {
  if (func::FuncOp callee = getCallee(op, symbols)) {
    SmallVector<Type> memberArgs(op->getOperandTypes());
    auto vmap = dyn_cast<VmapOp>(op);
    if (vmap)
      for (auto [type, axis] : llvm::zip_equal(memberArgs, vmap.getInAxes()))
        if (axis != -1) {
          auto tensor = cast<RankedTensorType>(type);
          SmallVector<int64_t> shape(tensor.getShape());
          shape.erase(shape.begin() + axis);
          type = RankedTensorType::get(shape, tensor.getElementType());
        }
    FailureOr<func::FuncOp> clone = specialize(callee, memberArgs, op);
    if (failed(clone))
      return failure();
    op->setAttr("callee", FlatSymbolRefAttr::get(*clone));
    SmallVector<Type> results(clone->getFunctionType().getResults());
    if (vmap) {
      for (auto [type, axis] : llvm::zip_equal(results, vmap.getOutAxes())) {
        auto tensor = cast<RankedTensorType>(type);
        SmallVector<int64_t> shape(tensor.getShape());
        shape.insert(shape.begin() + axis, vmap.getSize());
        type = RankedTensorType::get(shape, tensor.getElementType());
      }
    } else if (auto grad = dyn_cast<ValueAndGradOp>(op)) {
      results.resize(1);
      for (int64_t index : grad.getWrt())
        results.push_back(op->getOperand(index).getType());
    }
    return results;
  }
  if (auto infer = dyn_cast<InferTypeOpInterface>(op)) {
    SmallVector<Type> types;
    if (failed(infer.inferReturnTypes(
            op->getContext(), op->getLoc(), op->getOperands(),
            op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
            op->getRegions(), types)))
      return failure();
    return types;
  }
  return refineDeclared(op);
}

SmallVector<Type> Specializer::refineDeclared(Operation *op) {
  SmallVector<Type> declared(op->getResultTypes());
  return TypeSwitch<Operation *, SmallVector<Type>>(op)
      // A result dimension mapped from an operand dimension takes its size;
      // a new one is left to the elementwise op that uses the result.
      .Case([&](BroadcastInDimOp broadcast) -> SmallVector<Type> {
        SmallVector<int64_t> known = unknown(shapeOf(broadcast).size());
        for (auto [i, d] : llvm::enumerate(broadcast.getDims()))
          known[d] = shapeOf(broadcast.getOperand())[i];
        return {refine(declared[0], known)};
      })
      // The one `?` is the element count over the other sizes.
      .Case([&](ReshapeOp reshape) -> SmallVector<Type> {
        auto type = cast<RankedTensorType>(declared[0]);
        auto operand = cast<RankedTensorType>(reshape.getOperand().getType());
        if (!operand.hasStaticShape())
          return {type}; // until a later round knows the operand
        int64_t count = operand.getNumElements();
        int64_t rest = 1;
        for (int64_t size : type.getShape())
          if (!ShapedType::isDynamic(size))
            rest *= size;
        // 0 elements over 0 leaves any size: the `?` stays unresolved.
        if (rest == 0 || count % rest != 0)
          return {type};
        SmallVector<int64_t> known(type.getShape());
        for (int64_t &size : known)
          if (ShapedType::isDynamic(size))
            size = count / rest;
        return {refine(type, known)};
      })
      // The indices' shape, then the depth, which must be written.
      .Case([&](OneHotOp oneHot) -> SmallVector<Type> {
        SmallVector<int64_t> known(shapeOf(oneHot.getIndices()));
        known.push_back(ShapedType::kDynamic);
        return {refine(declared[0], known)};
      })
      // The table's sizes outside `axis` come from the updates; the size
      // along `axis` (the table's length) must be written.
      .Case([&](ScatterAddOp scatter) -> SmallVector<Type> {
        ArrayRef<int64_t> updates = shapeOf(scatter.getUpdates());
        int64_t axis = scatter.getAxis();
        size_t indexRank = shapeOf(scatter.getIndices()).size();
        SmallVector<int64_t> known(updates.take_front(axis));
        known.push_back(ShapedType::kDynamic);
        llvm::append_range(known, updates.drop_front(axis + indexRank));
        return {refine(declared[0], known)};
      })
      // Random draws and keys lead with the key's batch shape; the drawn
      // shape and the number of split keys must be written.
      .Case<RandomUniformOp, RandomNormalOp, RandomSplitOp>(
          [&](Operation *random) -> SmallVector<Type> {
            ArrayRef<int64_t> key = shapeOf(random->getOperand(0));
            SmallVector<int64_t> known(key.drop_back());
            SmallVector<int64_t> rest =
                unknown(shapeOf(random->getResult(0)).size() - known.size());
            if (isa<RandomSplitOp>(random))
              rest.back() = 2;
            llvm::append_range(known, rest);
            return {refine(declared[0], known)};
          })
      .Case([&](RandomFoldInOp foldIn) -> SmallVector<Type> {
        return {foldIn.getKey().getType()};
      })
      // The library's signature at the call's !T: the results follow from
      // an operand's type; a function generic in its result (an
      // initialiser) keeps the result types written.
      .Case([&](StdlibCallOp call) -> SmallVector<Type> {
        FailureOr<FunctionType> signature = call.getSignature();
        if (failed(signature))
          return declared; // for the verifier to report
        return llvm::to_vector(signature->getResults());
      })
      .Default([&](Operation *other) {
        // Elementwise ops (ens.select, ens.convert, ...) keep their
        // operands' shape, with their own element type.
        if (!isElementwise(other))
          return declared;
        SmallVector<int64_t> shared = getSharedShape(other);
        SmallVector<Type> types;
        for (Type type : declared)
          types.push_back(refine(type, shared));
        return types;
      });
}

/// Verifies `clones`, their symbol uses included.
static LogicalResult verifyClones(ArrayRef<func::FuncOp> clones) {
  SymbolTableCollection symbols;
  for (func::FuncOp clone : clones) {
    if (failed(verify(clone)))
      return failure();
    WalkResult walk = clone.walk([&](SymbolUserOpInterface user) {
      return failed(user.verifySymbolUses(symbols)) ? WalkResult::interrupt()
                                                    : WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
  }
  return success();
}

/// Specializes `entry`, leaving the module as it was on failure.
static FailureOr<func::FuncOp> specialize(ModuleOp module, StringRef entry,
                                          ArrayRef<Type> argTypes,
                                          Specializer &specializer) {
  auto function = module.lookupSymbol<func::FuncOp>(entry);
  if (!function)
    return module.emitError() << "ens-specialize: no function named @" << entry;
  FailureOr<func::FuncOp> clone =
      specializer.specialize(function, argTypes, nullptr);
  if (failed(clone) || failed(verifyClones(specializer.clones))) {
    for (func::FuncOp created : specializer.clones)
      created.erase();
    return failure();
  }
  return clone;
}

FailureOr<func::FuncOp> mlir::ens::specializeFunction(ModuleOp module,
                                                      StringRef entry,
                                                      ArrayRef<Type> argTypes) {
  Specializer specializer(module);
  return specialize(module, entry, argTypes, specializer);
}

FailureOr<func::FuncOp>
mlir::ens::specializeEntryInPlace(ModuleOp module, StringRef entry,
                                  ArrayRef<Type> argTypes) {
  Specializer specializer(module);
  FailureOr<func::FuncOp> clone =
      specialize(module, entry, argTypes, specializer);
  if (failed(clone))
    return failure();
  auto original = module.lookupSymbol<func::FuncOp>(entry);
  if (SymbolTable::symbolKnownUseEmpty(original, module)) {
    clone->setVisibility(original.getVisibility());
    // Erased here, it must not be visited below.
    specializer.originals.remove(original.getOperation());
    original.erase();
    clone->setName(entry);
  }
  // Erasing one original can leave the ones it called unused.
  bool erased = true;
  while (erased) {
    erased = false;
    for (Operation *op : specializer.originals.takeVector()) {
      auto function = dyn_cast<func::FuncOp>(op);
      if (function && function->getParentOp() == module &&
          hasUnknownSizes(function.getFunctionType()) &&
          SymbolTable::symbolKnownUseEmpty(function, module)) {
        function.erase();
        erased = true;
        continue;
      }
      specializer.originals.insert(op);
    }
  }
  return clone;
}

/// What in `function` has a `?` size ("argument 0 has type ..."), or "".
static std::string describeDynamic(func::FuncOp function) {
  std::string problem;
  llvm::raw_string_ostream os(problem);
  for (auto [i, type] : llvm::enumerate(function.getArgumentTypes()))
    if (hasUnknownSizes(type)) {
      os << "argument " << i << " has type " << type;
      return problem;
    }
  function.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (hasUnknownSizes(type)) {
        os << "'" << op->getName() << "' has a result of type " << type;
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return problem;
}

llvm::Error mlir::ens::checkStaticShapes(ModuleOp module, StringRef entry) {
  SymbolTable symbols(module);
  llvm::SetVector<Operation *> reached;
  if (auto function = symbols.lookup<func::FuncOp>(entry))
    reached.insert(function);
  for (size_t i = 0; i < reached.size(); ++i) {
    auto function = cast<func::FuncOp>(reached[i]);
    std::string problem = describeDynamic(function);
    if (!problem.empty())
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "@" + function.getSymName() + " " + problem +
              ", with a `?` size, which no target compiles; specialize @" +
              entry +
              " to concrete argument types first (ens-specialize, ens-run "
              "--input, or Module::compile with argument types)");
    function.walk([&](Operation *op) {
      if (func::FuncOp callee = getCallee(op, symbols))
        reached.insert(callee);
    });
  }
  return llvm::Error::success();
}

namespace {
struct EnsSpecializePass : ens::impl::EnsSpecializeBase<EnsSpecializePass> {
  using EnsSpecializeBase::EnsSpecializeBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (entry.empty()) {
      module.emitError() << "ens-specialize needs entry=NAME";
      return signalPassFailure();
    }
    auto function = module.lookupSymbol<func::FuncOp>(entry);
    if (!function) {
      module.emitError() << "ens-specialize: no function named @" << entry;
      return signalPassFailure();
    }
    SmallVector<Type> types;
    for (const std::string &text : argTypes) {
      Type type = parseType(text, &getContext());
      if (!type) {
        module.emitError() << "ens-specialize: cannot parse the type '" << text
                           << "' in arg-types";
        return signalPassFailure();
      }
      types.push_back(type);
    }
    if (argTypes.empty())
      llvm::append_range(types, function.getArgumentTypes());
    if (failed(specializeEntryInPlace(module, entry, types)))
      signalPassFailure();
  }
};
} // namespace
