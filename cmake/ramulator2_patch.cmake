# The patch step of Ramulator 2 (cmake/ramulator2.cmake), run with
# `cmake -P` in its unpacked source folder. It changes only the build
# description, never Ramulator's code:
#   - its FetchContent of yaml-cpp, spdlog and argparse becomes
#     find_package of Debian's yaml-cpp and spdlog (argparse served only the
#     ramulator-exe command-line tool, which is left out);
#   - libramulator is built static (gemini links it whole: its models
#     register themselves with its Factory from static initialisers);
#   - GDDR6, whose model is in the source but not in v2.0a's build list,
#     is compiled with the other standards;
#   - what gemini never builds a memory system from is left out of the
#     build (about half of its compile time): the RowHammer-study
#     controllers, schedulers and plugins, the VRR/RVRR variants of DDR4
#     and DDR5, and the processor frontends (simpleO3, bhO3).
#
# And three fixes to its code, the only ones: v2.0a's LPDDR5 decides whether a
# read or write hits the open row by looking for row 0
# (`m_row_state.find(0)`) instead of the request's row, as every other
# standard does (dram/lambdas/preq.h): an access to another row of a bank
# with row 0 open is served as a hit, and an access to a bank opened at any
# other row precharges and activates it forever (the controller livelocks
# and its refresh queue overflows). The patch looks up the request's row.
# And its LPDDR5 keeps the data clock synced (WCK2CK) after a column
# command for m_timings["nCL"] + m_timings["nBL16"] clocks -- the indices of
# those timings in its table (2 and 1), not their values -- so a read
# needs a CAS sync command whenever it comes more than 3 clocks after the
# last (a write: 11), where CL + BL16 (CWL + BL16) was meant; the patch
# reads the values (node->m_spec->m_timing_vals), as its timing table does.
# And its request buffers take one request more than their size (the
# enqueue test is size() <= max_size): a controller of 32-entry queues
# holds 33, while its write watermarks count 32; the patch makes it <.
# Idempotent: a source folder already patched is left as it is.

set(_top "${CMAKE_CURRENT_SOURCE_DIR}/CMakeLists.txt")
set(_srcs "${CMAKE_CURRENT_SOURCE_DIR}/src/CMakeLists.txt")
set(_dram "${CMAKE_CURRENT_SOURCE_DIR}/src/dram/CMakeLists.txt")
set(_mark "# gemini: patched")

# (src/ has CRLF line ends: read without the CRs.)
file(READ "${_top}" top)
if(top MATCHES "${_mark}")
  return()
endif()
string(REPLACE "\r" "" top "${top}")

# Replaces the text from `begin` up to and including `end` in `var`; fails
# naming the marker when the text is not the pinned release's.
function(_replace_block var begin end replacement)
  string(FIND "${${var}}" "${begin}" b)
  if(b EQUAL -1)
    message(FATAL_ERROR "ramulator2 patch: \"${begin}\" not found (not commit be93be7?)")
  endif()
  string(SUBSTRING "${${var}}" ${b} -1 rest)
  string(FIND "${rest}" "${end}" e)
  if(e EQUAL -1)
    message(FATAL_ERROR "ramulator2 patch: \"${end}\" not found (not commit be93be7?)")
  endif()
  string(LENGTH "${end}" elen)
  math(EXPR after "${b} + ${e} + ${elen}")
  string(SUBSTRING "${${var}}" 0 ${b} head)
  string(SUBSTRING "${${var}}" ${after} -1 tail)
  set(${var} "${head}${replacement}${tail}" PARENT_SCOPE)
endfunction()

_replace_block(top "include(FetchContent)" "message(\"Done configuring argparse.\")"
               "find_package(yaml-cpp REQUIRED CONFIG)\nfind_package(spdlog REQUIRED CONFIG)")
_replace_block(top "add_library(ramulator SHARED)" "add_library(ramulator SHARED)"
               "add_library(ramulator STATIC)")
_replace_block(top "PUBLIC spdlog\n" "PUBLIC spdlog\n" "PUBLIC spdlog::spdlog\n")
_replace_block(top "add_executable(ramulator-exe)" "OUTPUT_NAME ramulator2\n)" "")
file(WRITE "${_top}" "${_mark}\n${top}")

file(READ "${_srcs}" srcs)
string(REPLACE "\r" "" srcs "${srcs}")
_replace_block(srcs "target_sources(\n  ramulator-exe" "main.cpp\n)" "")
file(WRITE "${_srcs}" "${srcs}")

