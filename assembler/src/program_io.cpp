#include "gemini/assembler/program_io.h"

#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "gemini/assembler/text.h"
#include "gemini/ir/json_writer.h"
#include "gemini/ir/parallel.h"

namespace gemini::assembler {

namespace {
// A field's table entry, found once per (opcode, name) by the callers' statics.
const Field& field_of(Opcode op, std::string_view name) { return *field_slot(op, name).field; }
}  // namespace

namespace {
char* put(char* p, std::string_view s) {
  std::memcpy(p, s.data(), s.size());
  return p + s.size();
}
}  // namespace

std::size_t write_comment(char* at, std::size_t room, const Instr& in, const std::string* layer) {
  if (in.workload == 0xffffffffu) return 0;
  // The longest: "wl <id> (<layer>)" and a wait's ": until transfer <id>
  // (in DRAM) from core <id>" (under 64 bytes of text besides the numbers).
  const std::size_t most = 64 + 3 * kIntTextBytes + (layer ? layer->size() : 0);
  if (most > room) return most;
  char* p = write_int(put(at, "wl "), in.workload);
  if (layer) p = put(put(put(p, " ("), *layer), ")");
  auto done = [&] { return static_cast<std::size_t>(p - at); };
  switch (in.op) {
    case Opcode::dma_in: {
      static const Field& transfer = field_of(Opcode::dma_in, "transfer");
      p = write_int(put(p, ": load transfer "), in.value(transfer));
      return done();
    }
    case Opcode::dma_out: {
      static const Field& transfer = field_of(Opcode::dma_out, "transfer");
      p = write_int(put(p, ": store transfer "), in.value(transfer));
      return done();
    }
    case Opcode::noc_send: {
      static const Field& transfer = field_of(Opcode::noc_send, "transfer");
      static const Field& to = field_of(Opcode::noc_send, "to");
      p = write_int(put(p, ": send transfer "), in.value(transfer));
      p = write_int(put(p, " to core "), in.value(to));
      return done();
    }
    case Opcode::wl0_load: {
      static const Field& transfer = field_of(Opcode::wl0_load, "transfer");
      p = put(write_int(put(p, ": weights (transfer "), in.value(transfer)), ") into WL0");
      return done();
    }
    case Opcode::signal: {
      static const Field& kind = field_of(Opcode::signal, "kind");
      static const Field& transfer = field_of(Opcode::signal, "transfer");
      static const Field& to = field_of(Opcode::signal, "to");
      if (in.value(kind) == static_cast<std::int64_t>(TokenKind::credit)) {
        p = write_int(put(p, ": L2 ready for transfer "), in.value(transfer));
        p = put(p, " from core ");
      } else {
        p = write_int(put(p, ": transfer "), in.value(transfer));
        p = put(p, " is in DRAM, tell core ");
      }
      p = write_int(p, in.value(to));
      return done();
    }
    case Opcode::wait_token: {
      static const Field& kind_field = field_of(Opcode::wait_token, "kind");
      static const Field& transfer = field_of(Opcode::wait_token, "transfer");
      static const Field& from = field_of(Opcode::wait_token, "from");
      p = write_int(put(p, ": until transfer "), in.value(transfer));
      const std::int64_t kind = in.value(kind_field);
      p = put(p, kind == 0 ? " (data)" : kind == 1 ? " (credit)" : " (in DRAM)");
      p = write_int(put(p, " from core "), in.value(from));
      return done();
    }
    default:
      return done();
  }
}

std::size_t write_comment(char* at, std::size_t room, const Instr& in, const LoweredCore& core) {
  auto it = core.layers.find(in.workload);
  return write_comment(at, room, in, it == core.layers.end() ? nullptr : &it->second);
}

std::int64_t bytes_moved(const Instr& in) {
  // The "bytes" field of each opcode that moves data, found once.
  static const auto bytes = [] {
    std::array<const Field*, 256> t{};
    for (Opcode op : {Opcode::dma_in, Opcode::dma_out, Opcode::noc_send, Opcode::wl0_load})
      t[static_cast<std::size_t>(op)] = &field_of(op, "bytes");
    return t;
  }();
  const Field* f = bytes[static_cast<std::size_t>(in.op)];
  return f ? in.value(*f) : 0;
}

namespace {

// The files of one core; `error` set on failure.
struct CoreFiles {
  std::map<std::string_view, std::int64_t> per_op, per_engine;
  std::string error;
};

std::string partial(const std::string& name) { return "." + name + ".partial"; }

// Writes the pieces one after the other.
bool write_file(const std::filesystem::path& path, std::span<const std::uint8_t> first,
                std::span<const std::uint8_t> second = {}) {
  std::ofstream f(path, std::ios::binary);
  for (auto piece : {first, second})
    f.write(reinterpret_cast<const char*>(piece.data()),
            static_cast<std::streamsize>(piece.size()));
  f.close();
  return static_cast<bool>(f);
}

void write_core(const LoweredCore& c, const std::filesystem::path& dir, CoreFiles& out) {
  std::array<std::uint8_t, kFileHeaderBytes> header{};
  std::span<const std::uint8_t> body;
  if (!encode_program_view(c.program, header, body, out.error)) return;
  const std::string stem = "core_" + std::to_string(c.program.core_id);
  std::array<std::int64_t, 256> ops{};
  std::array<std::int64_t, kEngines> moved{};
  for (const Instr& in : c.program.instrs) {
    ++ops[static_cast<std::size_t>(in.op)];
    moved[static_cast<std::size_t>(in.queue)] += bytes_moved(in);
  }
  for (std::size_t op = 0; op < ops.size(); ++op)
    if (ops[op] != 0) out.per_op[op_info(static_cast<Opcode>(op))->mnemonic] = ops[op];
  for (std::size_t e = 0; e < kEngines; ++e)
    if (moved[e] != 0) out.per_engine[to_string(static_cast<Engine>(e))] = moved[e];
  if (!write_file(dir / partial(stem + ".bin"), {header.data(), header.size()}, body)) {
    out.error = "cannot write " + (dir / (stem + ".bin")).string();
    return;
  }
  // The listing goes out in pieces as it is printed (tens of MB for a large
  // program, never in memory at once). Instructions of one workload come in
  // runs: its layer is looked up once a run.
  std::uint32_t workload = 0xffffffffu;
  const std::string* layer = nullptr;
  std::ofstream f(dir / partial(stem + ".s"), std::ios::binary);
  const bool printed = f && print_program_chunked(
                                c.program,
                                [&](char* at, std::size_t room, const Instr& in) {
                                  if (in.workload != workload) {
                                    workload = in.workload;
                                    auto it = c.layers.find(workload);
                                    layer = it == c.layers.end() ? nullptr : &it->second;
                                  }
                                  return write_comment(at, room, in, layer);
                                },
                                [&](std::string_view piece) {
                                  f.write(piece.data(), static_cast<std::streamsize>(piece.size()));
                                  return static_cast<bool>(f);
                                });
  f.close();
  if (!printed || !f) out.error = "cannot write " + (dir / (stem + ".s")).string();
}

}  // namespace

StagedProgram::StagedProgram(std::string dir, std::vector<std::string> names)
    : dir_(std::move(dir)), names_(std::move(names)) {}

StagedProgram::StagedProgram(StagedProgram&& o) noexcept
    : dir_(std::move(o.dir_)), names_(std::move(o.names_)) {
  o.names_.clear();
}

StagedProgram::~StagedProgram() {
  std::error_code ec;
  for (const std::string& n : names_)
    std::filesystem::remove(std::filesystem::path(dir_) / partial(n), ec);
}

bool StagedProgram::commit(std::string& error) {
  namespace fs = std::filesystem;
  for (const std::string& n : names_) {
    std::error_code ec;
    fs::rename(fs::path(dir_) / partial(n), fs::path(dir_) / n, ec);
    if (ec) {
      error = "cannot write " + (fs::path(dir_) / n).string() + ": " + ec.message();
      return false;  // the rest are removed by the destructor
    }
  }
  names_.clear();
  return true;
}

std::optional<StagedProgram> stage_program(const Program& p, const std::string& dir,
                                           std::string& error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    error = "cannot create " + dir + ": " + ec.message();
    return std::nullopt;
  }
  std::vector<std::string> names;
  for (const LoweredCore& c : p.cores) {
    const std::string stem = "core_" + std::to_string(c.program.core_id);
    names.push_back(stem + ".bin");
    names.push_back(stem + ".s");
  }
  names.emplace_back("manifest.json");
  // From here on, whatever was written is removed unless committed.
  StagedProgram staged(dir, names);
  // Cores are independent.
  std::vector<CoreFiles> files(p.cores.size());
  ir::parallel_for(p.cores.size(), [&](std::size_t i) { write_core(p.cores[i], dir, files[i]); });
  for (const CoreFiles& f : files)
    if (!f.error.empty()) {
      error = f.error;
      return std::nullopt;
    }
  std::ofstream manifest(fs::path(dir) / partial("manifest.json"), std::ios::binary);
  if (!manifest) {
    error = "cannot write " + dir + "/manifest.json";
    return std::nullopt;
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
  manifest.close();
  if (!manifest) {
    error = "cannot write " + dir + "/manifest.json";
    return std::nullopt;
  }
  return staged;
}

bool write_program(const Program& p, const std::string& dir, std::string& error) {
  auto staged = stage_program(p, dir, error);
  return staged && staged->commit(error);
}

}  // namespace gemini::assembler
