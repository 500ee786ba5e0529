# mv_component(<name> [LIBS ...]): the static library mv_<name> from every .c file of the
# calling folder. A component folder's CMakeLists.txt is usually just this one call; LIBS are
# the components (and external libraries) it really calls, lower layers only (ARCHITECTURE.md
# section 4, tests/unit/layers.sh).
function(mv_component name)
  cmake_parse_arguments(A "" "" "LIBS" ${ARGN})
  file(GLOB srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.c)
  if(NOT srcs)
    return()
  endif()
  add_library(mv_${name} STATIC ${srcs})
  target_include_directories(mv_${name} PUBLIC ${CMAKE_SOURCE_DIR}/include PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_SOURCE_DIR}/src)
  target_link_libraries(mv_${name} PUBLIC ${A_LIBS} m)
endfunction()
