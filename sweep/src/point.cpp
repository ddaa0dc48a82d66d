#include "gemini/sweep/point.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "json_io.h"

extern char** environ;

namespace gemini::sweep {
namespace json = boost::json;
namespace fs = std::filesystem;

std::string point_file(const std::string& dir, const std::string& id) {
  return (fs::path(dir) / "points" / (id + ".json")).string();
}
std::string log_file(const std::string& dir, const std::string& id) {
  return (fs::path(dir) / "logs" / (id + ".log")).string();
}

namespace {

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

std::string now_iso() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// The last non-empty line of a log: what a failed run said last.
std::string last_line(const std::string& path) {
  std::string text, error;
  if (!detail::read_text(path, text, error)) return "";
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
    text.pop_back();
  const std::size_t nl = text.rfind('\n');
  std::string line = nl == std::string::npos ? text : text.substr(nl + 1);
  // A progress bar's carriage returns: keep what was printed last.
  if (const std::size_t cr = line.rfind('\r'); cr != std::string::npos) line = line.substr(cr + 1);
  if (line.size() > 400) line = line.substr(0, 400) + "...";
  return line;
}

json::object to_json(const Point& p, const PointRecord& r, const std::vector<std::string>& argv,
                     const std::string& started) {
  json::object o = identity(p);
  o["status"] = r.ok ? "ok" : "failed";
  o["exit_code"] = r.exit_code >= 0 ? json::value(r.exit_code) : json::value();
  o["signal"] = r.signal ? json::value(r.signal) : json::value();
  o["message"] = r.message;
  json::array cmd;
  for (const std::string& a : argv) cmd.emplace_back(a);
  o["command"] = std::move(cmd);
  json::object host;
  host["name"] = r.hostname;
  host["started"] = started;
  host["seconds"] = r.host_seconds;
  host["cpu_seconds"] = r.cpu_seconds;
  host["peak_rss_mb"] = r.peak_rss_mb;
  o["host"] = std::move(host);
  o["report"] = r.report;
  return o;
}

}  // namespace

std::optional<PointRecord> run_point(const std::string& dir, const Point& point,
                                     const std::string& gemini, const RunHooks& hooks,
                                     std::string& error) {
  std::error_code ec;
  fs::create_directories(fs::path(dir) / "points", ec);
  fs::create_directories(fs::path(dir) / "logs", ec);
  const std::string host = host_name();
  const std::string report =
      (fs::path(dir) / "points" /
       (point.id + ".report." + host + "." + std::to_string(getpid()) + ".tmp"))
          .string();
  const std::string log = log_file(dir, point.id);
  std::vector<std::string> argv{gemini};
  for (std::string& a : point.sim_args(dir, report)) argv.push_back(std::move(a));
  std::vector<char*> cargv;
  cargv.reserve(argv.size() + 1);
  for (std::string& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  const std::string started = now_iso();
  const auto t0 = std::chrono::steady_clock::now();
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, gemini.c_str(), &fa, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    error = "cannot run " + gemini + ": " + std::strerror(rc);
    return std::nullopt;
  }
  if (hooks.on_child) hooks.on_child(pid);
  int status = 0;
  rusage ru{};
  while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {
  }
  if (hooks.on_child) hooks.on_child(-1);
  PointRecord r;
  r.id = point.id;
  r.hostname = host;
  r.host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.cpu_seconds = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                  (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
  r.peak_rss_mb = static_cast<double>(ru.ru_maxrss) / 1024.0;
  if (hooks.interrupted && hooks.interrupted->load()) {
    std::remove(report.c_str());
    error = "interrupted";
    return std::nullopt;
  }
  if (WIFEXITED(status)) {
    r.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r.signal = WTERMSIG(status);
  }
  // A run that fails after simulating (a deadlock, a functional mismatch)
  // still wrote its report: it is kept for the functional verdict.
  std::string read_error;
  const bool have_report =
      fs::exists(report, ec) && detail::read_json(report, r.report, read_error);
  if (r.exit_code == 0) {
    r.ok = have_report;
    if (!have_report) r.message = "gemini sim exited 0 but its report is unreadable: " + read_error;
  } else {
    const std::string said = last_line(log);
    r.message = r.signal ? "killed by signal " + std::to_string(r.signal) + " (" +
                               strsignal(r.signal) + ")" + (said.empty() ? "" : ": " + said)
                : said.empty() ? "exit status " + std::to_string(r.exit_code)
                               : said;
  }
  std::remove(report.c_str());
  if (fs::file_size(log, ec) == 0 && !ec) fs::remove(log, ec);
  if (!detail::write_atomic(point_file(dir, point.id),
                            detail::pretty(to_json(point, r, argv, started)), error))
    return std::nullopt;
  return r;
}

std::optional<PointRecord> read_point(const std::string& dir, const std::string& id) {
  json::value v;
  std::string error;
  const std::string path = point_file(dir, id);
  std::error_code ec;
  if (!fs::exists(path, ec) || !detail::read_json(path, v, error) || !v.is_object())
    return std::nullopt;
  const json::object& o = v.get_object();
  PointRecord r;
  r.id = id;
  auto str = [&](const json::object& x, const char* k) {
    const json::value* e = x.if_contains(k);
    return e && e->is_string() ? std::string(e->get_string()) : std::string();
  };
  auto num = [&](const json::object& x, const char* k) {
    const json::value* e = x.if_contains(k);
    return e && e->is_number() ? e->to_number<double>() : 0.0;
  };
  if (str(o, "id") != id) return std::nullopt;
  r.ok = str(o, "status") == "ok";
  const json::value* ex = o.if_contains("exit_code");
  r.exit_code = ex && ex->is_int64() ? static_cast<int>(ex->get_int64()) : -1;
  r.signal = static_cast<int>(num(o, "signal"));
  r.message = str(o, "message");
  if (const json::value* h = o.if_contains("host"); h && h->is_object()) {
    r.hostname = str(h->get_object(), "name");
    r.host_seconds = num(h->get_object(), "seconds");
    r.cpu_seconds = num(h->get_object(), "cpu_seconds");
    r.peak_rss_mb = num(h->get_object(), "peak_rss_mb");
  }
  if (const json::value* rep = o.if_contains("report")) r.report = *rep;
  if (r.ok && !r.report.is_object()) return std::nullopt;
  return r;
}

}  // namespace gemini::sweep
