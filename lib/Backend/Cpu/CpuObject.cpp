//===- CpuObject.cpp - ens functions as shared objects for the host -------===//
//
// The ahead-of-time twin of the JIT: the same lowering (CpuLowering.h),
// translated to LLVM IR, optimized and compiled to an object file by the
// target machine the JIT would use (the host CPU and its features, with
// position-independent code), then linked into a shared object by the
// host's C++ compiler driver in a private directory (HostCompiler.h).
//
// What the JIT binds to the code in the process, the object gets when it is
// loaded: the allocation functions of memref lowering are defined in it and
// call through two pointers that ens_cpu_init sets (the runtime passes its
// buffer cache, as the JIT binds it), rather than left undefined for the
// loader to find, which would tie the object to how the runtime itself was
// loaded. The one entry, ens_cpu_entry, calls the function's C interface
// with the descriptors' addresses from an array; the ABI is described at
// compileCpuObject (CpuBackend.h). Everything else is internal, so that the
// optimizer may inline it and no symbol of one artifact interposes
// another's.
//
//===----------------------------------------------------------------------===//

#include "ens/Backend/CpuBackend.h"
#include "ens/Support/HostCompiler.h"
#include "ens/Support/TensorTypes.h"

#include "CpuLowering.h"

#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

using namespace mlir;
using namespace mlir::ens;

static llvm::Error error(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The symbols the object exports (see compileCpuObject).
static constexpr StringLiteral kInitSymbol = "ens_cpu_init";
static constexpr StringLiteral kEntrySymbol = "ens_cpu_entry";
static constexpr StringLiteral kSignatureSymbol = "ens_cpu_signature";

/// Defines the declared function `name` of `module`, if the code calls it,
/// as a call through the pointer `hook` with the same arguments.
static llvm::Error defineThroughHook(llvm::Module &module, StringRef name,
                                     llvm::GlobalVariable *hook,
                                     llvm::FunctionType *type) {
  llvm::Function *function = module.getFunction(name);
  if (!function)
    return llvm::Error::success();
  if (!function->isDeclaration() || function->getFunctionType() != type)
    return error("the CPU code declares " + name + " unlike memref lowering");
  llvm::IRBuilder<> builder(
      llvm::BasicBlock::Create(module.getContext(), "", function));
  llvm::Value *callee = builder.CreateLoad(hook->getValueType(), hook);
  SmallVector<llvm::Value *, 1> args;
  for (llvm::Argument &arg : function->args())
    args.push_back(&arg);
  llvm::Value *result = builder.CreateCall(type, callee, args);
  if (type->getReturnType()->isVoidTy())
    builder.CreateRetVoid();
  else
    builder.CreateRet(result);
  return llvm::Error::success();
}

/// Adds ens_cpu_init, the allocation functions, ens_cpu_entry and
/// ens_cpu_signature (`signature`) to `module`, the translated code of
/// `entry`, and makes everything else internal.
static llvm::Error addEntryPoints(llvm::Module &module, StringRef entry,
                                  StringRef signature) {
  llvm::LLVMContext &context = module.getContext();
  std::string cInterface = ("_mlir_ciface_" + entry).str();
  llvm::Function *function = module.getFunction(cInterface);
  // Results are out-parameters: the C interface takes one descriptor
  // pointer per argument and result, and returns nothing.
  if (!function || function->isDeclaration() ||
      !function->getReturnType()->isVoidTy() ||
      llvm::any_of(function->args(), [](const llvm::Argument &arg) {
        return !arg.getType()->isPointerTy();
      }))
    return error("the CPU code of @" + entry + " has no C interface " +
                 cInterface + "(descriptors...) to call");
  auto *pointer = llvm::PointerType::getUnqual(context);
  auto *voidType = llvm::Type::getVoidTy(context);
  auto *i64 = llvm::Type::getInt64Ty(context);

  auto makeHook = [&](StringRef name) {
    return new llvm::GlobalVariable(module, pointer, /*isConstant=*/false,
                                    llvm::GlobalValue::InternalLinkage,
                                    llvm::ConstantPointerNull::get(pointer),
                                    name);
  };
  llvm::GlobalVariable *allocateHook = makeHook("ens.cpu.allocate");
  llvm::GlobalVariable *freeHook = makeHook("ens.cpu.free");
  if (llvm::Error failure =
          defineThroughHook(module, "_mlir_memref_to_llvm_alloc", allocateHook,
                            llvm::FunctionType::get(pointer, {i64}, false)))
    return failure;
  if (llvm::Error failure = defineThroughHook(
          module, "_mlir_memref_to_llvm_free", freeHook,
          llvm::FunctionType::get(voidType, {pointer}, false)))
    return failure;

  llvm::Function *init = llvm::Function::Create(
      llvm::FunctionType::get(voidType, {pointer, pointer}, false),
      llvm::GlobalValue::ExternalLinkage, kInitSymbol, module);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "", init));
  builder.CreateStore(init->getArg(0), allocateHook);
  builder.CreateStore(init->getArg(1), freeHook);
  builder.CreateRetVoid();

  llvm::Function *wrapper = llvm::Function::Create(
      llvm::FunctionType::get(voidType, {pointer}, false),
      llvm::GlobalValue::ExternalLinkage, kEntrySymbol, module);
  builder.SetInsertPoint(llvm::BasicBlock::Create(context, "", wrapper));
  SmallVector<llvm::Value *> descriptors;
  for (unsigned i = 0; i < function->arg_size(); ++i) {
    llvm::Value *slot =
        builder.CreateConstInBoundsGEP1_64(pointer, wrapper->getArg(0), i);
    descriptors.push_back(builder.CreateLoad(pointer, slot));
  }
  builder.CreateCall(function, descriptors);
  builder.CreateRetVoid();

  // The types the code was compiled for, which the runtime checks an
  // artifact's signature against before it calls the entry.
  auto *signatureText = new llvm::GlobalVariable(
      module,
      llvm::ArrayType::get(llvm::Type::getInt8Ty(context),
                           signature.size() + 1),
      /*isConstant=*/true, llvm::GlobalValue::ExternalLinkage,
      llvm::ConstantDataArray::getString(context, signature), kSignatureSymbol);

  for (llvm::GlobalValue &global : module.global_values()) {
    if (global.isDeclaration() || global.hasAppendingLinkage() ||
        global.getName().starts_with("llvm.") || &global == init ||
        &global == wrapper || &global == signatureText)
      continue;
    global.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(module, &os))
    return error("the CPU code of @" + entry + " fails LLVM's verifier:\n" +
                 problems);
  return llvm::Error::success();
}

