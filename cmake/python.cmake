# The Python module (python/, docs/python.md): built when pybind11 and
# python3-dev are found (scripts/setup.sh installs them), skipped with a
# message otherwise. The module is a shared object that links the static
# libraries, so they are compiled position-independent when it is built.
# Debian's python3 is preferred over another python3 earlier on PATH: the
# module is installed where it looks (dist-packages) and its tests use its
# python3-numpy and python3-pytest.
option(GEMINI_PYTHON "Build the Python module when pybind11 and python3-dev are found" ON)
set(GEMINI_HAVE_PYTHON OFF)
if(GEMINI_PYTHON AND GEMINI_SANITIZE)
  # An instrumented extension needs the sanitizer runtime loaded before
  # python3 starts; the sanitizer suite leaves the module out.
  message(STATUS "gemini: GEMINI_SANITIZE: the Python module is not built")
elseif(GEMINI_PYTHON AND NOT GEMINI_FUZZ)
  if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python3_EXECUTABLE /usr/bin/python3)
  endif()
  find_package(Python3 COMPONENTS Interpreter Development.Module QUIET)
  if(Python3_FOUND)
    find_package(pybind11 CONFIG QUIET)
  endif()
  if(Python3_FOUND AND pybind11_FOUND)
    set(GEMINI_HAVE_PYTHON ON)
    set(CMAKE_POSITION_INDEPENDENT_CODE ON)
    # Position-independent code lets a shared object's global functions be
    # interposed, so GCC would neither inline nor clone them across the
    # library (the simulator's hot paths ran ~8% slower); nothing here is
    # meant to be interposed.
    if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
      add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fno-semantic-interposition>)
    endif()
    message(STATUS "gemini: building the Python module for ${Python3_EXECUTABLE} "
                   "(${Python3_VERSION}, pybind11 ${pybind11_VERSION})")
  else()
    message(STATUS "gemini: pybind11 or python3-dev not found; the Python module is not built "
                   "(bash scripts/setup.sh installs them)")
  endif()
endif()
