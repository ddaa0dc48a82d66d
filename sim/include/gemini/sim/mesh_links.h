#pragma once
// The links of a 2-D mesh with nodes at the ends of its rows (where DRAM
// ports sit), numbered once for everything that names or loads them: the
// mesh NoC model (mesh_noc.h) and the layer roofline (roofline.h).
// Router (x, y), -1 <= x <= xlen, 0 <= y < ylen, is y * (xlen + 2) + x + 1;
// its outgoing link in direction d is router * kDirs + d (inject: from its
// node into the router; eject: from the router to its node). Routing is XY:
// X first, then Y.

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "gemini/sim/noc_model.h"

namespace gemini::sim {

class MeshLinks {
 public:
  enum Dir : std::int32_t { kEast, kWest, kNorth, kSouth, kInject, kEject, kDirs };

  MeshLinks(std::int32_t xlen, std::int32_t ylen) : xlen_(xlen), ylen_(ylen) {}

  std::int32_t router(std::int32_t x, std::int32_t y) const { return y * (xlen_ + 2) + (x + 1); }
  std::int32_t link(std::int32_t x, std::int32_t y, Dir d) const {
    return router(x, y) * kDirs + d;
  }
  // Where the link in direction d from router (x, y) leads (the router
  // itself for the injection and ejection links).
  static NodePos next(std::int32_t x, std::int32_t y, Dir d) {
    return {x + (d == kEast) - (d == kWest), y + (d == kSouth) - (d == kNorth)};
  }
  // Node ids: the cores, y * xlen + x, then the row ends, two per row (west,
  // east), where DRAM ports sit.
  NodePos node_pos(std::int32_t node) const {
    const std::int32_t cores = xlen_ * ylen_;
    if (node < cores) return {node % xlen_, node / xlen_};
    return {((node - cores) % 2) ? xlen_ : -1, (node - cores) / 2};
  }
  std::int32_t node_id(NodePos q) const {
    if (q.x >= 0 && q.x < xlen_) return q.y * xlen_ + q.x;
    return xlen_ * ylen_ + 2 * q.y + (q.x == xlen_ ? 1 : 0);
  }
  // Every link number is below this.
  std::size_t count() const { return static_cast<std::size_t>(xlen_ + 2) * ylen_ * kDirs; }

  // Calls f(link) for each router-to-router link of the XY route from a to
  // b, in order (neither the injection nor the ejection link).
  template <class F>
  void xy_route(NodePos a, NodePos b, F&& f) const {
    while (a.x != b.x) {
      const bool east = b.x > a.x;
      f(link(a.x, a.y, east ? kEast : kWest));
      a.x += east ? 1 : -1;
    }
    while (a.y != b.y) {
      const bool south = b.y > a.y;
      f(link(a.x, a.y, south ? kSouth : kNorth));
      a.y += south ? 1 : -1;
    }
  }

  // Calls f(link, from, to) for every link between routers: neighbouring
  // routers of the grid, and each row end's router (-1 and xlen, where DRAM
  // ports sit) with its row's first and last (no injection or ejection
  // links). The order every model's link listing follows.
  template <class F>
  void for_each_link(F&& f) const {
    auto at = [&](std::int32_t x, std::int32_t y, Dir dir) {
      f(link(x, y, dir), NodePos{x, y}, next(x, y, dir));
    };
    for (std::int32_t y = 0; y < ylen_; ++y)
      for (std::int32_t x = -1; x <= xlen_; ++x) {
        if (x < xlen_) at(x, y, kEast);  // to x + 1
        if (x > -1) at(x, y, kWest);     // to x - 1
        if (x >= 0 && x < xlen_) {
          if (y + 1 < ylen_) at(x, y, kSouth);
          if (y > 0) at(x, y, kNorth);
        }
      }
  }

  // Per link: 1 where a mesh cut into x_cut x y_cut equal dies has a
  // die-to-die link (chiplets.h): between two dies, and with `io_die`
  // between a DRAM port (x = -1, xlen) and its row's edge router.
  std::vector<std::uint8_t> d2d_flags(std::int32_t x_cut, std::int32_t y_cut, bool io_die) const {
    std::vector<std::uint8_t> d2d(count(), 0);
    if (x_cut * y_cut <= 1) return d2d;
    const std::int32_t xs = xlen_ / x_cut, ys = ylen_ / y_cut;
    // Between columns x and x + 1 (x = -1: the west port, x = xlen - 1:
    // the east port); between rows y and y + 1.
    auto column_boundary = [&](std::int32_t x) {
      if (x < 0 || x + 1 >= xlen_) return io_die;
      return (x + 1) % xs == 0;
    };
    auto mark = [&](std::int32_t x, std::int32_t y, Dir d) {
      d2d[static_cast<std::size_t>(link(x, y, d))] = 1;
    };
    for (std::int32_t y = 0; y < ylen_; ++y)
      for (std::int32_t x = -1; x < xlen_; ++x)
        if (column_boundary(x)) {
          mark(x, y, kEast);
          mark(x + 1, y, kWest);
        }
    for (std::int32_t x = 0; x < xlen_; ++x)
      for (std::int32_t y = 0; y + 1 < ylen_; ++y)
        if ((y + 1) % ys == 0) {
          mark(x, y, kSouth);
          mark(x, y + 1, kNorth);
        }
    return d2d;
  }

  // "(x,y)->(x',y')", or a router's injection or ejection link "(x,y)
  // in/out"; "-" for no link.
  std::string name(std::int32_t link) const {
    if (link < 0) return "-";
    const std::int32_t dir = link % kDirs, r = link / kDirs;
    const std::int32_t x = r % (xlen_ + 2) - 1, y = r / (xlen_ + 2);
    char buf[64];
    if (dir == kInject || dir == kEject) {
      std::snprintf(buf, sizeof buf, "(%d,%d) %s", x, y, dir == kInject ? "in" : "out");
    } else {
      const NodePos to = next(x, y, static_cast<Dir>(dir));
      std::snprintf(buf, sizeof buf, "(%d,%d)->(%d,%d)", x, y, to.x, to.y);
    }
    return buf;
  }

 private:
  std::int32_t xlen_, ylen_;
};

}  // namespace gemini::sim
