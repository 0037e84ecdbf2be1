// The control network's leaves as its harness mains play them: cm5ctl_tree_main.cpp (the tree
// alone) and cm5_machine_main.cpp (the machine, whose control network is the same tree with the
// same leaf ports). The "op" input record, each leaf offering its operations, and the "inj" and
// "res" output lines. Header-only: the mains are compiled by Verilator's build
// (sim/core/rtl_build.h), not by CMake.
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

#include "sim/core/harness_io.h"
#include "sim/core/verilator_ports.h"

namespace cmnet::cm5ctl_harness {

struct Op {
  uint64_t release = 0;
  int bcast = 0, abstain = 0, kind = 0, comb = 0, segmented = 0, seg = 0;
  uint64_t data = 0;
};

// Each leaf's operations in order. A leaf offers its next one from its release cycle on, one
// push per cycle at most; it is taken when inj_ready is high (the model's rule).
class LeafOps {
 public:
  LeafOps(int leaves, int word_bits)
      : n_(leaves), w_(word_bits), ops_(static_cast<size_t>(leaves)), next_(static_cast<size_t>(leaves), 0),
        last_push_(static_cast<size_t>(leaves), -1), offering_(static_cast<size_t>(leaves), 0) {}

  // The fields of an "op" record after its name: "LEAF RELEASE BCAST ABSTAIN KIND COMB SEGMENTED
  // SEG DATAHEX".
  void read(std::FILE* in) {
    int leaf = 0;
    unsigned long long rel = 0, data = 0;
    Op o;
    const int got = std::fscanf(in, " %d %llu %d %d %d %d %d %d %llx", &leaf, &rel, &o.bcast, &o.abstain, &o.kind,
                                &o.comb, &o.segmented, &o.seg, &data);
    if (got != 9 || leaf < 0 || leaf >= n_) harness::die("bad op line");
    o.release = rel;
    o.data = data;
    ops_[static_cast<size_t>(leaf)].push_back(o);
  }

  // Drives every leaf's inj_* ports in cycle t: its next operation once released, if any.
  template <class Top>
  void offer(Top& top, uint64_t t) {
    using namespace cmnet::vport;
    for (int i = 0; i < n_; ++i) {
      const size_t s = static_cast<size_t>(i);
      offering_[s] = 0;
      if (next_[s] < ops_[s].size()) {
        const Op& o = ops_[s][next_[s]];
        if (t >= o.release && static_cast<long long>(t) > last_push_[s]) {
          offering_[s] = 1;
          set_bit(top.inj_bcast, i, o.bcast);
          set_bit(top.inj_abstain, i, o.abstain);
          set_field(top.inj_kind, 2 * i, 2, static_cast<uint64_t>(o.kind));
          set_field(top.inj_comb, 3 * i, 3, static_cast<uint64_t>(o.comb));
          set_bit(top.inj_segmented, i, o.segmented);
          set_bit(top.inj_seg, i, o.seg);
          set_field(top.inj_data, w_ * i, w_, o.data);
        }
      }
      set_bit(top.inj_valid, i, offering_[s]);
    }
  }

  // After the evaluation of cycle t: "inj LEAF CYCLE" for every push taken.
  template <class Top>
  void take(const Top& top, uint64_t t, std::FILE* out) {
    for (int i = 0; i < n_; ++i) {
      const size_t s = static_cast<size_t>(i);
      if (offering_[s] && vport::get_bit(top.inj_ready, i)) {
        std::fprintf(out, "inj %d %llu\n", i, static_cast<unsigned long long>(t));
        last_push_[s] = static_cast<long long>(t);
        ++next_[s];
      }
    }
  }

  // "res LEAF CYCLE BCAST KIND COMB DATAHEX OVF ERR ABSTAINED" for every result of cycle t, in leaf
  // order; returns how many.
  template <class Top>
  uint64_t write_results(const Top& top, uint64_t t, std::FILE* out) const {
    using namespace cmnet::vport;
    if (!any(top.res_valid)) return 0;
    uint64_t got = 0;
    for (int i = 0; i < n_; ++i) {
      if (!get_bit(top.res_valid, i)) continue;
      std::fprintf(out, "res %d %llu %d %d %d %llx %d %d %d\n", i, static_cast<unsigned long long>(t),
                   get_bit(top.res_bcast, i) ? 1 : 0, static_cast<int>(get_field(top.res_kind, 2 * i, 2)),
                   static_cast<int>(get_field(top.res_comb, 3 * i, 3)),
                   static_cast<unsigned long long>(get_field(top.res_data, w_ * i, w_)),
                   get_bit(top.res_ovf, i) ? 1 : 0, get_bit(top.res_err, i) ? 1 : 0,
                   get_bit(top.res_abstained, i) ? 1 : 0);
      ++got;
    }
    return got;
  }

 private:
  int n_, w_;
  std::vector<std::vector<Op>> ops_;
  std::vector<size_t> next_;
  std::vector<long long> last_push_;
  std::vector<int> offering_;
};

}  // namespace cmnet::cm5ctl_harness
