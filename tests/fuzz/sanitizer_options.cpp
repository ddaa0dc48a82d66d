// The sanitizers' defaults in every program of the fuzz build (GEMINI_FUZZ:
// the harnesses, and with GEMINI_FUZZ_TESTS the test programs and the CLI;
// the root CMakeLists.txt adds this file to each), so that ctest, the
// fuzzers and a program run by hand agree without environment variables.
// ASAN_OPTIONS, LSAN_OPTIONS and UBSAN_OPTIONS still override them.

// LeakSanitizer is on (AddressSanitizer's default on Linux): a leak fails a
// test, and a fuzzer's input. Suppressed: what Ramulator 2 allocates
// (docs/fuzzing.md): it frees nothing it builds below its two top-level
// objects (sim/src/dram_ramulator2.cpp deletes those), so every memory system
// it builds would be reported. A leak of gemini's own objects has no frame of
// Ramulator's namespace where it was allocated, and is still reported.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:Ramulator::\n";
}

// A report says where: UndefinedBehaviorSanitizer prints the stack too.
extern "C" const char* __ubsan_default_options() {
  return "print_stacktrace=1";
}
