//===- ImageRows.cpp - Convolutions over flattened image rows -------------===//
//
// Part of ens. See ImageRows.h.
//
//===----------------------------------------------------------------------===//

#include "ImageRows.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

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
  // of the image per column tap, which vectorizes along the columns.
  SmallVector<int64_t> copyShape(imageType.getShape().drop_back(2));
  copyShape.append({columnTaps, imageRows, columns});
  unsigned copyRank = copyShape.size();
  Value copy = rewriter.create<tensor::EmptyOp>(loc, copyShape,
                                                imageType.getElementType());
  SmallVector<int64_t> windowShape(imageType.getShape().drop_back(1));
  windowShape.push_back(columns);
  SmallVector<OpFoldResult> ones(imageRank, rewriter.getIndexAttr(1));
  for (int64_t tap = 0; tap < columnTaps; ++tap) {
    SmallVector<OpFoldResult> offsets(imageRank, rewriter.getIndexAttr(0));
    offsets.back() = rewriter.getIndexAttr(tap);
    Value window = rewriter.create<tensor::ExtractSliceOp>(
        loc, image, offsets, getAsIndexOpFoldResult(context, windowShape),
        ones);
    Value empty = rewriter.create<tensor::EmptyOp>(loc, windowShape,
                                                   imageType.getElementType());
    Value copied =
        rewriter.create<linalg::CopyOp>(loc, window, empty).getResult(0);
    SmallVector<OpFoldResult> at(copyRank, rewriter.getIndexAttr(0));
    at[copyRank - 3] = rewriter.getIndexAttr(tap);
    SmallVector<int64_t> sizes(copyShape);
    sizes[copyRank - 3] = 1;
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
