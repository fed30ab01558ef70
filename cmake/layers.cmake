# fb_layer(NAME SOURCES ... [LAYERS lower ...] [LIBS other ...] [EXECUTABLE target])
# Builds the folder src/NAME as the library fb_NAME (or, with EXECUTABLE, as that program).
# Its include root is a folder that holds only a link to src/NAME, so a file sees the headers
# of its own folder and of the LAYERS it names (and theirs), and no others: an include that
# points up the layer graph fails to compile.
set(FB_LAYER_ROOT ${CMAKE_BINARY_DIR}/layers)

function(fb_layer name)
  cmake_parse_arguments(L "" "EXECUTABLE" "SOURCES;LAYERS;LIBS" ${ARGN})
  set(root ${FB_LAYER_ROOT}/${name})
  file(MAKE_DIRECTORY ${root})
  file(CREATE_LINK ${CMAKE_CURRENT_SOURCE_DIR}/${name} ${root}/${name} SYMBOLIC)
  set(deps)
  foreach(layer IN LISTS L_LAYERS)
    list(APPEND deps fb_${layer})
  endforeach()
  if(L_EXECUTABLE)
    set(target ${L_EXECUTABLE})
    add_executable(${target} ${L_SOURCES})
    target_include_directories(${target} PRIVATE ${root})
    target_link_libraries(${target} PRIVATE ${deps} ${L_LIBS})
  else()
    set(target fb_${name})
    add_library(${target} STATIC ${L_SOURCES})
    target_include_directories(${target} PUBLIC ${root})
    target_link_libraries(${target} PUBLIC ${deps} ${L_LIBS})
  endif()
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${FB_WARNINGS}>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra> $<$<COMPILE_LANGUAGE:HIP>:-Wall -Wextra>)
endfunction()
