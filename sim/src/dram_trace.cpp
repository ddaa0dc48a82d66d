#include "gemini/sim/dram_trace.h"

#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <unordered_map>

namespace gemini::sim {

bool write_dram_trace(const std::string& path, const std::vector<DramTraceRecord>& records,
                      std::int32_t ports, std::int64_t access_bytes, std::string& error) {
  std::ofstream all(path);
  if (!all) {
    error = path + ": cannot be written";
    return false;
  }
  all << "# gemini DRAM trace: time_ps port R|W address bytes\n";
  char line[96];
  for (const DramTraceRecord& r : records) {
    std::snprintf(line, sizeof line, "%" PRId64 " %d %c 0x%" PRIx64 " %" PRId64 "\n", r.arrival,
                  r.port, r.write ? 'W' : 'R', r.addr, r.bytes);
    all << line;
  }
  for (std::int32_t p = 0; p < ports; ++p) {
    const std::string name = path + ".port" + std::to_string(p) + ".trace";
    std::ofstream out(name);
    if (!out) {
      error = name + ": cannot be written";
      return false;
    }
    for (const DramTraceRecord& r : records) {
      if (r.port != p) continue;
      const std::uint64_t first = r.addr / static_cast<std::uint64_t>(access_bytes);
      const std::uint64_t last =
          (r.addr + static_cast<std::uint64_t>(r.bytes) - 1) / static_cast<std::uint64_t>(access_bytes);
      for (std::uint64_t a = first; a <= last; ++a) {
        std::snprintf(line, sizeof line, "%s 0x%" PRIx64 "\n", r.write ? "ST" : "LD",
                      a * static_cast<std::uint64_t>(access_bytes));
        out << line;
      }
    }
    if (!out) {
      error = name + ": cannot be written";
      return false;
    }
  }
  all.flush();
  if (!all) {
    error = path + ": cannot be written";
    return false;
  }
  return true;
}

bool read_dram_trace(const std::string& path, std::vector<DramTraceRecord>& records,
                     std::string& error) {
  std::ifstream in(path);
  if (!in) {
    error = path + ": cannot be read";
    return false;
  }
  std::string line;
  for (std::int64_t n = 1; std::getline(in, line); ++n) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    DramTraceRecord r;
    std::string op, addr;
    if (!(s >> r.arrival >> r.port >> op >> addr >> r.bytes) || (op != "R" && op != "W") ||
        addr.rfind("0x", 0) != 0 || r.arrival < 0 || r.port < 0 || r.bytes <= 0) {
      error = path + ":" + std::to_string(n) +
              ": expected `time_ps port R|W 0xaddress bytes`, got \"" + line + "\"";
      return false;
    }
    try {
      std::size_t used = 0;
      r.addr = std::stoull(addr.substr(2), &used, 16);
      if (used + 2 != addr.size()) throw std::invalid_argument(addr);
    } catch (const std::exception&) {
      error = path + ":" + std::to_string(n) + ": not a hexadecimal address: " + addr;
      return false;
    }
    if (!records.empty() && r.arrival < records.back().arrival) {
      error = path + ":" + std::to_string(n) + ": out of arrival order";
      return false;
    }
    r.write = op == "W";
    records.push_back(r);
  }
  return true;
}

namespace {

struct ReplaySink : DramSink {
  std::vector<ReplayedRequest>* out;
  void progress(std::uint64_t tag, std::int64_t done, Tick t) override {
    ReplayedRequest& q = (*out)[static_cast<std::size_t>(tag)];
    if (done >= q.bytes) q.done = t;
  }
};

}  // namespace

std::vector<ReplayedRequest> replay_dram(const std::vector<DramTraceRecord>& records,
                                         DramModel& model, std::int64_t chunk_bytes) {
  std::vector<ReplayedRequest> out(records.size());
  ReplaySink sink;
  sink.out = &out;
  std::size_t i = 0;
  Tick next = kNever;
  while (i < records.size() || next != kNever) {
    const Tick arrival = i < records.size() ? records[i].arrival : kNever;
    const Tick now = std::min(next, arrival);
    for (; i < records.size() && records[i].arrival == now; ++i) {
      const DramTraceRecord& r = records[i];
      out[i] = {r.arrival, 0, r.write, r.bytes};
      model.enqueue({static_cast<std::uint64_t>(i), r.write, r.addr, r.bytes, r.arrival,
                     r.write ? 0 : chunk_bytes});
    }
    next = model.advance(now, sink);
  }
  return out;
}

}  // namespace gemini::sim
