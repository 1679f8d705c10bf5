//===- TrainFlagsFuzzer.cpp - Fuzz ens-train's flag handling --------------===//
//
// Splits the input at newlines into ens-train's arguments, parses them with
// ens-train's own options and checks them as ens-train does before any
// work (settingsFromFlags). The properties: no crash, no exception other
// than Failure.
//
// The flags and their checks live in ens-train.cpp's anonymous namespace,
// next to main, so this target compiles that file itself with main renamed.
// Arguments that make LLVM's option parser print help or the version and
// exit are dropped: ens-train never sees them. Those are names, other than
// ens-train's options, that hold an "h" (--help*, and the parser reads "--hx"
// and "--Wh" as groups of one-letter options, one of them -h) or start with
// "version".
//
//===----------------------------------------------------------------------===//

#define main ensTrainMain
#include "ens-train.cpp"
#undef main

namespace {
/// Whether LLVM's parser might print something and exit for `arg`.
bool exitsTheParser(llvm::StringRef arg) {
  llvm::StringRef name = arg.ltrim('-').split('=').first;
  auto option = cl::getRegisteredOptions().find(name);
  if (option != cl::getRegisteredOptions().end() &&
      llvm::is_contained(option->second->Categories, &category))
    return false;
  return name.contains('h') || name.starts_with("version");
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef input(reinterpret_cast<const char *>(data), size);
  llvm::SmallVector<llvm::StringRef> pieces;
  input.split(pieces, '\n');
  // Owned copies: each argument must end with a NUL.
  std::vector<std::string> owned = {"ens-train"};
  for (llvm::StringRef piece : pieces)
    if (!exitsTheParser(piece))
      owned.push_back(piece.str());
  std::vector<const char *> argv;
  for (const std::string &arg : owned)
    argv.push_back(arg.c_str());

  cl::ResetAllOptionOccurrences();
  badOptionValue.clear();
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (!cl::ParseCommandLineOptions(argv.size(), argv.data(), "", &errorStream))
    return 0;
  try {
    settingsFromFlags();
  } catch (const Failure &) {
  }
  return 0;
}