# Removes each source line `entries` names from the CMakeLists.txt of
# src/`dir`; fails naming the entry when it is not there.
function(_drop dir)
  set(f "${CMAKE_CURRENT_SOURCE_DIR}/src/${dir}/CMakeLists.txt")
  file(READ "${f}" text)
  string(REPLACE "\r" "" text "${text}")
  foreach(e IN LISTS ARGN)
    string(REGEX MATCH "\n[ \t]*${e}[ \t]*\n" hit "${text}")
    if(NOT hit)
      message(FATAL_ERROR "ramulator2 patch: ${e} not in src/${dir} (not commit be93be7?)")
    endif()
    string(REPLACE "${hit}" "\n" text "${text}")
  endforeach()
  file(WRITE "${f}" "${text}")
endfunction()

file(READ "${_dram}" dram)
string(REPLACE "\r" "" dram "${dram}")
_replace_block(dram "impl/DDR4.cpp\n" "impl/DDR4.cpp\n" "impl/DDR4.cpp\n  impl/GDDR6.cpp\n")
file(WRITE "${_dram}" "${dram}")
set(_lp "${CMAKE_CURRENT_SOURCE_DIR}/src/dram/impl/LPDDR5.cpp")
file(READ "${_lp}" lp)
set(_bug "node->m_row_state.find(0) != node->m_row_state.end()")
string(FIND "${lp}" "${_bug}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "ramulator2 patch: LPDDR5's row-hit check not found (not commit be93be7?)")
endif()
string(REPLACE "${_bug}"
       "node->m_row_state.find(addr_vec[LPDDR5::m_levels[\"row\"]]) != node->m_row_state.end()"
       lp "${lp}")
set(_sync "m_timings\\[\"(nC[A-Z]*L|nBL16)\"\\]")
string(REGEX MATCHALL "${_sync}" syncs "${lp}")
list(LENGTH syncs n)
if(NOT n EQUAL 8)
  message(FATAL_ERROR "ramulator2 patch: LPDDR5's 8 sync timings not found, ${n} (not commit be93be7?)")
endif()
string(REGEX REPLACE "${_sync}" "node->m_spec->m_timing_vals(\"\\1\")" lp "${lp}")
file(WRITE "${_lp}" "${lp}")
set(_req "${CMAKE_CURRENT_SOURCE_DIR}/src/base/request.h")
file(READ "${_req}" req)
set(_full "if (buffer.size() <= max_size) {")
string(FIND "${req}" "${_full}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "ramulator2 patch: the request buffer's size test not found (not commit be93be7?)")
endif()
string(REPLACE "${_full}" "if (buffer.size() < max_size) {" req "${req}")
file(WRITE "${_req}" "${req}")
_drop(dram impl/DDR4-VRR.cpp impl/DDR4-RVRR.cpp impl/DDR5-VRR.cpp impl/DDR5-RVRR.cpp)
_drop(dram_controller impl/bh_dram_controller.cpp impl/prac_dram_controller.cpp
      impl/scheduler/bh_scheduler.cpp impl/scheduler/blocking_scheduler.cpp
      impl/scheduler/bliss_scheduler.cpp impl/scheduler/prac_scheduler.cpp
      impl/plugin/trace_recorder.cpp impl/plugin/para.cpp impl/plugin/graphene.cpp
      impl/plugin/oracle_rh.cpp impl/plugin/twice.cpp impl/plugin/hydra.cpp impl/plugin/rrs.cpp
      impl/plugin/aqua.cpp impl/plugin/rfm_manager.cpp impl/plugin/blockhammer/blockhammer.cpp
      impl/plugin/device_config/device_config.cpp impl/plugin/bliss/bliss.cpp
      impl/plugin/prac/prac.cpp)
_drop(memory_system impl/bh_DRAM_system.cpp)
_drop(frontend "impl/processor/simpleO3/simpleO3.cpp"
      "impl/processor/simpleO3/core.h[ \t]+impl/processor/simpleO3/core.cpp"
      "impl/processor/simpleO3/llc.h[ \t]+impl/processor/simpleO3/llc.cpp"
      "impl/processor/simpleO3/trace.h[ \t]+impl/processor/simpleO3/trace.cpp"
      "impl/processor/bhO3/bhO3.h[ \t]+impl/processor/bhO3/bhO3.cpp"
      "impl/processor/bhO3/bhcore.h[ \t]+impl/processor/bhO3/bhcore.cpp"
      "impl/processor/bhO3/bhllc.h[ \t]+impl/processor/bhO3/bhllc.cpp")
