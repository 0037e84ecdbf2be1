// Reference model of the CM-1 router network (Kahle, Kuszmaul, Hillis 1989, section 3).
//
// Messages are atomic; the model steps whole petit cycles, all chips in lockstep:
//   1. injector: buffered messages keep rows 0..nb-1, then processors in increasing local index
//      each offer their next message (file order) into rows nb..b-1;
//   2. heart: columns 0..c-1; in column i every chip picks the lowest row whose relative
//      address has bit i set, else (all b rows full) desperation-routes row b-1, else nobody;
//      then all picked messages cross (bit i of the address flips) and are appended after the
//      packed remaining rows of the neighbour chip x ^ 2^i;
//   3. ejector: messages with relative address 0 are delivered (all of them, OR-combined per
//      processor, or only the lowest such row); the rest are buffered in row order.
#include "sim/cm1/cm1_model.h"

#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "gen/core/errors.h"

namespace cmnet {

int cm1_column_choice(const uint32_t* addrs, int count, int rows, int dim, bool* desperation) {
  const uint32_t bit = uint32_t{1} << dim;
  *desperation = false;
  for (int r = 0; r < count; ++r) {
    if (addrs[r] & bit) return r;
  }
  if (count >= rows) {
    *desperation = true;
    return rows - 1;
  }
  return -1;
}

namespace {

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

// One run of the model: the chips' rows, the send queues and the counters, and the three stages
// of a petit cycle.
class Cm1Sim {
 public:
  Cm1Sim(const Cm1Params& p, const Traffic& t, EjectMode mode, const Cm1ModelOptions& opt)
      : p_(p), t_(t), opt_(opt), c_(p.cube_dims), b_(p.rows), P_(static_cast<uint32_t>(p.procs_per_chip)),
        pbits_(p.proc_bits()), chips_(static_cast<uint32_t>(p.chips())), M_(static_cast<uint32_t>(t.messages.size())),
        len_(static_cast<uint64_t>(p.msg_len())), or_mode_(mode == EjectMode::kOrCombine) {
    const uint32_t nproc = static_cast<uint32_t>(p.processors());
    // Per-processor send queues in file order (counting sort by source, stable).
    qstart_.assign(nproc + 1, 0);
    for (const Message& m : t.messages) ++qstart_[m.src + 1];
    for (uint32_t g = 0; g < nproc; ++g) qstart_[g + 1] += qstart_[g];
    qnext_.assign(qstart_.begin(), qstart_.end() - 1);
    qmsg_.resize(M_);
    {
      std::vector<uint32_t> fill = qnext_;
      for (uint32_t i = 0; i < M_; ++i) qmsg_[fill[t.messages[i].src]++] = i;
    }
    // Messages not yet injected, per chip (lets the injector skip drained chips).
    chip_pending_.assign(chips_, 0);
    for (uint32_t x = 0; x < chips_; ++x) chip_pending_[x] = qstart_[(x + 1) * P_] - qstart_[x * P_];
    row_msg_.assign(static_cast<size_t>(chips_) * b_, kNone);
    row_addr_.assign(static_cast<size_t>(chips_) * b_, 0);
    cnt_.assign(chips_, 0);
    out_msg_.assign(chips_, kNone);
    out_addr_.assign(chips_, 0);
    c_injected_.assign(chips_, 0);
    c_delivered_.assign(chips_, 0);
    c_desperation_.assign(chips_, 0);
    c_busy_.assign(static_cast<size_t>(chips_) * c_, 0);
    acc_data_.assign(P_, 0);
    acc_vp_.assign(P_, 0);
    acc_n_.assign(P_, 0);
    res_.deliveries.reserve(M_);
  }

  Cm1RunResult run() {
    while (delivered_total_ < M_ && petit_ < opt_.max_petit) {
      inject();
      if (opt_.trace) trace(Cm1Stage::kInjected, -1);
      // Heart: one column per dimension; all chips decide, then all crossings land.
      for (int i = 0; i < c_; ++i) {
        heart_column(i);
        if (opt_.trace) trace(Cm1Stage::kColumn, i);
      }
      eject();
      if (opt_.trace) trace(Cm1Stage::kBuffered, -1);
      ++petit_;
    }
    return result();
  }

