//===- Stdlib.cpp - The standard library's generic signatures -------------===//
//
// A library source is one `func.func` over the aliases !T (the float tensor
// type the function is generic in), !S (rank-0 of T's element type), !F (T
// flattened), !B (T's shape with i1 elements, a mask), !R (T without its
// last dimension), !L (R with i32 elements), !M (T as a matrix: its leading
// dimensions flattened into rows, its last the columns), !N (a vector of
// M's rows) and !V (a vector of M's columns). The source names where T
// comes from with `ens.stdlib.bind`: "argN" or "resultN".
//
// The signature is read from the source's header as text, so that verifying
// a call needs no parse of the body: the aliases are computed here for the
// call's !T, and `ens-stdlib` parses the whole source only to instantiate.
//
//===----------------------------------------------------------------------===//

#include "ens/Dialect/Ens/IR/Stdlib.h"

#include "mlir/AsmParser/AsmParser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace mlir::ens;

/// The library's sources, generated from stdlib/*.mlir at configure time.
static const llvm::StringMap<StringRef> &getSources() {
  static const llvm::StringMap<StringRef> sources = {
#include "ens/Dialect/Ens/IR/StdlibTemplates.inc"
  };
  return sources;
}

std::optional<StringRef> stdlib::lookupSource(StringRef name) {
  auto it = getSources().find(name);
  if (it == getSources().end())
    return std::nullopt;
  return it->second;
}

std::string stdlib::listNames() {
  auto names = llvm::to_vector(getSources().keys());
  llvm::sort(names);
  return llvm::join(names, ", ");
}

/// The product of `sizes`, or `?` if any is.
static int64_t countElements(ArrayRef<int64_t> sizes) {
  int64_t count = 1;
  for (int64_t size : sizes) {
    if (ShapedType::isDynamic(size))
      return ShapedType::kDynamic;
    count *= size;
  }
  return count;
}

/// Each alias's letter and type for !T = `type`.
static SmallVector<std::pair<char, RankedTensorType>>
getAliases(RankedTensorType type) {
  MLIRContext *context = type.getContext();
  Type element = type.getElementType();
  ArrayRef<int64_t> shape = type.getShape();
  auto tensor = [](ArrayRef<int64_t> sizes, Type elementType) {
    return RankedTensorType::get(sizes, elementType);
  };
  SmallVector<std::pair<char, RankedTensorType>> aliases = {
      {'T', type},
      {'S', tensor({}, element)},
      {'F', tensor({countElements(shape)}, element)},
      {'B', tensor(shape, IntegerType::get(context, 1))}};
  if (shape.empty())
    return aliases;
  ArrayRef<int64_t> rows = shape.drop_back();
  int64_t numRows = countElements(rows);
  aliases.append({{'R', tensor(rows, element)},
                  {'L', tensor(rows, IntegerType::get(context, 32))},
                  {'M', tensor({numRows, shape.back()}, element)},
                  {'N', tensor({numRows}, element)},
                  {'V', tensor({shape.back()}, element)}});
  return aliases;
}

std::string stdlib::getAliasDefinitions(RankedTensorType type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (auto [letter, alias] : getAliases(type))
    os << "!" << letter << " = " << alias << "\n";
  return text;
}

/// Splits `list` at the commas outside brackets.
static SmallVector<StringRef> splitList(StringRef list) {
  SmallVector<StringRef> items;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    char c = list[i];
    if (c == '<' || c == '(' || c == '[')
      ++depth;
    else if (c == '>' || c == ')' || c == ']')
      --depth;
    else if (c == ',' && depth == 0) {
      items.push_back(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (!list.trim().empty())
    items.push_back(list.drop_front(start).trim());
  return items;
}

/// The text after the parenthesis that `text` starts with, up to its
/// matching one; `text` is left after that.
static std::optional<StringRef> takeParenthesized(StringRef &text) {
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '(') {
      ++depth;
    } else if (text[i] == ')' && --depth == 0) {
      StringRef inside = text.slice(1, i);
      text = text.drop_front(i + 1);
      return inside;
    }
  }
  return std::nullopt;
}

