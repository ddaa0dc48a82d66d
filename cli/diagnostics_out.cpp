#include "diagnostics_out.h"

#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>
#include <fstream>
#include <iostream>

namespace gemini::cli {
namespace {

// One process runs one command: what it said, in order.
boost::json::array& recorded() {
  static boost::json::array a;
  return a;
}

}  // namespace

void record(const std::string& file, const ir::Diagnostic& d) {
  boost::json::object o = ir::diagnostic_json(d);
  if (!o.contains("file")) o["file"] = file;
  recorded().push_back(std::move(o));
}

void record_refusal(const std::string& file, const std::string& message) {
  boost::json::object o;
  o["code"] = "";
  o["name"] = "";
  o["severity"] = "error";
  o["pointer"] = "";
  o["message"] = message;
  o["file"] = file;
  recorded().push_back(std::move(o));
}

void report_config_errors(const ir::ConfigErrors& errors) {
  for (const ir::Diagnostic& e : errors) {
    std::cerr << ir::config_text(e) << "\n";
    record(e.file, e);
  }
}

bool write_recorded(const std::string& path, int exit_status, std::string& error) {
  boost::json::object o;
  o["exit_status"] = exit_status;
  o["diagnostics"] = recorded();
  std::ofstream os(path, std::ios::binary);
  if (os) os << boost::json::serialize(o) << "\n";
  if (!os) {
    error = "cannot write the diagnostics to " + path;
    return false;
  }
  return true;
}

}  // namespace gemini::cli