 private:
  void trace(Cm1Stage stage, int column) const {
    Cm1TraceEvent ev;
    ev.petit = petit_;
    ev.stage = stage;
    ev.column = column;
    for (uint32_t x = 0; x < chips_; ++x) {
      ev.chip = static_cast<int>(x);
      ev.rows.clear();
      const size_t base = static_cast<size_t>(x) * b_;
      for (int r = 0; r < cnt_[x]; ++r) ev.rows.push_back({row_msg_[base + r], row_addr_[base + r]});
      opt_.trace(ev);
    }
  }

  // 1. Injector.
  void inject() {
    for (uint32_t x = 0; x < chips_; ++x) {
      if (chip_pending_[x] == 0) continue;
      int n = cnt_[x];
      if (n >= b_) continue;
      const size_t base = static_cast<size_t>(x) * b_;
      for (uint32_t lp = 0; lp < P_ && n < b_; ++lp) {
        const uint32_t g = x * P_ + lp;
        if (qnext_[g] == qstart_[g + 1]) continue;
        const uint32_t m = qmsg_[qnext_[g]++];
        const Message& msg = t_.messages[m];
        row_msg_[base + n] = m;
        row_addr_[base + n] = (msg.src >> pbits_) ^ (msg.dst >> pbits_);
        ++n;
        ++c_injected_[x];
        --chip_pending_[x];
      }
      cnt_[x] = n;
    }
  }

  // 2. Heart, column i.
  void heart_column(int i) {
    const uint32_t bit = uint32_t{1} << i;
    for (uint32_t x = 0; x < chips_; ++x) {
      const int n = cnt_[x];
      const size_t base = static_cast<size_t>(x) * b_;
      uint32_t* addr = &row_addr_[base];
      int r = 0;
      while (r < n && !(addr[r] & bit)) ++r;
      if (r == n) {
        if (n < b_) {
          out_msg_[x] = kNone;
          continue;
        }
        r = b_ - 1;  // desperation routing: all rows full, nobody wants dimension i
        ++c_desperation_[x];
      }
      uint32_t* msg = &row_msg_[base];
      out_msg_[x] = msg[r];
      out_addr_[x] = addr[r] ^ bit;
      for (int j = r + 1; j < n; ++j) {
        msg[j - 1] = msg[j];
        addr[j - 1] = addr[j];
      }
      cnt_[x] = n - 1;
      c_busy_[static_cast<size_t>(x) * c_ + i] += len_;
      ++crossings_;
    }
    for (uint32_t x = 0; x < chips_; ++x) {
      const uint32_t y = x ^ bit;
      if (out_msg_[y] == kNone) continue;
      const size_t at = static_cast<size_t>(x) * b_ + cnt_[x];
      row_msg_[at] = out_msg_[y];
      row_addr_[at] = out_addr_[y];
      ++cnt_[x];
    }
  }

  // 3. Ejector.
  void eject() {
    for (uint32_t x = 0; x < chips_; ++x) {
      const int n = cnt_[x];
      if (n == 0) continue;
      const int kept = or_mode_ ? eject_or(x, n) : eject_one(x, n);
      if (kept < 0) continue;
      c_delivered_[x] += static_cast<uint64_t>(n - kept);
      delivered_total_ += static_cast<uint64_t>(n - kept);
      cnt_[x] = kept;
    }
  }

  // OR-combining: every message at its chip is delivered, each processor getting the OR of all of
  // its messages. Returns the rows kept, or -1 when none is delivered.
  int eject_or(uint32_t x, int n) {
    const size_t base = static_cast<size_t>(x) * b_;
    uint32_t* msg = &row_msg_[base];
    uint32_t* addr = &row_addr_[base];
    bool any = false;
    for (int r = 0; r < n; ++r) {
      if (addr[r] != 0) continue;
      const Message& m = t_.messages[msg[r]];
      const uint32_t lp = m.dst & (P_ - 1);
      acc_data_[lp] |= m.data;
      acc_vp_[lp] |= m.vp;
      ++acc_n_[lp];
      any = true;
    }
    if (!any) return -1;
    int kept = 0;
    for (int r = 0; r < n; ++r) {
      if (addr[r] != 0) {
        msg[kept] = msg[r];
        addr[kept] = addr[r];
        ++kept;
        continue;
      }
      const uint32_t lp = t_.messages[msg[r]].dst & (P_ - 1);
      Cm1Delivery d;
      d.msg = msg[r];
      d.petit = petit_;
      d.rx_vp = acc_vp_[lp];
      d.rx_data = acc_data_[lp];
      d.combined = acc_n_[lp];
      res_.deliveries.push_back(d);
    }
    const int ndel = n - kept;
    for (size_t k = res_.deliveries.size() - ndel; k < res_.deliveries.size(); ++k) {
      const uint32_t lp = t_.messages[res_.deliveries[k].msg].dst & (P_ - 1);
      acc_data_[lp] = 0;
      acc_vp_[lp] = 0;
      acc_n_[lp] = 0;
    }
    return kept;
  }

