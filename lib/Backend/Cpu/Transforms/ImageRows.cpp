//===- ImageRows.cpp - Convolutions over flattened image rows -------------===//
//
// Part of ens. See ImageRows.h.
//
//===----------------------------------------------------------------------===//

#include "ImageRows.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::ens;

/// The two loops that `expr` sums at coefficient 1, the first a parallel
/// loop and the second a reduction loop, if it is such a sum.
static std::optional<std::pair<unsigned, unsigned>>
positionPlusTap(AffineExpr expr, ArrayRef<utils::IteratorType> iterators) {
  std::optional<llvm::SmallDenseMap<unsigned, int64_t, 4>> terms =
      cpu::loopCoefficients(expr);
  if (!terms || terms->size() != 2)
    return std::nullopt;
  std::optional<unsigned> position, tap;
  for (auto [loop, factor] : *terms) {
    if (factor != 1)
      return std::nullopt;
    if (iterators[loop] == utils::IteratorType::parallel)
      position = loop;
    else
      tap = loop;
  }
  if (!position || !tap)
    return std::nullopt;
  return std::make_pair(*position, *tap);
}

std::optional<cpu::ImageRows> cpu::matchImageRows(const WindowOp &window,
                                                  int64_t lanes) {
  linalg::LinalgOp op = window.op;
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  unsigned imageRank = window.image.getNumResults();
  unsigned resultRank = window.result.getNumResults();
  if (ShapedType::isDynamicShape(extents) || imageRank < 2 || resultRank < 2 ||
      !isa<linalg::GenericOp>(*op) ||
      !cast<ShapedType>(op.getDpsInputOperand(0)->get().getType())
           .hasStaticShape())
    return std::nullopt;
  auto rowRead =
      positionPlusTap(window.image.getResult(imageRank - 2), iterators);
  auto columnRead =
      positionPlusTap(window.image.getResult(imageRank - 1), iterators);
  if (!rowRead || !columnRead)
    return std::nullopt;
  ImageRows rows{rowRead->first, columnRead->first, rowRead->second,
                 columnRead->second};
  MLIRContext *context = op->getContext();
  if (window.result.getResult(resultRank - 2) !=
          getAffineDimExpr(rows.row, context) ||
      window.result.getResult(resultRank - 1) !=
          getAffineDimExpr(rows.column, context))
    return std::nullopt;
  // Only the image's two innermost dimensions and the result's read the
  // rows and columns; the filter reads the taps, the image nothing else.
  for (unsigned loop : {rows.row, rows.column, rows.rowTap, rows.columnTap}) {
    for (AffineExpr expr : window.image.getResults().drop_back(2))
      if (expr.isFunctionOfDim(loop))
        return std::nullopt;
    if ((loop == rows.row || loop == rows.column) &&
        window.filter.isFunctionOfDim(loop))
      return std::nullopt;
  }
  int64_t columns = extents[rows.column];
  int64_t positions = extents[rows.row] * columns;
  if (columns >= lanes || positions % lanes != 0 ||
      !op.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>())
    return std::nullopt;
  return rows;
}

/// Whether each element of `value` is +0 or undefined: a fill of +0,
/// a `tensor.empty`, or an `scf.forall` (as fusion makes of a fill) over
/// such a tensor that inserts such slices alone into it.
static bool isZeros(Value value) {
  if (value.getDefiningOp<tensor::EmptyOp>())
    return true;
  if (auto fill = value.getDefiningOp<linalg::FillOp>())
    return matchPattern(fill.value(), m_PosZeroFloat());
  auto forall = value.getDefiningOp<scf::ForallOp>();
  if (!forall)
    return false;
  unsigned index = cast<OpResult>(value).getResultNumber();
  return isZeros(forall.getOutputs()[index]) &&
         llvm::all_of(
             forall.getRegionIterArgs()[index].getUsers(), [](Operation *user) {
               auto insert = dyn_cast<tensor::ParallelInsertSliceOp>(user);
               return insert && isZeros(insert.getSource());
             });
}

