# fb_layer(NAME [EXCLUDE file ...] [LAYERS lower ...] [LIBS other ...])
# Builds the folder src/NAME as the library fb_NAME: every .cpp and .cu file in it (and in its
# subfolders) but the EXCLUDEd ones, so a new file joins its layer without a list to edit. Its include root is a folder that holds only
# a link to src/NAME, so a file sees the headers of its own folder and of the LAYERS it names (and
# theirs), and no others: an include that points up the layer graph fails to compile.
#
# Only the vendor layers (FB_VENDOR_LAYERS: gpu/, comm/, tp_step/) are compiled with the backend's
# definitions (FABRICBENCH_GPU_HIP): every other layer compiles the same in the CUDA and the HIP
# build (tests/layers/check_vendor_neutral.sh checks that none of them includes a vendor header).
# So a HIP build can take those layers from a CUDA build of the same source:
# -DFABRICBENCH_NEUTRAL_LAYERS_FROM=<that build> compiles only the vendor layers, main() and the
# vendor's unit tests again (scripts/test.sh does, for CI).
set(FB_LAYER_ROOT ${CMAKE_BINARY_DIR}/layers)
set(FB_VENDOR_LAYERS gpu comm tp_step)
set(FABRICBENCH_NEUTRAL_LAYERS_FROM "" CACHE PATH
    "A CUDA build of the same source whose vendor-neutral layers this (HIP) build links instead of compiling")
include(${CMAKE_CURRENT_LIST_DIR}/precompiled.cmake)

# A library `target` of another build of this source, in place of compiling it here.
function(fb_import_library target file)
  if(NOT EXISTS ${file})
    message(FATAL_ERROR "FABRICBENCH_NEUTRAL_LAYERS_FROM: ${file} is missing (build that CUDA build first)")
  endif()
  add_library(${target} STATIC IMPORTED GLOBAL)
  set_target_properties(${target} PROPERTIES IMPORTED_LOCATION ${file})
endfunction()

# Whether fb_NAME comes from FABRICBENCH_NEUTRAL_LAYERS_FROM.
function(fb_layer_is_imported name out)
  set(imported FALSE)
  if(FABRICBENCH_NEUTRAL_LAYERS_FROM AND NOT name IN_LIST FB_VENDOR_LAYERS)
    set(imported TRUE)
  endif()
  set(${out} ${imported} PARENT_SCOPE)
endfunction()

function(fb_layer name)
  cmake_parse_arguments(L "" "" "EXCLUDE;LAYERS;LIBS" ${ARGN})
  file(GLOB_RECURSE L_SOURCES CONFIGURE_DEPENDS RELATIVE ${CMAKE_CURRENT_SOURCE_DIR} ${name}/*.cpp ${name}/*.cu)
  if(L_EXCLUDE)
    list(REMOVE_ITEM L_SOURCES ${L_EXCLUDE})
  endif()
  set(root ${FB_LAYER_ROOT}/${name})
  file(MAKE_DIRECTORY ${root})
  file(CREATE_LINK ${CMAKE_CURRENT_SOURCE_DIR}/${name} ${root}/${name} SYMBOLIC)
  set(deps)
  foreach(layer IN LISTS L_LAYERS)
    list(APPEND deps fb_${layer})
  endforeach()
  set(target fb_${name})
  fb_layer_is_imported(${name} imported)
  if(imported)
    fb_import_library(${target} ${FABRICBENCH_NEUTRAL_LAYERS_FROM}/src/lib${target}.a)
    target_include_directories(${target} INTERFACE ${root})
    target_link_libraries(${target} INTERFACE ${deps} ${L_LIBS})
    return()
  endif()
  add_library(${target} STATIC ${L_SOURCES})
  target_include_directories(${target} PUBLIC ${root})
  target_link_libraries(${target} PUBLIC ${deps} ${L_LIBS})
  if(name IN_LIST FB_VENDOR_LAYERS)
    target_compile_definitions(${target} PRIVATE ${FB_GPU_DEFINITIONS})
  endif()
  fb_warnings(${target})
  fb_use_pch(${target})
endfunction()

function(fb_warnings target)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${FB_WARNINGS}>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra> $<$<COMPILE_LANGUAGE:HIP>:-Wall -Wextra>)
endfunction()
