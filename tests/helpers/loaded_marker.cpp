// A library that says it was loaded (tests/cli/rendezvous_security.sh): when anything dlopens it, its
// constructor writes the file FB_LOADED_MARKER names. A rank that loads a library another rank named
// leaves that file behind.
#include <cstdio>
#include <cstdlib>

namespace {

__attribute__((constructor)) void say_loaded() {
  const char* path = std::getenv("FB_LOADED_MARKER");
  if (path == nullptr) return;
  if (std::FILE* f = std::fopen(path, "w")) {
    std::fputs("loaded\n", f);
    std::fclose(f);
  }
}

}  // namespace