namespace {
/// An image that is zeros but for a window in its two innermost dimensions.
struct PaddedImage {
  /// The window, as a tensor of the image's rank.
  Value interior;
  /// Where the window lies in the image's rows and columns.
  int64_t row, column;
};
} // namespace

/// Whether `sizes` at `offsets` cover all of `shape` but its two innermost
/// dimensions, with unit strides.
static bool coversLeading(ArrayRef<int64_t> shape, ArrayRef<int64_t> offsets,
                          ArrayRef<int64_t> sizes, ArrayRef<int64_t> strides) {
  for (unsigned dim = 0; dim + 2 < shape.size(); ++dim)
    if (offsets[dim] != 0 || sizes[dim] != shape[dim])
      return false;
  return llvm::all_of(strides, [](int64_t stride) { return stride == 1; });
}

/// `image` as zeros with a window inserted into its two innermost
/// dimensions (a convolution's padding), seen through an expand_shape that
/// leaves those dimensions alone and an extract_slice that takes them
/// whole (the slice of a loop over the batch); the window is built the
/// same way from the inserted value, at the rewriter's insertion point.
static std::optional<PaddedImage> matchPaddedImage(RewriterBase &rewriter,
                                                   Value image) {
  auto slice = image.getDefiningOp<tensor::ExtractSliceOp>();
  Value padded = slice ? slice.getSource() : image;
  auto expand = padded.getDefiningOp<tensor::ExpandShapeOp>();
  if (expand)
    padded = expand.getSrc();
  auto insert = padded.getDefiningOp<tensor::InsertSliceOp>();
  if (!insert || !isZeros(insert.getDest()) ||
      !insert.getSourceType().hasStaticShape() ||
      insert.getSourceType().getRank() != insert.getDestType().getRank() ||
      ShapedType::isDynamicShape(insert.getStaticOffsets()) ||
      !coversLeading(insert.getDestType().getShape(), insert.getStaticOffsets(),
                     insert.getStaticSizes(), insert.getStaticStrides()))
    return std::nullopt;
  ArrayRef<int64_t> windowShape = insert.getSourceType().getShape();
  int64_t rank = windowShape.size();
  PaddedImage result{insert.getSource(), insert.getStaticOffsets()[rank - 2],
                     insert.getStaticOffsets()[rank - 1]};
  int64_t rows = windowShape[rank - 2], columns = windowShape[rank - 1];

  if (expand) {
    SmallVector<ReassociationIndices> groups = expand.getReassociationIndices();
    unsigned expandedRank = expand.getResultType().getRank();
    if (groups.back() != ReassociationIndices{expandedRank - 1} ||
        groups[groups.size() - 2] != ReassociationIndices{expandedRank - 2} ||
        !expand.getResultType().hasStaticShape())
      return std::nullopt;
  }
  if (slice) {
    ArrayRef<int64_t> shape = slice.getSourceType().getShape();
    unsigned sliceRank = shape.size();
    if (slice.getResultType().getRank() != sliceRank ||
        ShapedType::isDynamicShape(slice.getStaticSizes()) ||
        !llvm::all_of(slice.getStaticStrides(),
                      [](int64_t stride) { return stride == 1; }))
      return std::nullopt;
    for (unsigned dim = sliceRank - 2; dim < sliceRank; ++dim)
      if (slice.getStaticOffsets()[dim] != 0 ||
          slice.getStaticSizes()[dim] != shape[dim])
        return std::nullopt;
  }

  if (expand) {
    SmallVector<ReassociationIndices> groups = expand.getReassociationIndices();
    unsigned expandedRank = expand.getResultType().getRank();
    SmallVector<int64_t> shape(expand.getResultType().getShape());
    shape[expandedRank - 2] = rows;
    shape[expandedRank - 1] = columns;
    result.interior = rewriter.create<tensor::ExpandShapeOp>(
        expand.getLoc(),
        RankedTensorType::get(shape, insert.getSourceType().getElementType()),
        result.interior, groups);
  }
  if (slice) {
    unsigned sliceRank = slice.getSourceType().getRank();
    SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
    SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
    sizes[sliceRank - 2] = rewriter.getIndexAttr(rows);
    sizes[sliceRank - 1] = rewriter.getIndexAttr(columns);
    result.interior = rewriter.create<tensor::ExtractSliceOp>(
        slice.getLoc(), result.interior, offsets, sizes,
        slice.getMixedStrides());
  }
  return result;
}

