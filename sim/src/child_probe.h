#pragma once
// Running another simulator's code where it cannot take gemini down: BookSim 2
// and Ramulator 2 stop their process (exit, an assertion, a signal) on some
// configurations instead of reporting them. A configuration they have not
// seen is therefore first built, and run a little, in a child process; what
// the child printed last is the refusal when it does not come back.

#include <functional>
#include <string>

namespace gemini::sim {

struct ChildResult {
  bool ok = true;          // the child exited 0 (or none could be made)
  bool signalled = false;  // a signal ended it
  std::string last_line;   // the last line it printed (stdout and stderr)
};

// Runs `body` in a forked child with its stdout and stderr captured; the
// child exits with body()'s value. When no child can be made (pipe or fork
// fails) nothing runs and the result is ok: the caller's own checks stand.
ChildResult run_in_child(const std::function<int()>& body);

// "<what> rejected the configuration: <its last line>", or "... (it
// stopped on a signal)" when it printed nothing.
std::string child_refusal(const std::string& what, const ChildResult& r);

}  // namespace gemini::sim
