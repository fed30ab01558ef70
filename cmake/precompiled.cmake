# Precompiled headers: the third-party headers most source files include (nlohmann_json, fmt and
# the standard library's containers) are parsed once per build, not once per file. One
# precompiled header serves every layer (fb_pch, REUSE_FROM), so it is built once. Not CLI11: its
# header defines validator objects at namespace scope, which every file that includes it then
# compiles (2x the time of a file without). clang-tidy reads the files without the header
# (scripts/lint.sh strips it from the compile database), so a missing #include still fails there.
# Off in the HIP build: CMake's HIP language (clang) sets the precompiled header's form for every
# language (a .pch file, '#pragma clang system_header'), which GCC, the C++ compiler, cannot use.
if(FABRICBENCH_GPU STREQUAL "hip")
  set(FB_PCH_DEFAULT OFF)
else()
  set(FB_PCH_DEFAULT ON)
endif()
option(FABRICBENCH_PCH "Precompile the third-party headers (a faster build)" ${FB_PCH_DEFAULT})

set(FB_PCH_HEADERS <algorithm> <cstdint> <functional> <map> <memory> <optional> <set> <string> <string_view>
  <vector> <nlohmann/json.hpp> <fmt/format.h> <fmt/ranges.h>)

if(FABRICBENCH_PCH)
  add_library(fb_pch OBJECT ${CMAKE_CURRENT_LIST_DIR}/pch.cpp)
  target_link_libraries(fb_pch PRIVATE ${FB_FMT} nlohmann_json::nlohmann_json)
  target_precompile_headers(fb_pch PRIVATE ${FB_PCH_HEADERS})
  # The layers' flags, which GCC checks before it uses the header (-Wpedantic, for one, changes
  # what the compiler predefines): a mismatch is a -Winvalid-pch warning and a slow build.
  target_compile_options(fb_pch PRIVATE ${FB_WARNINGS})
endif()

# `target` (C++ sources only; its CUDA/HIP sources compile as before) reuses the shared header.
function(fb_use_pch target)
  if(FABRICBENCH_PCH)
    target_precompile_headers(${target} REUSE_FROM fb_pch)
    # A header GCC refuses (flags that differ from fb_pch's) is an error, not a silently slow build.
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror=invalid-pch>)
  endif()
endfunction()
