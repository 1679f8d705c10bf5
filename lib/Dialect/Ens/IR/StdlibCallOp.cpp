//===- StdlibCallOp.cpp - The ens.stdlib_call op --------------------------===//
//
// The hooks of ens.stdlib_call: its signature, instantiated from the
// library source's generic one at the call's !T (Stdlib.h), the verifier
// that holds the call to it, and the custom form, which writes !T alone and
// takes every other type from the signature.
//
//===----------------------------------------------------------------------===//

#include "ens/Dialect/Ens/IR/EnsOps.h"
#include "ens/Dialect/Ens/IR/Stdlib.h"

#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::ens;

FailureOr<FunctionType>
StdlibCallOp::getSignature(function_ref<InFlightDiagnostic()> emitError) {
  FailureOr<stdlib::GenericSignature> generic =
      stdlib::getGenericSignature(getFunction(), emitError);
  if (failed(generic))
    return failure();
  if (getArgs().size() != generic->inputs.size() ||
      getNumResults() != generic->results.size()) {
    if (emitError)
      emitError() << "calls '" << getFunction() << "' with " << getArgs().size()
                  << " operands and " << getNumResults()
                  << " results, but it takes " << generic->inputs.size()
                  << " operands and gives " << generic->results.size()
                  << " results";
    return failure();
  }
  return stdlib::instantiateSignature(getFunction(), *generic,
                                      cast<RankedTensorType>(getBoundType()),
                                      emitError);
}

LogicalResult StdlibCallOp::verify() {
  FailureOr<FunctionType> signature =
      getSignature([&] { return emitOpError(); });
  if (failed(signature))
    return failure();
  auto mismatch = [&](StringRef what, size_t i, Type given, Type expected,
                      StringRef verb) {
    return emitOpError() << what << " " << i << " has type " << given
                         << ", but '" << getFunction() << "' at this call's "
                         << "!T " << verb << " " << expected;
  };
  for (auto [i, given, expected] :
       llvm::enumerate(getArgs().getTypes(), signature->getInputs()))
    if (given != expected)
      return mismatch("operand", i, given, expected, "takes");
  for (auto [i, given, expected] :
       llvm::enumerate(getResultTypes(), signature->getResults()))
    if (given != expected)
      return mismatch("result", i, given, expected, "gives");
  return success();
}

Type StdlibCallOp::getBoundType() {
  FailureOr<stdlib::GenericSignature> generic =
      stdlib::getGenericSignature(getFunction(), nullptr);
  if (failed(generic))
    return Type();
  TypeRange types = generic->boundToResult ? TypeRange(getResultTypes())
                                           : TypeRange(getArgs().getTypes());
  return generic->index < types.size() ? types[generic->index] : Type();
}

ParseResult StdlibCallOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr function;
  SmallVector<OpAsmParser::UnresolvedOperand> args;
  if (parser.parseAttribute(function, "function", result.attributes))
    return failure();
  SMLoc argsLoc = parser.getCurrentLocation();
  if (parser.parseOperandList(args, OpAsmParser::Delimiter::Paren) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon())
    return failure();
  SMLoc typeLoc = parser.getCurrentLocation();
  RankedTensorType bound;
  if (parser.parseType(bound))
    return failure();
  auto emitError = [&] { return parser.emitError(typeLoc); };
  FailureOr<stdlib::GenericSignature> generic =
      stdlib::getGenericSignature(function.getValue(), emitError);
  if (failed(generic))
    return failure();
  FailureOr<FunctionType> signature = stdlib::instantiateSignature(
      function.getValue(), *generic, bound, emitError);
  if (failed(signature))
    return failure();
  if (args.size() != signature->getNumInputs())
    return parser.emitError(argsLoc)
           << "'" << function.getValue() << "' takes "
           << signature->getNumInputs() << " operands, but " << args.size()
           << " are given";
  result.addTypes(signature->getResults());
  return parser.resolveOperands(args, signature->getInputs(), argsLoc,
                                result.operands);
}

void StdlibCallOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printAttributeWithoutType(getFunctionAttr());
  p << '(' << getArgs() << ')';
  p.printOptionalAttrDict((*this)->getAttrs(), {getFunctionAttrName()});
  p << " : " << getBoundType();
}
