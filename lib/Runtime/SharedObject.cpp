//===- SharedObject.cpp - Loading compiled code from memory ---------------===//
//
// dlopen takes a path and resolves it when it opens it, so a file checked
// a moment before could be another file by then. The verified bytes are
// therefore copied into an anonymous memory file (memfd_create) that no
// other process can name, sealed against writes and size changes (a
// truncation under a mapped object is a SIGBUS), and loaded through
// /proc/self/fd/N.
//
// glibc recognizes an object already loaded by the name given to dlopen
// before it opens anything. An earlier object loaded through the same
// /proc/self/fd/N stays loaded after dlclose when it registered
// thread-local destructors (the emulation header does), and dlopen would
// return that object in place of this one. A name that is taken is
// therefore skipped by moving to a higher descriptor number.
//
//===----------------------------------------------------------------------===//

#include "SharedObject.h"

#include <cerrno>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

using namespace ens::runtime;

/// An error "<what>: <strerror(errno)>".
static Error errnoError(const std::string &what) {
  return Error(what + ": " + std::strerror(errno));
}

void *SymbolBinder::lookUp(const char *name) const {
  return dlsym(library, name);
}

Expected<void *> ens::runtime::loadSharedObject(std::string_view bytes,
                                                const std::string &what) {
  int memfd = ::memfd_create("ens-object", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (memfd < 0)
    return errnoError("cannot create a memory file for " + what);
  int fd = memfd;
  struct CloseAll {
    int &fd, &memfd;
    ~CloseAll() {
      if (fd != memfd)
        ::close(fd);
      ::close(memfd);
    }
  } closeAll{fd, memfd};
  for (size_t done = 0; done < bytes.size();) {
    ssize_t written = ::write(memfd, bytes.data() + done, bytes.size() - done);
    if (written < 0 && errno == EINTR)
      continue;
    if (written <= 0)
      return errnoError("cannot copy " + what + " to memory");
    done += static_cast<size_t>(written);
  }
  if (::fcntl(memfd, F_ADD_SEALS,
              F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0)
    return errnoError("cannot seal " + what);
  std::string name;
  while (true) {
    name = "/proc/self/fd/" + std::to_string(fd);
    void *loaded = ::dlopen(name.c_str(), RTLD_LAZY | RTLD_NOLOAD);
    if (!loaded)
      break;
    ::dlclose(loaded);
    int next = ::fcntl(memfd, F_DUPFD_CLOEXEC, fd + 1);
    if (next < 0)
      return errnoError("cannot load " + what);
    if (fd != memfd)
      ::close(fd);
    fd = next;
  }
  void *handle = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return Error("cannot load " + what + ": " + ::dlerror());
  return handle;
}