/// `expr` over the loops of the flattened op, which drops loop `removed`:
/// the loops after it move down by one.
static AffineExpr renumber(AffineExpr expr, unsigned removed,
                           unsigned numLoops) {
  MLIRContext *context = expr.getContext();
  SmallVector<AffineExpr> dims;
  for (unsigned loop = 0; loop < numLoops; ++loop)
    dims.push_back(getAffineDimExpr(loop < removed ? loop : loop - 1, context));
  return expr.replaceDims(dims);
}

void cpu::flattenImageRows(RewriterBase &rewriter, linalg::GenericOp op,
                           const ImageRows &rows) {
  Location loc = op.getLoc();
  MLIRContext *context = op.getContext();
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  unsigned numLoops = extents.size();
  Value image = op.getDpsInputs()[0];
  auto imageType = cast<RankedTensorType>(image.getType());
  unsigned imageRank = imageType.getRank();
  int64_t imageRows = imageType.getDimSize(imageRank - 2);
  int64_t columns = extents[rows.column];
  int64_t columnTaps = extents[rows.columnTap];
  rewriter.setInsertionPoint(op);

  // The copy: copy[..., columnTap, imageRow, column] =
  // image[..., imageRow, column + columnTap], one linalg.copy of a window
  // of the image per column tap, which vectorizes along the columns. Of a
  // padded image, the copy is zeros with windows of the unpadded image,
  // which then need not be padded at all.
  SmallVector<int64_t> copyShape(imageType.getShape().drop_back(2));
  copyShape.append({columnTaps, imageRows, columns});
  unsigned copyRank = copyShape.size();
  Type elementType = imageType.getElementType();
  Value copy = rewriter.create<tensor::EmptyOp>(loc, copyShape, elementType);
  PaddedImage source{image, 0, 0};
  if (std::optional<PaddedImage> padded = matchPaddedImage(rewriter, image)) {
    source = *padded;
    Value zero = rewriter.create<arith::ConstantOp>(
        loc, rewriter.getZeroAttr(elementType));
    copy = rewriter.create<linalg::FillOp>(loc, zero, copy).getResult(0);
  }
  ArrayRef<int64_t> sourceShape =
      cast<RankedTensorType>(source.interior.getType()).getShape();
  SmallVector<OpFoldResult> ones(imageRank, rewriter.getIndexAttr(1));
  for (int64_t tap = 0; tap < columnTaps; ++tap) {
    // Copy column c reads the source's column c + tap - source.column;
    // the copy's other columns are padding.
    int64_t first = std::max<int64_t>(0, source.column - tap);
    int64_t last = std::min(columns, source.column - tap + sourceShape.back());
    if (first >= last)
      continue;
    SmallVector<int64_t> windowShape(imageType.getShape().drop_back(2));
    windowShape.append({sourceShape[imageRank - 2], last - first});
    SmallVector<OpFoldResult> offsets(imageRank, rewriter.getIndexAttr(0));
    offsets.back() = rewriter.getIndexAttr(first + tap - source.column);
    Value window = rewriter.create<tensor::ExtractSliceOp>(
        loc, source.interior, offsets,
        getAsIndexOpFoldResult(context, windowShape), ones);
    Value empty =
        rewriter.create<tensor::EmptyOp>(loc, windowShape, elementType);
    Value copied =
        rewriter.create<linalg::CopyOp>(loc, window, empty).getResult(0);
    SmallVector<OpFoldResult> at(copyRank, rewriter.getIndexAttr(0));
    at[copyRank - 3] = rewriter.getIndexAttr(tap);
    at[copyRank - 2] = rewriter.getIndexAttr(source.row);
    at[copyRank - 1] = rewriter.getIndexAttr(first);
    SmallVector<int64_t> sizes(windowShape);
    sizes.insert(sizes.end() - 2, 1);
    copy = rewriter.create<tensor::InsertSliceOp>(
        loc, copied, copy, at, getAsIndexOpFoldResult(context, sizes),
        SmallVector<OpFoldResult>(copyRank, rewriter.getIndexAttr(1)));
  }
  SmallVector<ReassociationIndices> copyGroups;
  for (unsigned dim = 0; dim + 3 < copyRank; ++dim)
    copyGroups.push_back({dim});
  copyGroups.push_back({copyRank - 3, copyRank - 2, copyRank - 1});
  Value flatImage =
      rewriter.create<tensor::CollapseShapeOp>(loc, copy, copyGroups);

  // The result's rows and columns as one loop, in place of the column loop.
  Value init = op.getDpsInitOperand(0)->get();
  unsigned resultRank = cast<RankedTensorType>(init.getType()).getRank();
  SmallVector<ReassociationIndices> resultGroups;
  for (unsigned dim = 0; dim + 2 < resultRank; ++dim)
    resultGroups.push_back({dim});
  resultGroups.push_back({resultRank - 2, resultRank - 1});
  // A fill of the flat shape rather than a view of the original: a
  // transfer through a reshaped view stays in the loop (upstream's hoisting
  // leaves views alone), a fresh buffer's accumulators go to registers.
  auto fill = init.getDefiningOp<linalg::FillOp>();
  auto initType = cast<RankedTensorType>(init.getType());
  SmallVector<int64_t> flatShape(initType.getShape().drop_back(2));
  flatShape.push_back(initType.getDimSize(resultRank - 2) *
                      initType.getDimSize(resultRank - 1));
  Value flatInit = rewriter
                       .create<linalg::FillOp>(
                           loc, fill.value(),
                           rewriter
                               .create<tensor::EmptyOp>(
                                   loc, flatShape, initType.getElementType())
                               .getResult())
                       .getResult(0);

  auto flat = [&](unsigned loop) {
    return renumber(getAffineDimExpr(loop, context), rows.row, numLoops);
  };
  SmallVector<AffineExpr> imageRead;
  for (AffineExpr expr : maps[0].getResults().drop_back(2))
    imageRead.push_back(renumber(expr, rows.row, numLoops));
  imageRead.push_back(flat(rows.column) + flat(rows.rowTap) * columns +
                      flat(rows.columnTap) * (imageRows * columns));
  SmallVector<AffineExpr> resultRead;
  for (AffineExpr expr : maps[2].getResults().drop_back(2))
    resultRead.push_back(renumber(expr, rows.row, numLoops));
  resultRead.push_back(flat(rows.column));
  SmallVector<AffineExpr> filterRead;
  for (AffineExpr expr : maps[1].getResults())
    filterRead.push_back(renumber(expr, rows.row, numLoops));
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  iterators.erase(iterators.begin() + rows.row);
  unsigned flatLoops = numLoops - 1;
  auto flattened = rewriter.create<linalg::GenericOp>(
      loc, flatInit.getType(), ValueRange{flatImage, op.getDpsInputs()[1]},
      flatInit,
      SmallVector<AffineMap>{AffineMap::get(flatLoops, 0, imageRead, context),
                             AffineMap::get(flatLoops, 0, filterRead, context),
                             AffineMap::get(flatLoops, 0, resultRead, context)},
      iterators);
  rewriter.cloneRegionBefore(op.getRegion(), flattened.getRegion(),
                             flattened.getRegion().begin());
  rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
      op, init.getType(), flattened.getResult(0), resultGroups);
}