/// The object file of `lowering`'s program: translated, given its entry
/// points, optimized and compiled for the host.
static llvm::Expected<std::string>
emitObject(const cpu::CpuLowering &lowering) {
  llvm::Expected<OwningOpRef<ModuleOp>> lowered = lowering.lower();
  if (!lowered)
    return lowered.takeError();
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module =
      translateModuleToLLVMIR(**lowered, context, "ens-cpu");
  if (!module)
    return error("cannot translate @" + lowering.entry + " to LLVM IR");

  llvm::orc::JITTargetMachineBuilder host = lowering.host;
  // A shared object's code: position-independent, with the platform's
  // native thread-local storage rather than the JIT's emulated one.
  host.setRelocationModel(llvm::Reloc::PIC_);
  host.getOptions().EmulatedTLS = false;
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      host.createTargetMachine();
  if (!machine)
    return machine.takeError();
  module->setDataLayout((*machine)->createDataLayout());
  module->setTargetTriple((*machine)->getTargetTriple().str());
  llvm::Expected<::ens::runtime::Signature> signature =
      getRuntimeSignature(lowering.type);
  if (!signature)
    return signature.takeError();
  if (llvm::Error failure =
          addEntryPoints(*module, lowering.entry,
                         ::ens::runtime::getSignatureString(*signature)))
    return std::move(failure);
  if (llvm::Error failure =
          cpu::optimizeForHost(*module, **machine, lowering.vectorBytes))
    return std::move(failure);

  SmallString<0> object;
  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager codegen;
  if ((*machine)->addPassesToEmitFile(codegen, os, nullptr,
                                      llvm::CodeGenFileType::ObjectFile))
    return error("the host's target machine cannot emit object files");
  codegen.run(*module);
  return std::string(object.str());
}

/// Links `object` into a shared object with `compiler`.
static llvm::Expected<std::string>
linkObject(StringRef compiler, StringRef object,
           const std::optional<std::string> &openMP) {
  HostBuild build;
  build.directoryPrefix = "ens-cpu";
  build.files = {{"code.o", object}};
  // Every symbol must resolve now, as the JIT resolves the entry at compile
  // time, and only the libraries the code calls become dependencies.
  build.options = {"-shared", "-Wl,-z,defs", "-Wl,--as-needed"};
  build.output = "code.so";
  build.inputs = {"code.o"};
  std::string runPath;
  if (openMP) {
    // Threaded code calls libomp: the object needs libomp.so.5 (its
    // soname), looked for first in the directory this compiler loaded it
    // from, which may be LLVM's own and off the loader's path.
    runPath = "-Wl,-rpath," + llvm::sys::path::parent_path(*openMP).str();
    build.libraries = {*openMP, runPath};
  }
  build.what = "the CPU code";
  return runHostBuild(compiler, build);
}

llvm::Expected<cpu::CpuObject> cpu::buildCpuObject(ModuleOp module,
                                                   StringRef entry,
                                                   const CpuOptions &options,
                                                   StringRef compiler) {
  llvm::Expected<CpuLowering> lowering =
      prepareLowering(module, entry, options);
  if (!lowering)
    return lowering.takeError();
  auto build = [&]() -> llvm::Expected<std::string> {
    llvm::Expected<std::string> object = emitObject(*lowering);
    if (!object)
      return object.takeError();
    return linkObject(compiler, *object, lowering->openMP);
  };
  llvm::Expected<std::string> built = build();
  if (!built && lowering->openMP) {
    // As the JIT does when the OpenMP runtime cannot serve the code: one
    // thread instead.
    llvm::consumeError(built.takeError());
    lowering->useOneThread();
    built = build();
  }
  if (!built)
    return built.takeError();
  return CpuObject{std::move(*built), lowering->threads};
}

llvm::Expected<std::string> cpu::compileCpuObject(ModuleOp module,
                                                  StringRef entry,
                                                  const CpuOptions &options) {
  llvm::Expected<std::string> compiler = findHostCompiler("a cpu artifact");
  if (!compiler)
    return compiler.takeError();
  llvm::Expected<CpuObject> built =
      buildCpuObject(module, entry, options, *compiler);
  if (!built)
    return built.takeError();
  return std::move(built->bytes);
}
