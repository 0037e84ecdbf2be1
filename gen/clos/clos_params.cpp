// ClosParams: names, derived figures and range checks.
#include "gen/clos/clos_params.h"

#include <algorithm>

#include "gen/core/design.h"
#include "gen/core/errors.h"

namespace cmnet {

const char* to_string(ClosKind k) {
  switch (k) {
    case ClosKind::kStrictlyNonBlocking:
      return "strictly non-blocking";
    case ClosKind::kRearrangeable:
      return "rearrangeable";
    case ClosKind::kBlocking:
      return "blocking";
  }
  return "?";
}

int ClosParams::cfg_addr_bits() const { return std::max(1, clog2(static_cast<uint64_t>(cfg_entries()))); }
int ClosParams::cfg_sel_bits() const { return std::max(1, clog2(static_cast<uint64_t>(std::max({n, m, r})))); }

namespace {

void check_range(const std::string& where, const char* field, int64_t value, int64_t lo, int64_t hi,
                 const std::string& why = "") {
  if (value < lo || value > hi) {
    throw ConfigError(where + ": " + field + " = " + std::to_string(value) + " out of range " +
                      std::to_string(lo) + ".." + std::to_string(hi) + why);
  }
}

}  // namespace

void validate(const ClosParams& p, const std::string& where) {
  check_range(where, "m", p.m, 1, 256);
  check_range(where, "n", p.n, 1, 256);
  check_range(where, "r", p.r, 1, 256);
  check_range(where, "width", p.width, 1, 32);
  check_range(where, "hnode_dims", p.hnode_dims, 0, 8);
  if (p.hnodes() > p.r)
    check_range(where, "hnode_dims", p.hnode_dims, 0, clog2(static_cast<uint64_t>(p.r + 1)) - 1,
                " (2^hnode_dims hnodes, each controls at least one of the r = " + std::to_string(p.r) +
                    " input/output switch pairs)");
  check_range(where, "cancel_limit", p.cancel_limit, 1, 64);
  if (static_cast<int64_t>(p.n) * p.r > 65536)
    throw ConfigError(where + ": n * r = " + std::to_string(static_cast<int64_t>(p.n) * p.r) +
                      " ports out of range 1..65536");
}

std::string clos_name(const ClosParams& p) {
  return "N(" + std::to_string(p.m) + ", " + std::to_string(p.n) + ", " + std::to_string(p.r) + ")";
}

}  // namespace cmnet
