# Ramulator 2 (github.com/CMU-SAFARI/ramulator2), the cycle-accurate DRAM
# simulator behind `dram.model: "ramulator2"` (docs/timing-model.md), built
# as an external dependency pinned to one commit: never copied into gemini.
#
#   -DGEMINI_RAMULATOR2=AUTO  (default) built when its source tarball and
#                             Debian's yaml-cpp and spdlog are here; else
#                             skipped with a message saying why
#   -DGEMINI_RAMULATOR2=ON    required: a missing piece is an error; without
#                             the tarball the pinned commit is cloned from
#                             its public repository (needs network)
#   -DGEMINI_RAMULATOR2=OFF   not built
#   -DGEMINI_RAMULATOR2_TARBALL=PATH  the source tarball (default:
#                             ../shared/third_party/ramulator2-v2.0a.tar.gz
#                             beside the source folder), checked by sha256
#
# Its build is patched by cmake/ramulator2_patch.cmake (Debian's yaml-cpp and
# spdlog instead of its own fetches, no command-line tool, a static library,
# GDDR6 compiled) and takes about 12 CPU-minutes once. gemini links the
# library whole: its models register themselves with Ramulator's Factory
# from static initialisers that nothing else references.
#
# Sets GEMINI_HAVE_RAMULATOR2 (ON/OFF), GEMINI_RAMULATOR2_WHY (why not, for
# the message and for `gemini sim --list-params`) and, when ON, the target
# gemini::ramulator2.

set(GEMINI_RAMULATOR2 AUTO CACHE STRING "Build Ramulator 2 for dram.model ramulator2: AUTO, ON or OFF")
set_property(CACHE GEMINI_RAMULATOR2 PROPERTY STRINGS AUTO ON OFF)
set(GEMINI_RAMULATOR2_TARBALL
    "${PROJECT_SOURCE_DIR}/../shared/third_party/ramulator2-v2.0a.tar.gz"
    CACHE FILEPATH "Ramulator 2 source tarball (git archive of the pinned commit)")
set(GEMINI_RAMULATOR2_COMMIT be93be78055d922aa1d4d33e15bcc8f2b0c61a9d)
set(GEMINI_RAMULATOR2_SHA256 c679903622abb2f9c01e34336e8e77f1ca0411dc993b4f5f9f7476dbc0d5c57c)
set(GEMINI_RAMULATOR2_GIT https://github.com/CMU-SAFARI/ramulator2.git)

set(GEMINI_HAVE_RAMULATOR2 OFF)
set(GEMINI_RAMULATOR2_WHY "")
set(_r2_mode "${GEMINI_RAMULATOR2}")
string(TOUPPER "${_r2_mode}" _r2_mode)

# Why it cannot be built, or "" when it can; _r2_source is the tarball or
# "git".
function(_r2_check)
  set(why "")
  set(source "")
  if(_r2_mode STREQUAL "OFF")
    set(why "GEMINI_RAMULATOR2=OFF")
  elseif(GEMINI_SANITIZE AND _r2_mode STREQUAL "AUTO")
    # Ramulator never frees what it allocates: LeakSanitizer would fail
    # every test that builds a memory system. (The fuzz build has it, its
    # leaks suppressed by tests/fuzz/lsan.supp.)
    set(why "not built with GEMINI_SANITIZE (-DGEMINI_RAMULATOR2=ON builds it)")
  elseif(CMAKE_VERSION VERSION_LESS 3.24)
    set(why "CMake ${CMAKE_VERSION} is older than 3.24 (linking a whole archive)")
  else()
    find_package(yaml-cpp CONFIG QUIET)
    find_package(spdlog CONFIG QUIET)
    if(NOT yaml-cpp_FOUND OR NOT spdlog_FOUND)
      set(why "Debian's libyaml-cpp-dev and libspdlog-dev are not installed (bash scripts/setup.sh)")
    elseif(EXISTS "${GEMINI_RAMULATOR2_TARBALL}")
      file(SHA256 "${GEMINI_RAMULATOR2_TARBALL}" sum)
      if(NOT sum STREQUAL GEMINI_RAMULATOR2_SHA256)
        set(why "${GEMINI_RAMULATOR2_TARBALL} has sha256 ${sum}, not the pinned release's ${GEMINI_RAMULATOR2_SHA256}")
      else()
        set(source "${GEMINI_RAMULATOR2_TARBALL}")
      endif()
    elseif(_r2_mode STREQUAL "ON")
      set(source "git")
    else()
      set(why "its source tarball ${GEMINI_RAMULATOR2_TARBALL} is not here (-DGEMINI_RAMULATOR2_TARBALL=PATH names it; -DGEMINI_RAMULATOR2=ON clones commit ${GEMINI_RAMULATOR2_COMMIT} instead)")
    endif()
  endif()
  set(_r2_why "${why}" PARENT_SCOPE)
  set(_r2_source "${source}" PARENT_SCOPE)
endfunction()
_r2_check()

if(NOT _r2_why STREQUAL "")
  set(GEMINI_RAMULATOR2_WHY "${_r2_why}")
  if(_r2_mode STREQUAL "ON")
    message(FATAL_ERROR "gemini: GEMINI_RAMULATOR2=ON, but Ramulator 2 cannot be built: ${_r2_why}")
  endif()
  message(STATUS "gemini: Ramulator 2 is not built (dram.model ramulator2 unavailable): ${_r2_why}")
  return()
endif()

include(ExternalProject)
set(_r2_prefix ${CMAKE_BINARY_DIR}/_deps/ramulator2)
set(_r2_src ${_r2_prefix}/src/ramulator2)
set(_r2_bin ${_r2_prefix}/build)
set(_r2_lib ${_r2_bin}/${CMAKE_STATIC_LIBRARY_PREFIX}ramulator${CMAKE_STATIC_LIBRARY_SUFFIX})
if(_r2_source STREQUAL "git")
  set(_r2_download GIT_REPOSITORY ${GEMINI_RAMULATOR2_GIT} GIT_TAG ${GEMINI_RAMULATOR2_COMMIT})
  set(_r2_from "commit ${GEMINI_RAMULATOR2_COMMIT} of ${GEMINI_RAMULATOR2_GIT}")
else()
  set(_r2_download URL ${_r2_source} URL_HASH SHA256=${GEMINI_RAMULATOR2_SHA256})
  set(_r2_from "${_r2_source}")
endif()
# Its own build runs at this many jobs (a build tool started from the
# parent's does not share the parent's job slots).
cmake_host_system_information(RESULT _r2_cores QUERY NUMBER_OF_LOGICAL_CORES)
set(GEMINI_RAMULATOR2_JOBS ${_r2_cores} CACHE STRING "Parallel jobs of Ramulator 2's build")
set(_r2_args -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER})
if(GEMINI_FUZZ)
  # Instrumented as gemini's libraries are (coverage, AddressSanitizer,
  # UndefinedBehaviorSanitizer): the hw_config harness reaches it.
  list(APPEND _r2_args "-DCMAKE_CXX_FLAGS=-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer")
