#include "gemini/assembler/program_io.h"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "gemini/assembler/text.h"
#include "gemini/ir/json_writer.h"

namespace gemini::assembler {

std::string comment(const Instr& in, const LoweredCore& core) {
  if (in.workload == 0xffffffffu) return {};
  std::string s = "wl " + std::to_string(in.workload);
  if (auto it = core.layers.find(in.workload); it != core.layers.end())
    s.append(" (").append(it->second).append(")");
  switch (in.op) {
    case Opcode::dma_in:
      return s + ": load transfer " + std::to_string(in.get("transfer"));
    case Opcode::dma_out:
      return s + ": store transfer " + std::to_string(in.get("transfer"));
    case Opcode::noc_send:
      return s + ": send transfer " + std::to_string(in.get("transfer")) + " to core " +
             std::to_string(in.get("to"));
    case Opcode::wl0_load:
      return s + ": weights (transfer " + std::to_string(in.get("transfer")) + ") into WL0";
    case Opcode::signal:
      return s + (in.get("kind") == static_cast<std::int64_t>(TokenKind::credit)
                      ? ": L2 ready for transfer " + std::to_string(in.get("transfer")) +
                            " from core " + std::to_string(in.get("to"))
                      : ": transfer " + std::to_string(in.get("transfer")) +
                            " is in DRAM, tell core " + std::to_string(in.get("to")));
    case Opcode::wait_token:
      return s + ": until transfer " + std::to_string(in.get("transfer")) + " (" +
             (in.get("kind") == 0   ? "data"
              : in.get("kind") == 1 ? "credit"
                                    : "in DRAM") +
             ") from core " + std::to_string(in.get("from"));
    default:
      return s;
  }
}

std::int64_t bytes_moved(const Instr& in) {
  switch (in.op) {
    case Opcode::dma_in:
    case Opcode::dma_out:
    case Opcode::noc_send:
    case Opcode::wl0_load:
      return in.get("bytes");
    default:
      return 0;
  }
}

namespace {

// The files of one core; `error` set on failure.
struct CoreFiles {
  std::map<std::string_view, std::int64_t> per_op, per_engine;
  std::string error;
};

void write_core(const LoweredCore& c, const std::filesystem::path& dir, CoreFiles& out) {
  std::vector<std::uint8_t> bin;
  if (!encode_program(c.program, bin, out.error)) return;
  const std::string stem = "core_" + std::to_string(c.program.core_id);
  const std::string text =
      print_program(c.program, [&](const Instr& in) { return comment(in, c); });
  for (const Instr& in : c.program.instrs) {
    ++out.per_op[in.info().mnemonic];
    if (const std::int64_t moved = bytes_moved(in)) out.per_engine[to_string(in.queue)] += moved;
  }
  std::ofstream b(dir / (stem + ".bin"), std::ios::binary);
  b.write(reinterpret_cast<const char*>(bin.data()), static_cast<std::streamsize>(bin.size()));
  std::ofstream s(dir / (stem + ".s"), std::ios::binary);
  s.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!b || !s) out.error = "cannot write " + (dir / stem).string();
}

}  // namespace

bool write_program(const Program& p, const std::string& dir, std::string& error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    error = "cannot create " + dir + ": " + ec.message();
    return false;
  }
  // Cores are independent: two workers (the machines here have two cores).
  std::vector<CoreFiles> files(p.cores.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < p.cores.size(); i = next++)
      write_core(p.cores[i], dir, files[i]);
  };
  const unsigned n = std::max(1u, std::min(2u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < n; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  for (const CoreFiles& f : files)
    if (!f.error.empty()) {
      error = f.error;
      return false;
    }
  std::ofstream manifest(fs::path(dir) / "manifest.json", std::ios::binary);
  if (!manifest) {
    error = "cannot write " + dir + "/manifest.json";
    return false;
  }
  ir::JsonWriter j(manifest);
  j.begin_object();
  j.key("l2_bytes");
  j.value(p.l2_bytes);
  j.key("wl0_bytes");
  j.value(p.wl0_bytes);
  j.key("dram_bytes");
  j.value(p.dram_bytes);
  j.key("instruction_bytes");
  j.value(static_cast<std::int64_t>(kInstrBytes));
  j.key("cores");
  j.begin_array();
  for (std::size_t i = 0; i < p.cores.size(); ++i) {
    const LoweredCore& c = p.cores[i];
    j.begin_object();
    j.key("core_id");
    j.value(std::int64_t{c.program.core_id});
    j.key("binary");
    j.value("core_" + std::to_string(c.program.core_id) + ".bin");
    j.key("instructions");
    j.value(static_cast<std::int64_t>(c.program.instrs.size()));
    j.key("per_opcode");
    j.begin_object();
    for (const auto& [k, v] : files[i].per_op) {
      j.key(k);
      j.value(v);
    }
    j.end_object();
    j.key("bytes_per_engine");
    j.begin_object();
    for (const auto& [k, v] : files[i].per_engine) {
      j.key(k);
      j.value(v);
    }
    j.end_object();
    j.end_object();
  }
  j.end_array();
  j.end_object();
  j.flush();
  return static_cast<bool>(manifest);
}

}  // namespace gemini::assembler
