// Another simulator's code in a child process (child_probe.h).
#include "child_probe.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>

// LeakSanitizer's switch, where a sanitized build links it: the child's own
// allocations are not leaks (a simulator that stops its process with
// exit() leaves its objects behind, and the sanitizer's report would become
// the child's last words).
extern "C" void __lsan_disable() __attribute__((weak));

namespace gemini::sim {

ChildResult run_in_child(const std::function<int()>& body) {
  ChildResult r;
  int fds[2];
  if (pipe(fds) != 0) return r;
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return r;
  }
  if (pid == 0) {
    if (__lsan_disable) __lsan_disable();
    close(fds[0]);
    dup2(fds[1], 1);
    dup2(fds[1], 2);
    const int status = body();
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    _exit(status);
  }
  close(fds[1]);
  std::string out;
  char buf[512];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  r.signalled = WIFSIGNALED(status);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  const std::size_t nl = out.rfind('\n');
  r.last_line = nl == std::string::npos ? out : out.substr(nl + 1);
  return r;
}

std::string child_refusal(const std::string& what, const ChildResult& r) {
  return what + " rejected the configuration" +
         (r.last_line.empty() ? std::string(r.signalled ? " (it stopped on a signal)" : "")
                              : ": " + r.last_line);
}

}  // namespace gemini::sim
