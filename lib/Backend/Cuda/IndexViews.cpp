//===- IndexViews.cpp - How kernels reach memrefs -------------------------===//
//
// Resolves a memref to the base pointer a kernel reads it through and the
// offset and strides of its elements, folding views into the index
// arithmetic; an offset at the member index becomes `m`.
//
//===----------------------------------------------------------------------===//

#include "IndexViews.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::ens;
using namespace mlir::ens::cuda;

/// The term that the element `offset` of a subview, along a dimension of
/// `stride` elements, adds to an index ("" for 0), or failure. A constant
/// offset is folded into one literal, which C++ types wide enough for its
/// value.
static FailureOr<std::string> getOffsetTerm(OpFoldResult offset, int64_t stride,
                                            Value memberIndex) {
  if (auto attr = dyn_cast<Attribute>(offset)) {
    int64_t value = cast<IntegerAttr>(attr).getInt();
    return value ? std::to_string(value * stride) : "";
  }
  if (cast<Value>(offset) == memberIndex)
    return "m * " + std::to_string(stride);
  return failure();
}

llvm::Expected<Access> BufferViews::getAccess(Value memref,
                                              BindParam bindParam) const {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t staticOffset;
  if (failed(getStridesAndOffset(type, strides, staticOffset)) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return error("the CUDA backend needs static strides");
  if (auto shared = sharedName.find(memref); shared != sharedName.end())
    return Access{shared->second,
                  "0",
                  {strides.begin(), strides.end()},
                  swizzled.contains(memref)};
  // Never written out; an access would not compile.
  if (inRegisters.contains(memref))
    return Access{"/*in registers*/", "0", {strides.begin(), strides.end()}};
  if (auto buffer = bufferOf.find(memref); buffer != bufferOf.end()) {
    std::string param = bindParam(buffer->second, type.getElementType());
    std::string offset = "0";
    if (auto slice = memberSlice.find(memref); slice != memberSlice.end())
      offset = "m * " + std::to_string(slice->second);
    return Access{param, offset, {strides.begin(), strides.end()}};
  }
  Operation *view = memref.getDefiningOp();
  if (!view || view->getNumOperands() == 0 ||
      !isa<MemRefType>(view->getOperand(0).getType())) {
    std::string what;
    llvm::raw_string_ostream os(what);
    if (view)
      os << "'" << view->getName() << "'";
    else
      os << "a block argument";
    return error("the CUDA backend cannot find the buffer of a memref "
                 "defined by " +
                 what);
  }
  llvm::Expected<Access> source = getAccess(view->getOperand(0), bindParam);
  if (!source)
    return source.takeError();
  Access access{
      source->param, source->offset, {strides.begin(), strides.end()}};
  if (auto subview = dyn_cast<memref::SubViewOp>(view)) {
    for (auto [i, offset] : llvm::enumerate(subview.getMixedOffsets())) {
      FailureOr<std::string> term =
          getOffsetTerm(offset, source->strides[i], memberIndex);
      if (failed(term))
        return error("the CUDA backend cannot compile a subview at a "
                     "computed offset");
      if (!term->empty())
        access.offset += " + " + *term;
    }
    return access;
  }
  if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp, memref::CastOp>(view))
    return access;
  return error("the CUDA backend cannot compile '" +
               view->getName().getStringRef() + "' yet");
}

std::optional<BufferViews::Place> BufferViews::getPlace(Value memref) const {
  if (sharedName.count(memref) || inRegisters.contains(memref))
    return std::nullopt;
  if (auto buffer = bufferOf.find(memref); buffer != bufferOf.end())
    return Place{buffer->second, 0, memberSlice.lookup(memref)};
  Operation *view = memref.getDefiningOp();
  if (!view || view->getNumOperands() == 0 ||
      !isa<MemRefType>(view->getOperand(0).getType()))
    return std::nullopt;
  std::optional<Place> place = getPlace(view->getOperand(0));
  if (!place ||
      isa<memref::CollapseShapeOp, memref::ExpandShapeOp, memref::CastOp>(view))
    return place;
  auto subview = dyn_cast<memref::SubViewOp>(view);
  SmallVector<int64_t> strides;
  int64_t staticOffset;
  if (!subview || failed(getStridesAndOffset(subview.getSourceType(), strides,
                                             staticOffset)))
    return std::nullopt;
  // As getAccess: the offsets of the subview, each a constant or the
  // member index, times the source's strides.
  for (auto [offset, stride] : llvm::zip(subview.getMixedOffsets(), strides)) {
    if (auto attr = dyn_cast<Attribute>(offset))
      place->offset += cast<IntegerAttr>(attr).getInt() * stride;
    else if (cast<Value>(offset) == memberIndex)
      place->memberStride += stride;
    else
      return std::nullopt;
  }
  return place;
}

std::optional<int64_t> BufferViews::getGlobalBuffer(Value memref) const {
  while (true) {
    if (sharedName.count(memref))
      return std::nullopt;
    if (auto buffer = bufferOf.find(memref); buffer != bufferOf.end())
      return buffer->second;
    Operation *view = memref.getDefiningOp();
    if (!view || view->getNumOperands() == 0)
      return std::nullopt;
    memref = view->getOperand(0);
  }
}

void BufferViews::endMemberLoop() {
  memberIndex = nullptr;
  sharedName.clear();
  swizzled.clear();
  memberSlice.clear();
  inRegisters.clear();
}
