// libsystemc defines its own main() that calls sc_main(); gemini's programs
// have their own main() and drive the kernel through simulate(), but an
// executable that links libsystemc still needs the symbol. It lives in this
// object alone, which every executable linking gemini::sim pulls in (the
// --undefined=sc_main link option in sim/CMakeLists.txt): whether libsystemc
// is linked does not depend on which other objects a program uses, nor on
// --as-needed (off under the sanitizers). It is never called. SystemC
// declares it extern "C" (sysc/kernel/sc_externs.h).
#include <cstdio>

extern "C" int sc_main(int /*argc*/, char* /*argv*/[]) {
  std::fprintf(stderr, "gemini: internal error: SystemC's main() is not gemini's entry point\n");
  return 2;
}
