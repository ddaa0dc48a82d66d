// gemini._gemini: the C++ half of the Python package `gemini`
// (python/gemini/__init__.py is the API; docs/python.md). It binds the
// in-process calls of inspect.h, each run with the GIL released; the
// simulations and references are the gemini executable's, run by
// gemini/_run.py in a child process.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "inspect.h"

namespace py = pybind11;

namespace gemini::python {
namespace {

py::dict to_dict(const Diagnostic& d) {
  py::dict o;
  o["code"] = d.code;
  o["name"] = d.name;
  o["severity"] = d.severity;
  o["pointer"] = d.pointer;
  o["line"] = d.line ? py::object(py::int_(*d.line)) : py::object(py::none());
  o["column"] = d.column ? py::object(py::int_(*d.column)) : py::object(py::none());
  o["message"] = d.message;
  o["file"] = d.file;
  o["given"] = d.given;
  return o;
}

py::list to_list(const std::vector<Diagnostic>& ds) {
  py::list l;
  for (const Diagnostic& d : ds) l.append(to_dict(d));
  return l;
}

py::dict validate(const std::string& path, const std::string& model, const std::string& dialect,
                  const std::string& hw_json, std::size_t max_kept) {
  Validation v;
  {
    py::gil_scoped_release release;
    v = validate_file(path, model, dialect, hw_json, max_kept);
  }
  py::dict o;
  o["file"] = v.file;
  o["status"] = v.status;
  o["dialect"] = v.dialect.empty() ? py::object(py::none()) : py::object(py::str(v.dialect));
  o["errors"] = v.errors;
  o["warnings"] = v.warnings;
  o["not_shown"] = v.not_shown;
  o["semantic_checks"] = v.semantic_checks;
  o["diagnostics"] = to_list(v.diagnostics);
  return o;
}

// (ok, summary JSON text, diagnostics)
py::tuple info(const std::string& path, const std::string& dialect) {
  Info i;
  {
    py::gil_scoped_release release;
    i = info_file(path, dialect);
  }
  return py::make_tuple(i.ok, i.json, to_list(i.diagnostics));
}

py::list hw_problems(const std::string& text, const std::vector<std::string>& set_paths) {
  std::vector<Diagnostic> ds;
  {
    py::gil_scoped_release release;
    ds = check_hw(text, set_paths);
  }
  return to_list(ds);
}

}  // namespace
}  // namespace gemini::python

PYBIND11_MODULE(_gemini, m) {
  m.doc() = "gemini's in-process checks (the Python API is the package gemini)";
  m.def("validate", &gemini::python::validate, py::arg("path"), py::arg("model"),
        py::arg("dialect"), py::arg("hw_json"), py::arg("max_kept"),
        "gemini validate's verdict and diagnostics, as a dict");
  m.def("info", &gemini::python::info, py::arg("path"), py::arg("dialect"),
        "(ok, gemini info --json's text, diagnostics)");
  m.def("check_hw", &gemini::python::hw_problems, py::arg("text"),
        py::arg("set_paths") = std::vector<std::string>{},
        "the problems of a hardware configuration's JSON text, as --hw checks it; a value of "
        "set_paths (simulate's set=, by dotted path) named by it");
}