/// Reads the signature from the header `func.func @name(%a: !T, ...) ->
/// RESULTS attributes {ens.stdlib.bind = "..."}` of `source`.
static std::optional<stdlib::GenericSignature> readHeader(StringRef name,
                                                          StringRef source) {
  // Up to the opening parenthesis, which takeParenthesized starts at.
  std::string start = ("func.func @" + name + "(").str();
  size_t at = source.find(start);
  if (at == StringRef::npos)
    return std::nullopt;
  StringRef rest = source.drop_front(at + start.size() - 1);
  std::optional<StringRef> args = takeParenthesized(rest);
  if (!args)
    return std::nullopt;
  stdlib::GenericSignature signature;
  for (StringRef arg : splitList(*args))
    signature.inputs.push_back(arg.split(':').second.trim().str());
  rest = rest.ltrim();
  if (rest.consume_front("->")) {
    rest = rest.ltrim();
    if (rest.starts_with("(")) {
      std::optional<StringRef> results = takeParenthesized(rest);
      if (!results)
        return std::nullopt;
      for (StringRef result : splitList(*results))
        signature.results.push_back(result.str());
    } else {
      signature.results.push_back(
          rest.take_until([](char c) { return llvm::isSpace(c); }).str());
    }
  }
  StringRef marker = "ens.stdlib.bind = \"";
  size_t bindAt = source.find(marker);
  if (bindAt == StringRef::npos)
    return std::nullopt;
  StringRef bind =
      source.drop_front(bindAt + marker.size()).take_until([](char c) {
        return c == '"';
      });
  signature.boundToResult = bind.consume_front("result");
  if (!signature.boundToResult && !bind.consume_front("arg"))
    return std::nullopt;
  size_t count = signature.boundToResult ? signature.results.size()
                                         : signature.inputs.size();
  if (bind.getAsInteger(10, signature.index) || signature.index >= count)
    return std::nullopt;
  return signature;
}

FailureOr<stdlib::GenericSignature>
stdlib::getGenericSignature(StringRef name,
                            function_ref<InFlightDiagnostic()> emitError) {
  std::optional<StringRef> source = lookupSource(name);
  if (!source) {
    if (emitError)
      emitError() << "names '" << name
                  << "', which is not in the standard library (" << listNames()
                  << ")";
    return failure();
  }
  std::optional<GenericSignature> signature = readHeader(name, *source);
  if (!signature) {
    if (emitError)
      emitError() << "cannot read the signature of '" << name
                  << "' from its source (stdlib/" << name << ".mlir)";
    return failure();
  }
  return *signature;
}

FailureOr<FunctionType>
stdlib::instantiateSignature(StringRef name, const GenericSignature &signature,
                             RankedTensorType type,
                             function_ref<InFlightDiagnostic()> emitError) {
  if (!isa<FloatType>(type.getElementType())) {
    if (emitError)
      emitError() << "'" << name
                  << "' is generic in a float tensor, but !T would be " << type;
    return failure();
  }
  SmallVector<std::pair<char, RankedTensorType>> aliases = getAliases(type);
  auto resolve = [&](ArrayRef<std::string> texts,
                     SmallVectorImpl<Type> &types) -> LogicalResult {
    for (StringRef text : texts) {
      Type resolved;
      if (text.consume_front("!")) {
        const auto *alias = llvm::find_if(aliases, [&](const auto &entry) {
          return text.size() == 1 && text.front() == entry.first;
        });
        if (alias != aliases.end())
          resolved = alias->second;
        else if (emitError)
          emitError() << "'" << name << "' uses !" << text
                      << ", which is defined only for !T of rank 1 or more, "
                         "but !T is "
                      << type;
      } else {
        resolved = parseType(text, type.getContext());
      }
      if (!resolved)
        return failure();
      types.push_back(resolved);
    }
    return success();
  };
  SmallVector<Type> inputs, results;
  if (failed(resolve(signature.inputs, inputs)) ||
      failed(resolve(signature.results, results)))
    return failure();
  return FunctionType::get(type.getContext(), inputs, results);
}
