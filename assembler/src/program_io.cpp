#include "gemini/assembler/program_io.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
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

char* put(char* p, std::string_view s) {
  std::memcpy(p, s.data(), s.size());
  return p + s.size();
}

// The comment of `in` whose head -- "wl <id> (<layer>)" -- is given, as a
// CommentWriter writes it.
std::size_t write_comment(char* at, std::size_t room, const Instr& in, std::string_view head) {
  if (in.workload == 0xffffffffu) return 0;
  // The longest: the head and a wait's ": until transfer <id> (in DRAM)
  // from core <id>" (under 64 bytes of text besides the numbers).
  const std::size_t most = 64 + 2 * kIntTextBytes + head.size();
  if (most > room) return most;
  char* p = put(at, head);
  auto done = [&] { return static_cast<std::size_t>(p - at); };
  switch (in.op) {
    case Opcode::dma_in: {
      static const Field& transfer = field_of(Opcode::dma_in, "transfer");
      static const Field& members = field_of(Opcode::dma_in, "members");
      p = write_int(put(p, ": load transfer "), in.value(transfer));
      if (in.value(members) >= 2)
        p = put(write_int(put(p, ", read once for "), in.value(members)), " cores (multicast)");
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

}  // namespace

CommentWriter listing_comments(const LoweredCore& core) {
  // Instructions of one workload come in runs: the head of their comments
  // is made once a run.
  return [&core, workload = std::uint32_t{0xffffffffu}, head = std::string()](
             char* at, std::size_t room, const Instr& in) mutable {
    if (in.workload == 0xffffffffu) return std::size_t{0};
    if (in.workload != workload) {
      workload = in.workload;
      head = "wl " + std::to_string(workload);
      if (auto it = core.layers.find(workload); it != core.layers.end())
        head += " (" + it->second + ")";
    }
    return write_comment(at, room, in, head);
  };
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

std::string stem_of(std::int32_t core_id) { return "core_" + std::to_string(core_id); }

// The files of a program with these cores (each once): core_<id>.bin and
// .s, and the manifest.
std::vector<std::string> file_names(std::vector<std::int32_t> core_ids) {
  std::sort(core_ids.begin(), core_ids.end());
  core_ids.erase(std::unique(core_ids.begin(), core_ids.end()), core_ids.end());
  std::vector<std::string> names;
  for (std::int32_t id : core_ids) {
    names.push_back(stem_of(id) + ".bin");
    names.push_back(stem_of(id) + ".s");
  }
  names.emplace_back("manifest.json");
  return names;
}

std::vector<std::int32_t> core_ids_of(const Program& p) {
  std::vector<std::int32_t> ids;
  ids.reserve(p.cores.size());
  for (const LoweredCore& c : p.cores) ids.push_back(c.program.core_id);
  return ids;
}

// POSIX files: a listing goes out in pieces of a quarter MB, and nothing is
// gained from a stream's buffer in between.
int open_for_writing(const std::filesystem::path& path) {
  return ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
}

bool write_all(int fd, const void* data, std::size_t n) {
  const auto* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

// Reserves the file's first `bytes` up front where the file system can
// (ext4 then allocates the blocks at once instead of write by write); a
// hint only. The file's size becomes `bytes`: a writer that may write less
// cuts it afterwards.
void reserve(int fd, std::size_t bytes) {
#ifdef __linux__
  if (bytes > 0) (void)::fallocate(fd, 0, 0, static_cast<off_t>(bytes));
#else
  (void)fd;
  (void)bytes;
#endif
}

// Writes a whole file; false on any failure (the file is closed either way).
template <typename Body>
bool write_file(const std::filesystem::path& path, Body&& body) {
  const int fd = open_for_writing(path);
  if (fd < 0) return false;
  const bool ok = body(fd);
  return ::close(fd) == 0 && ok;
}

void write_core(const LoweredCore& c, const std::filesystem::path& dir, CoreFiles& out) {
  std::array<std::uint8_t, kFileHeaderBytes> header{};
  std::span<const std::uint8_t> body;
  if (!encode_program_view(c.program, header, body, out.error)) return;
  const std::string stem = stem_of(c.program.core_id);
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
  const bool bin = write_file(dir / partial(stem + ".bin"), [&](int fd) {
    reserve(fd, header.size() + body.size());
    return write_all(fd, header.data(), header.size()) && write_all(fd, body.data(), body.size());
  });
  if (!bin) {
    out.error = "cannot write " + (dir / (stem + ".bin")).string() + ": " + std::strerror(errno);
    return;
  }
  // The listing goes out in pieces as it is printed (tens of MB for a large
  // program, never in memory at once).
  const bool text = write_file(dir / partial(stem + ".s"), [&](int fd) {
    // A listing line is about 135 bytes on the corpus: its blocks are
    // reserved for 160 a line, and the file cut to what was written.
    std::size_t written = 0;
    reserve(fd, c.program.instrs.size() * 160);
    const bool ok =
        print_program_chunked(c.program, listing_comments(c), [&](std::string_view piece) {
          written += piece.size();
          return write_all(fd, piece.data(), piece.size());
        });
    return ok && ::ftruncate(fd, static_cast<off_t>(written)) == 0;
  });
  if (!text)
    out.error = "cannot write " + (dir / (stem + ".s")).string() + ": " + std::strerror(errno);
}

void remove_partial(const std::string& dir, const std::string& name) {
  std::error_code ec;
  std::filesystem::remove(std::filesystem::path(dir) / partial(name), ec);
}

}  // namespace

StagedProgram::StagedProgram(StagedProgram&& o) noexcept
    : dir_(std::move(o.dir_)), names_(std::move(o.names_)), created_(std::move(o.created_)) {
  o.names_.clear();
  o.created_.clear();
}

StagedProgram::~StagedProgram() {
  for (const std::string& n : names_) remove_partial(dir_, n);
  // Directories this staging created, innermost first, if they are empty.
  std::error_code ec;
  for (const std::string& d : created_) std::filesystem::remove(d, ec);
}

std::optional<StagedProgram> StagedProgram::create(const std::string& dir,
                                                   const std::vector<std::int32_t>& core_ids,
                                                   std::string& error) {
  namespace fs = std::filesystem;
  StagedProgram s;
  s.dir_ = dir;
  // The directories that do not exist yet, innermost first: removed again
  // if nothing is committed.
  std::error_code ec;
  for (fs::path d = fs::absolute(dir, ec); !d.empty() && !fs::exists(d, ec); d = d.parent_path()) {
    s.created_.push_back(d.string());
    if (d == d.parent_path()) break;
  }
  fs::create_directories(dir, ec);
  if (ec) {
    error = "cannot create " + dir + ": " + ec.message();
    return std::nullopt;
  }
  s.names_ = file_names(core_ids);
  for (const std::string& n : s.names_) {
    const int fd = open_for_writing(fs::path(dir) / partial(n));
    if (fd < 0) {
      error = "cannot write " + (fs::path(dir) / n).string() + ": " + std::strerror(errno);
      return std::nullopt;  // what was created is removed
    }
    ::close(fd);
  }
  return s;
}

namespace {

// manifest.json's program-wide figures: sizes, geometry provenance and the
// multicast counts.
void manifest_totals(ir::JsonWriter& j, const Program& p) {
  j.key("l2_bytes");
  j.value(p.l2_bytes);
  j.key("wl0_bytes");
  j.value(p.wl0_bytes);
  j.key("dram_bytes");
  j.value(p.dram_bytes);
  j.key("instruction_bytes");
  j.value(static_cast<std::int64_t>(kInstrBytes));
  // The layer geometry's provenance: exact (a model) or inferred from the IR.
  j.key("exact_geometry");
  j.value(p.exact_geometry);
  // DRAM out entries that several loads take: multicast reads and the loads
  // read on their own, by reason (docs/isa.md, "DRAM multicast").
  j.key("dram_multicast");
  j.begin_object();
  j.key("groups");
  j.value(p.multicast.groups);
  j.key("members");
  j.value(p.multicast.members);
  j.key("own_reads_multicast_off");
  j.value(p.multicast.off);
  j.key("own_reads_reloaded");
  j.value(p.multicast.reloads);
  j.end_object();
  // Sends of one ofmap to several cores that go as one NoC multicast.
  j.key("noc_multicast");
  j.begin_object();
  j.key("groups");
  j.value(p.multicast.noc_groups);
  j.key("sends");
  j.value(p.multicast.noc_sends);
  j.end_object();
}

// The data segment: the DRAM tensors the DMAs address (docs/isa.md).
void manifest_dram_tensors(ir::JsonWriter& j, const Program& p) {
  j.key("dram_tensors");
  j.begin_array();
  for (const DramRegion& g : p.dram_regions) {
    j.begin_object();
    j.key("name");
    j.value(std::string_view(g.name));
    j.key("kind");
    j.value(std::string_view(to_string(g.kind)));
    j.key("layer");
    j.value(std::string_view(g.layer));
    if (g.tensor_id >= 0) {
      j.key("tensor_id");
      j.value(g.tensor_id);
    }
    j.key("base");
    j.value(g.base);
    j.key("bytes");
    j.value(g.bytes);
    j.key("shape");
    j.begin_array();
    for (int d = 0; d < 4; ++d) j.value(g.layout.extent(d));
    j.end_array();
    j.end_object();
  }
  j.end_array();
}

// One entry per core: its binary, instruction count, ring and sizes.
void manifest_cores(ir::JsonWriter& j, const Program& p, const std::vector<CoreFiles>& files) {
  j.key("cores");
  j.begin_array();
  for (std::size_t i = 0; i < p.cores.size(); ++i) {
    const LoweredCore& c = p.cores[i];
    j.begin_object();
    j.key("core_id");
    j.value(std::int64_t{c.program.core_id});
    j.key("binary");
    j.value(stem_of(c.program.core_id) + ".bin");
    j.key("instructions");
    j.value(static_cast<std::int64_t>(c.program.instrs.size()));
    j.key("l2_ring");
    j.begin_array();
    for (const ir::RingRegion& r : c.ring) {
      j.begin_array();
      j.value(r.begin);
      j.value(r.end);
      j.end_array();
    }
    j.end_array();
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
}

void write_manifest(ir::JsonWriter& j, const Program& p, const std::vector<CoreFiles>& files) {
  j.begin_object();
  manifest_totals(j, p);
  manifest_dram_tensors(j, p);
  manifest_cores(j, p, files);
  j.end_object();
}

}  // namespace

bool StagedProgram::write(const Program& p, std::string& error) {
  namespace fs = std::filesystem;
  // Files created for cores the program does not have go again; the
  // program's cores not created yet are created as they are written.
  std::vector<std::string> names = file_names(core_ids_of(p));
  for (const std::string& n : names_)
    if (std::find(names.begin(), names.end(), n) == names.end()) remove_partial(dir_, n);
  names_ = std::move(names);
  // Cores are independent.
  std::vector<CoreFiles> files(p.cores.size());
  ir::parallel_for(p.cores.size(), [&](std::size_t i) { write_core(p.cores[i], dir_, files[i]); });
  for (const CoreFiles& f : files)
    if (!f.error.empty()) {
      error = f.error;
      return false;
    }
  std::ofstream manifest(fs::path(dir_) / partial("manifest.json"), std::ios::binary);
  if (!manifest) {
    error = "cannot write " + dir_ + "/manifest.json";
    return false;
  }
  ir::JsonWriter j(manifest);
  write_manifest(j, p, files);
  j.flush();
  manifest.close();
  if (!manifest) {
    error = "cannot write " + dir_ + "/manifest.json";
    return false;
  }
  return true;
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
  created_.clear();
  return true;
}

std::optional<StagedProgram> stage_program(const Program& p, const std::string& dir,
                                           std::string& error) {
  auto staged = StagedProgram::create(dir, core_ids_of(p), error);
  if (!staged || !staged->write(p, error)) return std::nullopt;
  return staged;
}

bool write_program(const Program& p, const std::string& dir, std::string& error) {
  auto staged = stage_program(p, dir, error);
  return staged && staged->commit(error);
}

}  // namespace gemini::assembler