endif()
if(CMAKE_CXX_COMPILER_LAUNCHER)
  list(APPEND _r2_args -DCMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER})
endif()
ExternalProject_Add(ramulator2_build
  PREFIX ${_r2_prefix}
  SOURCE_DIR ${_r2_src}
  BINARY_DIR ${_r2_bin}
  ${_r2_download}
  DOWNLOAD_EXTRACT_TIMESTAMP ON
  PATCH_COMMAND ${CMAKE_COMMAND} -P ${CMAKE_CURRENT_LIST_DIR}/ramulator2_patch.cmake
  CMAKE_ARGS ${_r2_args}
  BUILD_COMMAND ${CMAKE_COMMAND} --build <BINARY_DIR> --target ramulator
                --parallel ${GEMINI_RAMULATOR2_JOBS}
  INSTALL_COMMAND ""
  BUILD_BYPRODUCTS ${_r2_lib}
  EXCLUDE_FROM_ALL ON)
# A changed patch script unpacks and patches a fresh copy.
ExternalProject_Add_StepDependencies(ramulator2_build download
  ${CMAKE_CURRENT_LIST_DIR}/ramulator2_patch.cmake)

# The library and its headers (Ramulator's src/), as system headers: its
# code is not held to gemini's warnings.
file(MAKE_DIRECTORY ${_r2_src}/src)
add_library(gemini_ramulator2_lib STATIC IMPORTED GLOBAL)
set_target_properties(gemini_ramulator2_lib PROPERTIES IMPORTED_LOCATION ${_r2_lib})
add_library(gemini_ramulator2 INTERFACE)
add_dependencies(gemini_ramulator2 ramulator2_build)
add_library(gemini::ramulator2 ALIAS gemini_ramulator2)
target_include_directories(gemini_ramulator2 SYSTEM INTERFACE ${_r2_src}/src)
target_link_libraries(gemini_ramulator2 INTERFACE
  "$<LINK_LIBRARY:WHOLE_ARCHIVE,gemini_ramulator2_lib>" yaml-cpp spdlog::spdlog)
set(GEMINI_HAVE_RAMULATOR2 ON)
message(STATUS "gemini: building Ramulator 2 for dram.model ramulator2 from ${_r2_from}")
