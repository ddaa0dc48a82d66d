// parse_baseline FILE: reads FILE (plain JSON) and runs a bare
// boost::json::parse on it -- the whole-process baseline that
// `gemini validate FILE` is compared with (see README, "Benchmarks").
#include <boost/json/parse.hpp>
#include <fstream>
#include <iostream>
#include <sstream>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: parse_baseline FILE\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  boost::json::error_code ec;
  boost::json::value v = boost::json::parse(ss.str(), ec);
  if (ec) {
    std::cerr << argv[1] << ": " << ec.message() << "\n";
    return 1;
  }
  std::cout << (v.is_object() ? v.as_object().size() : 0) << " top-level members\n";
  return 0;
}
