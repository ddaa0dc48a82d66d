// Writer: load -> write (full dialect) -> load gives an equal model, and
// writing is deterministic.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <limits>
#include <sstream>

#include "fixture.h"
#include "gemini/ir/json_writer.h"
#include "gemini/ir/loader.h"
#include "gemini/ir/validator.h"
#include "gemini/ir/writer.h"

namespace fs = std::filesystem;
using namespace gemini;  // NOLINT(google-build-using-namespace): test file

namespace {

// `complete`: the input carries everything the full dialect requires. A
// public-dialect model lacks the L2 allocation until `gemini import` adds it,
// so its full-dialect form reloads equal but reports the missing keys.
void round_trip(const fs::path& in, const std::string& out_name, bool complete = true) {
  ir::Diagnostics d1;
  auto a = ir::load_file(in.string(), d1);
  ASSERT_EQ(a.status, ir::LoadStatus::ok);
  ASSERT_EQ(d1.errors(), 0u);
  std::string err;
  const fs::path out = test::temp_path(out_name);
  ASSERT_TRUE(ir::write_full_file(a.model, out.string(), err)) << err;
  ir::Diagnostics d2;
  auto b = ir::load_file(out.string(), d2);
  ASSERT_EQ(b.status, ir::LoadStatus::ok);
  EXPECT_EQ(b.model.dialect, ir::Dialect::full);
  EXPECT_TRUE(a.model == b.model) << in << " changed in the round trip";
  if (complete) {
    ir::validate(b.model, ir::HardwareConfig{}, d2);
    EXPECT_EQ(d2.errors(), 0u) << in;
  } else {
    EXPECT_TRUE(d2.has(ir::Check::missing_key));
  }
  // Written again, the bytes are identical.
  std::ostringstream s1, s2;
  ir::write_full(a.model, s1);
  ir::write_full(b.model, s2);
  EXPECT_EQ(s1.str(), s2.str());
}

TEST(Writer, FullDialectRoundTrip) {
  round_trip(test::data_dir() / "spec_minimal.json", "rt_full.json");
}

TEST(Writer, PublicDialectRoundTripThroughFull) {
  round_trip(test::data_dir() / "set_minimal.json", "rt_set.json", false);
}

TEST(Writer, GzipOutputByName) {
  round_trip(test::data_dir() / "spec_minimal.json", "rt_full.json.gz");
  const std::string head = test::read_file(test::temp_path("rt_full.json.gz")).substr(0, 2);
  EXPECT_EQ(static_cast<unsigned char>(head[0]), 0x1f);
  EXPECT_EQ(static_cast<unsigned char>(head[1]), 0x8b);
}

TEST(Writer, WritesWhatChangedAndReadsItBack) {
  // A model changed in one field is written differently, and reads back
  // with the change and nothing else: the writer carries the field.
  ir::Diagnostics d;
  auto a = ir::load_file((test::data_dir() / "spec_minimal.json").string(), d);
  ASSERT_EQ(a.status, ir::LoadStatus::ok);
  ir::Model b = a.model;
  b.cores[0].workloads[0].buffer[1].address = 260;
  std::ostringstream wa, wb;
  ir::write_full(a.model, wa);
  ir::write_full(b, wb);
  EXPECT_NE(wa.str(), wb.str());
  const fs::path p = test::write_temp("changed.json", wb.str());
  ir::Diagnostics d2;
  auto back = ir::load_file(p.string(), d2);
  ASSERT_EQ(back.status, ir::LoadStatus::ok);
  EXPECT_EQ(back.model.cores[0].workloads[0].buffer[1].address, 260);
  back.model.cores[0].workloads[0].buffer[1].address =
      a.model.cores[0].workloads[0].buffer[1].address;
  std::ostringstream wback;
  ir::write_full(back.model, wback);
  EXPECT_EQ(wback.str(), wa.str());
}

TEST(Writer, EscapesStrings) {
  ir::Diagnostics d;
  auto a = ir::load_file((test::data_dir() / "spec_minimal.json").string(), d);
  a.model.cores[0].workloads[0].layer_name = "conv \"a\"\\b\n\x01";
  std::ostringstream s;
  ir::write_full(a.model, s);
  const fs::path p = test::write_temp("escaped.json", s.str());
  ir::Diagnostics d2;
  auto b = ir::load_file(p.string(), d2);
  ASSERT_EQ(b.status, ir::LoadStatus::ok);
  EXPECT_EQ(b.model.cores[0].workloads[0].layer_name, "conv \"a\"\\b\n\x01");
}

// JSON has no infinity or NaN: a report figure that is one (a die too
// large for a wafer costs +infinity) is written as null, and the document
// stays JSON.
TEST(JsonWriterNumbers, NonFiniteNumbersAreNull) {
  std::ostringstream os;
  {
    ir::JsonWriter w(os);
    w.begin_object();
    w.key("inf");
    w.value(std::numeric_limits<double>::infinity());
    w.key("nan");
    w.value(std::numeric_limits<double>::quiet_NaN());
    w.key("two");
    w.value(2.0);
    w.end_object();
  }
  const boost::json::value v = boost::json::parse(os.str());
  EXPECT_TRUE(v.at("inf").is_null()) << os.str();
  EXPECT_TRUE(v.at("nan").is_null()) << os.str();
  EXPECT_EQ(v.at("two").as_double(), 2.0);
}

}  // namespace
