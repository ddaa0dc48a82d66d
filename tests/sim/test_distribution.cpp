// Distributions as a statistic kind (distribution.h, stats.h,
// stat_snapshot.h): the buckets and percentiles worked out by hand, the
// merge of a kind's groups, and the report's forms of them.
#include <gtest/gtest.h>

#include <sstream>

#include "gemini/sim/distribution.h"
#include "gemini/sim/report.h"
#include "gemini/sim/stat_snapshot.h"
#include "gemini/sim/stats.h"

namespace gemini::sim {
namespace {

TEST(Distribution, BucketsAreExactBelowSixteenThenSixteenPerPowerOfTwo) {
  for (std::uint64_t v = 0; v < 16; ++v) {
    EXPECT_EQ(Distribution::bucket_of(v), v);
    EXPECT_EQ(Distribution::lower_bound(v), v);
  }
  // [16, 32): width 1; [32, 64): width 2; [64, 128): width 4.
  EXPECT_EQ(Distribution::lower_bound(Distribution::bucket_of(31)), 31u);
  EXPECT_EQ(Distribution::lower_bound(Distribution::bucket_of(33)), 32u);
  EXPECT_EQ(Distribution::lower_bound(Distribution::bucket_of(101)), 100u);
  // 4667 in [4096, 8192), width 256: 4096 + 2 x 256.
  EXPECT_EQ(Distribution::lower_bound(Distribution::bucket_of(4667)), 4608u);
  // Every value's bucket starts at most 1/16 below it, and buckets are in order.
  for (std::uint64_t v = 1; v < 100000; v = v * 3 / 2 + 1) {
    const std::uint64_t lo = Distribution::lower_bound(Distribution::bucket_of(v));
    EXPECT_LE(lo, v);
    EXPECT_LE(v - lo, v / 16) << v;
    EXPECT_LE(Distribution::bucket_of(v), Distribution::bucket_of(v + 1));
  }
}

TEST(Distribution, CountsMeanAndPercentiles) {
  Distribution d;
  EXPECT_EQ(d.percentile(0.5), 0);
  for (int v = 1; v <= 10; ++v) d.add(v);
  EXPECT_EQ(d.count(), 10);
  EXPECT_EQ(d.sum(), 55);
  EXPECT_DOUBLE_EQ(d.mean(), 5.5);
  EXPECT_EQ(d.min(), 1);
  EXPECT_EQ(d.max(), 10);
  EXPECT_EQ(d.percentile(0.5), 5);    // rank 5
  EXPECT_EQ(d.percentile(0.99), 10);  // rank ceil(9.9) = 10
  // 1..1000: rank 500 is 500, in [496, 512); rank 990 is 990, in [960, 992).
  Distribution k;
  for (int v = 1; v <= 1000; ++v) k.add(v);
  EXPECT_EQ(k.percentile(0.5), 496);
  EXPECT_EQ(k.percentile(0.99), 960);
  EXPECT_EQ(k.percentile(1.0), 1000);
  EXPECT_EQ(k.percentile(0.0), 1);
  d.add(-5);  // counted as 0
  EXPECT_EQ(d.min(), 0);
}

TEST(Distribution, MergeIsAddingEverySample) {
  Distribution a, b, all;
  for (int v = 0; v < 300; v += 7) {
    a.add(v * 11);
    all.add(v * 11);
  }
  for (int v = 5; v < 5000; v += 13) {
    b.add(v);
    all.add(v);
  }
  a.merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.sum(), all.sum());
  EXPECT_EQ(a.min(), all.min());
  EXPECT_EQ(a.max(), all.max());
  EXPECT_EQ(a.buckets(), all.buckets());
  EXPECT_EQ(a.percentile(0.99), all.percentile(0.99));
}

TEST(Distribution, AKindsGroupsMergeByName) {
  Distribution x, y;
  x.add(100);
  y.add(300);
  y.add(500);
  std::int64_t n = 3;
  StatGroup g1("dram", "dram_west0"), g2("dram", "dram_east0");
  g1.add("requests", &n, Unit::count, "requests");
  g1.add_distribution("read_latency", &x, Unit::picoseconds, "latency");
  g2.add_distribution("read_latency", &y, Unit::picoseconds, "latency");
  const std::vector<KindStats> k = sum_by_kind({g1.snapshot(), g2.snapshot()});
  ASSERT_EQ(k.size(), 1u);
  ASSERT_EQ(k[0].distributions.size(), 1u);
  const Distribution& m = k[0].distributions[0].dist;
  EXPECT_EQ(m.count(), 3);
  EXPECT_EQ(m.sum(), 900);
  EXPECT_EQ(m.min(), 100);
  EXPECT_EQ(m.max(), 500);
  EXPECT_EQ(m.percentile(0.5), 288);  // 300 in [288, 304)

  // The JSON report writes it in the kind's and in each group's section,
  // the text report in its table.
  Report r;
  r.stats = {g1.snapshot(), g2.snapshot()};
  std::ostringstream json, text;
  write_report_json(json, r, false);
  print_report(text, r);
  EXPECT_NE(json.str().find("\"distributions\""), std::string::npos);
  EXPECT_NE(json.str().find("\"p99\""), std::string::npos);
  EXPECT_NE(json.str().find("\"buckets\""), std::string::npos);
  EXPECT_NE(text.str().find("dram.read_latency"), std::string::npos) << text.str();
}

}  // namespace
}  // namespace gemini::sim
