// gemini asm / disasm / as: IR -> per-core programs, binary -> text, text -> binary.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "commands.h"
#include "common.h"
#include "gemini/assembler/program_io.h"
#include "gemini/assembler/text.h"
#include "gemini/assembler/verifier.h"
#include "pipeline.h"
#include "semantics.h"

namespace gemini::cli {
namespace {

struct AsmOptions {
  std::string in, out, hw, dialect, file, allocation;
  bool no_verify = false;
  bool quiet = false;
  SemanticsOptions semantics;
};

std::optional<std::vector<std::uint8_t>> read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return std::nullopt;
  return std::vector<std::uint8_t>((std::istreambuf_iterator<char>(f)),
                                   std::istreambuf_iterator<char>());
}

// The directories that writing into `dir` creates: it and its missing
// parents, outermost first.
std::vector<std::string> missing_dirs(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (std::filesystem::path p = std::filesystem::path(dir).lexically_normal();
       !p.empty() && !std::filesystem::exists(p, ec); p = p.parent_path()) {
    out.insert(out.begin(), p.string());
    if (p == p.parent_path()) break;
  }
  return out;
}

int run_asm(const AsmOptions& opt) {
  auto hw = load_hw(opt.hw);
  if (!hw) return kExitUnreadable;
  const std::vector<std::string> created = missing_dirs(opt.out);
  int status = kExitOk;
  std::unique_ptr<Semantics> semantics;
  if (!opt.semantics.model.empty()) {
    semantics = load_semantics(opt.semantics, status);
    if (!semantics) return status;
  }
  // The output files are created while the input is validated, on the
  // core validation leaves idle (program_io.h says why that pays); if the
  // input turns out bad, they are removed again.
  std::optional<assembler::StagedProgram> staged;
  std::string err;
  std::jthread creating;  // joined before `staged` is read or destroyed
  auto create_files = [&](const ir::Model& m) {
    std::vector<std::int32_t> ids;
    ids.reserve(m.cores.size());
    for (const ir::Core& c : m.cores) ids.push_back(c.core_id);
    creating = std::jthread([&, ids = std::move(ids)] {
      if (auto s = assembler::StagedProgram::create(opt.out, ids, err))
        staged.emplace(std::move(*s));
    });
  };
  ir::ImportOptions io;
  io.allocation = ir::l2_allocation_from(opt.allocation).value_or(ir::L2Allocation::prefetch);
  auto lowered = load_and_lower(opt.in, *hw, opt.dialect, "not assembled", status, nullptr,
                                create_files, semantics.get(), opt.quiet, io);
  if (creating.joinable()) creating.join();
  if (!lowered) return status;
  const assembler::Program* prog = &lowered->program;
  PhaseTimer timer;
  // The verifier reads the program while the files are written under
  // temporary names; they are renamed into place only if it passes.
  std::vector<std::string> problems;
  std::thread verifier;
  if (!opt.no_verify) verifier = std::thread([&] { problems = assembler::verify(*prog); });
  const bool written = staged && staged->write(*prog, err);
  if (verifier.joinable()) verifier.join();
  timer.mark("verify+write");
  if (!problems.empty()) {
    for (const auto& p : problems) std::cerr << opt.in << ": verify: " << p << "\n";
    std::cerr
        << opt.in
        << ": the program failed verification; nothing written (--no-verify writes it anyway)\n";
    return kExitInvalid;
  }
  if (!written || !staged->commit(err)) {
    std::cerr << "gemini asm: " << err << "\n";
    return kExitUnreadable;
  }
  timer.mark("commit");
  if (!opt.quiet) {
    std::size_t total = 0;
    for (const auto& c : prog->cores) total += c.program.instrs.size();
    std::cout << opt.in << " -> " << opt.out << ": " << prog->cores.size() << " cores, " << total
              << " instructions" << (opt.no_verify ? " (not verified)" : ", verified");
    // Said, not done silently: a mistyped -o shows here.
    for (std::size_t i = 0; i < created.size(); ++i)
      std::cout << (i == 0 ? "; created directory " : ", ") << created[i];
    std::cout << "\n";
  }
  keep_until_exit(std::move(*lowered));
  return kExitOk;
}

int run_disasm(const AsmOptions& opt) {
  auto bytes = read_bytes(opt.file);
  if (!bytes) {
    std::cerr << opt.file << ": cannot read\n";
    return kExitUnreadable;
  }
  std::string err;
  auto p = assembler::decode_program(*bytes, err);
  if (!p) {
    std::cerr << opt.file << ": " << err << "\n";
    return kExitInvalid;
  }
  std::cout << assembler::print_program(*p);
  return kExitOk;
}

int run_as(const AsmOptions& opt) {
  std::ifstream f(opt.file, std::ios::binary);
  if (!f) {
    std::cerr << opt.file << ": cannot read\n";
    return kExitUnreadable;
  }
  std::ostringstream ss;
  ss << f.rdbuf();
  assembler::ParseError pe;
  auto p = assembler::parse_program(ss.str(), pe);
  if (!p) {
    std::cerr << opt.file << ":" << pe.line << ":" << pe.column << ": " << pe.message << "\n";
    return kExitInvalid;
  }
  std::vector<std::uint8_t> bin;
  std::string err;
  if (!assembler::encode_program(*p, bin, err)) {
    std::cerr << opt.file << ": " << err << "\n";
    return kExitInvalid;
  }
  std::ofstream o(opt.out, std::ios::binary);
  o.write(reinterpret_cast<const char*>(bin.data()), static_cast<std::streamsize>(bin.size()));
  if (!o) {
    std::cerr << "gemini as: cannot write " << opt.out << "\n";
    return kExitUnreadable;
  }
  return kExitOk;
}

}  // namespace

Command add_asm(CLI::App& app) {
  auto opt = std::make_shared<AsmOptions>();
  CLI::App* a = app.add_subcommand(
      "asm",
      "Assemble an IR (either dialect; public-dialect input is imported in memory) into "
      "per-core programs: DIR/core_<id>.bin, .s listings and manifest.json (docs/isa.md).");
  a->add_option("input", opt->in, "IR file")->required();
  a->add_option("-o,--output", opt->out, "output directory")->required();
  add_hw_option(*a, opt->hw);
  add_dialect_option(*a, opt->dialect);
  add_allocation_option(*a, opt->allocation);
  a->add_flag("--no-verify", opt->no_verify, "skip the program verifier");
  add_semantics_options(*a, opt->semantics, true);
  a->add_flag("-q,--quiet", opt->quiet, "print nothing on success");
  CLI::App* d = app.add_subcommand("disasm", "Print a core program binary as text.");
  d->add_option("file", opt->file, "core_<id>.bin")->required();
  CLI::App* s = app.add_subcommand("as", "Assemble a text program into a binary.");
  s->add_option("file", opt->file, "program text (.s)")->required();
  s->add_option("-o,--output", opt->out, "output binary")->required();
  return [a, d, s, opt] {
    if (a->parsed()) return run_asm(*opt);
    if (d->parsed()) return run_disasm(*opt);
    if (s->parsed()) return run_as(*opt);
    return -1;
  };
}

}  // namespace gemini::cli