  // One message: the lowest row at its chip is delivered. Returns the rows kept, or -1 when none is.
  int eject_one(uint32_t x, int n) {
    const size_t base = static_cast<size_t>(x) * b_;
    uint32_t* msg = &row_msg_[base];
    uint32_t* addr = &row_addr_[base];
    int r = 0;
    while (r < n && addr[r] != 0) ++r;
    if (r == n) return -1;
    const Message& m = t_.messages[msg[r]];
    Cm1Delivery d;
    d.msg = msg[r];
    d.petit = petit_;
    d.rx_vp = m.vp;
    d.rx_data = m.data;
    d.combined = 1;
    res_.deliveries.push_back(d);
    for (int j = r + 1; j < n; ++j) {
      msg[j - 1] = msg[j];
      addr[j - 1] = addr[j];
    }
    return n - 1;
  }

  Cm1RunResult result() {
    res_.petit_cycles = petit_;
    res_.completed = delivered_total_ == M_;
    res_.bit_times = static_cast<uint64_t>(p_.delivery_bit_times(static_cast<int64_t>(petit_)));
    res_.crossings = crossings_;
    res_.chips.resize(chips_);
    for (uint32_t x = 0; x < chips_; ++x) {
      Cm1ChipCounters& k = res_.chips[x];
      k.injected = c_injected_[x];
      k.delivered = c_delivered_[x];
      k.desperation = c_desperation_[x];
      k.petit_cycles = petit_;
      k.parity_errors = 0;
      k.dim_busy.assign(c_busy_.begin() + static_cast<ptrdiff_t>(x) * c_,
                        c_busy_.begin() + static_cast<ptrdiff_t>(x + 1) * c_);
      res_.desperation += c_desperation_[x];
    }
    return std::move(res_);
  }

  const Cm1Params& p_;
  const Traffic& t_;
  const Cm1ModelOptions& opt_;
  const int c_, b_;
  const uint32_t P_;
  const int pbits_;
  const uint32_t chips_, M_;
  const uint64_t len_;
  const bool or_mode_;
  std::vector<uint32_t> qstart_, qnext_, qmsg_;
  std::vector<uint32_t> chip_pending_;
  // Heart rows, flat: chip x's rows are [x*b, x*b + cnt[x]).
  std::vector<uint32_t> row_msg_, row_addr_;
  std::vector<int> cnt_;
  std::vector<uint32_t> out_msg_, out_addr_;
  // Counters, flat.
  std::vector<uint64_t> c_injected_, c_delivered_, c_desperation_, c_busy_;
  // OR-combining accumulators, per local processor.
  std::vector<uint64_t> acc_data_;
  std::vector<uint32_t> acc_vp_;
  std::vector<int> acc_n_;
  Cm1RunResult res_;
  uint64_t delivered_total_ = 0;
  uint64_t crossings_ = 0;
  uint64_t petit_ = 0;
};

}  // namespace

Cm1RunResult run_cm1_model(const Cm1Params& p, const Traffic& t, EjectMode mode, const Cm1ModelOptions& opt) {
  validate(p, "cm1 model");
  check_traffic(t, p, "cm1 model traffic");
  if (t.messages.size() >= kNone) {
    throw InputError("cm1 model traffic: " + std::to_string(t.messages.size()) +
                     " messages, at most " + std::to_string(kNone - 1));
  }
  return Cm1Sim(p, t, mode, opt).run();
}

std::ostream& operator<<(std::ostream& os, const Cm1Delivery& d) {
  return os << "{msg " << d.msg << ", petit " << d.petit << ", rx vp " << d.rx_vp
            << ", rx data 0x" << std::hex << d.rx_data << std::dec << ", combined " << d.combined
            << '}';
}

std::ostream& operator<<(std::ostream& os, const Cm1ChipCounters& c) {
  os << "{injected " << c.injected << ", delivered " << c.delivered << ", desperation "
     << c.desperation << ", petit cycles " << c.petit_cycles << ", parity errors "
     << c.parity_errors << ", dim busy [";
  for (size_t d = 0; d < c.dim_busy.size(); ++d) os << (d ? " " : "") << c.dim_busy[d];
  return os << "]}";
}

}  // namespace cmnet
