# MPI flavors: Open MPI, MPICH and SimGrid's SMPI live side by side on one machine, so each MPI
# program is compiled once per flavor with that flavor's compiler wrapper (not with CMake's C
# compiler) into ${MV_MPI_OUTPUT_DIR}/<flavor>/. A missing flavor is reported and skipped.
set(MV_MPI_FLAVORS "")  # not set(X): that would expose the cached list on re-configure
set(MV_FLAVOR_CANDIDATES "openmpi:mpicc.openmpi" "mpich:mpicc.mpich" "smpi:smpicc")
foreach(pair ${MV_FLAVOR_CANDIDATES})
  string(REPLACE ":" ";" parts ${pair})
  list(GET parts 0 flavor)
  list(GET parts 1 wrapper)
  find_program(MV_MPICC_${flavor} ${wrapper})
  if(MV_SANITIZE AND flavor STREQUAL "smpi")
    # SMPI switches between simulated ranks' stacks, which AddressSanitizer does not follow.
    message(STATUS "mpivet: MPI flavor smpi not built with sanitizers")
  elseif(MV_MPICC_${flavor} AND MV_MPI_PROGRAMS)
    list(APPEND MV_MPI_FLAVORS ${flavor})
    message(STATUS "mpivet: MPI flavor ${flavor} (${MV_MPICC_${flavor}})")
  else()
    message(STATUS "mpivet: MPI flavor ${flavor} disabled (${wrapper} not found)")
  endif()
endforeach()
set(MV_MPI_FLAVORS ${MV_MPI_FLAVORS} CACHE INTERNAL "MPI flavors built")

file(GLOB_RECURSE MV_ALL_HEADERS ${CMAKE_SOURCE_DIR}/include/*.h ${CMAKE_SOURCE_DIR}/src/*.h)

# mv_mpi_program(NAME n SOURCES a.c b.c [SHARED] [FLAGS ...] [LIBS ...] [LINK target...]
#                [FLAVORS f...] [DEPENDS ...])
# Builds ${MV_MPI_OUTPUT_DIR}/<flavor>/<n> for every flavor (or those listed) and a target
# <n>-<flavor>. SHARED builds a shared library (n should be libX.so). LINK names static
# component libraries (mv_util, mv_results) linked as they are: their libc-only objects are
# built once by CMake's compiler, which the MPI compiler wrappers wrap.
function(mv_mpi_program)
  cmake_parse_arguments(A "SHARED" "NAME" "SOURCES;FLAGS;LIBS;LINK;FLAVORS;DEPENDS" ${ARGN})
  set(flavors ${MV_MPI_FLAVORS})
  if(A_FLAVORS)
    set(flavors)
    foreach(f ${A_FLAVORS})
      if(f IN_LIST MV_MPI_FLAVORS)
        list(APPEND flavors ${f})
      endif()
    endforeach()
  endif()
  set(common_flags -std=c11 -O2 -g ${MV_WARN_FLAGS} -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
      "-DMV_SOURCE_SHARE_DIR=\"${CMAKE_SOURCE_DIR}/share/mpivet\""
      -I${CMAKE_SOURCE_DIR}/include -I${CMAKE_SOURCE_DIR}/src -I${CMAKE_BINARY_DIR}/generated)
  if(A_SHARED)
    list(APPEND common_flags -shared -fPIC)
  endif()
  if(MV_SANITIZE)
    list(APPEND common_flags -fsanitize=address,undefined -fno-omit-frame-pointer
         -fno-sanitize-recover=undefined)
  endif()
  # Only programs whose sources include the version header depend on it: a new git revision then
  # rebuilds those, not every MPI program.
  set(version_dep)
  foreach(src ${A_SOURCES})
    if(EXISTS ${src})
      file(STRINGS ${src} uses REGEX "#include \"mpivet-version.h\"")
      if(uses)
        set(version_dep ${MV_VERSION_HEADER})
      endif()
    endif()
  endforeach()
  set(link_files)
  foreach(t ${A_LINK})
    list(APPEND link_files $<TARGET_FILE:${t}>)
  endforeach()
  foreach(flavor ${flavors})
    set(out ${MV_MPI_OUTPUT_DIR}/${flavor}/${A_NAME})
    set(extra)
    if(flavor STREQUAL "smpi")
      # SMPI folds every rank into one process: globals must stay per-rank, so no -fPIC games.
      set(extra -DMV_SMPI=1)
    endif()
    add_custom_command(OUTPUT ${out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${MV_MPI_OUTPUT_DIR}/${flavor}
      COMMAND ${MV_MPICC_${flavor}} ${common_flags} ${extra} -DMV_MPI_FLAVOR="${flavor}" ${A_FLAGS}
              ${A_SOURCES} -o ${out} ${link_files} ${A_LIBS} -lm
      DEPENDS ${A_SOURCES} ${MV_ALL_HEADERS} ${version_dep} ${A_DEPENDS} ${A_LINK}
      WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
      COMMENT "Building ${A_NAME} for ${flavor}" VERBATIM)
    string(REPLACE "." "_" tname "${A_NAME}")
    add_custom_target(${tname}-${flavor} ALL DEPENDS ${out})
    install(PROGRAMS ${out} DESTINATION lib/mpivet/${flavor})
  endforeach()
endfunction()
