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

}  // namespace

Cm1RunResult run_cm1_model(const Cm1Params& p, const Traffic& t, EjectMode mode, const Cm1ModelOptions& opt) {
  validate(p, "cm1 model");
  check_traffic(t, p, "cm1 model traffic");
  if (t.messages.size() >= kNone) {
    throw InputError("cm1 model traffic: " + std::to_string(t.messages.size()) +
                     " messages, at most " + std::to_string(kNone - 1));
  }

  const int c = p.cube_dims;
  const int b = p.rows;
  const uint32_t P = static_cast<uint32_t>(p.procs_per_chip);
  const int pbits = p.proc_bits();
  const uint32_t chips = static_cast<uint32_t>(p.chips());
  const uint32_t nproc = static_cast<uint32_t>(p.processors());
  const uint32_t M = static_cast<uint32_t>(t.messages.size());
  const uint64_t len = static_cast<uint64_t>(p.msg_len());
  const bool or_mode = mode == EjectMode::kOrCombine;

  // Per-processor send queues in file order (counting sort by source, stable).
  std::vector<uint32_t> qstart(nproc + 1, 0);
  for (const Message& m : t.messages) ++qstart[m.src + 1];
  for (uint32_t g = 0; g < nproc; ++g) qstart[g + 1] += qstart[g];
  std::vector<uint32_t> qnext(qstart.begin(), qstart.end() - 1);
  std::vector<uint32_t> qmsg(M);
  {
    std::vector<uint32_t> fill = qnext;
    for (uint32_t i = 0; i < M; ++i) qmsg[fill[t.messages[i].src]++] = i;
  }
  // Messages not yet injected, per chip (lets the injector skip drained chips).
  std::vector<uint32_t> chip_pending(chips, 0);
  for (uint32_t x = 0; x < chips; ++x) chip_pending[x] = qstart[(x + 1) * P] - qstart[x * P];

  // Heart rows, flat: chip x's rows are [x*b, x*b + cnt[x]).
  std::vector<uint32_t> row_msg(static_cast<size_t>(chips) * b, kNone);
  std::vector<uint32_t> row_addr(static_cast<size_t>(chips) * b, 0);
  std::vector<int> cnt(chips, 0);
  std::vector<uint32_t> out_msg(chips, kNone);
  std::vector<uint32_t> out_addr(chips, 0);

  // Counters, flat.
  std::vector<uint64_t> c_injected(chips, 0), c_delivered(chips, 0), c_desperation(chips, 0);
  std::vector<uint64_t> c_busy(static_cast<size_t>(chips) * c, 0);

  // OR-combining accumulators, per local processor.
  std::vector<uint64_t> acc_data(P, 0);
  std::vector<uint32_t> acc_vp(P, 0);
  std::vector<int> acc_n(P, 0);

  Cm1RunResult res;
  res.deliveries.reserve(M);
  uint64_t delivered_total = 0;
  uint64_t crossings = 0;
  uint64_t petit = 0;

  auto trace = [&](Cm1Stage stage, int column) {
    Cm1TraceEvent ev;
    ev.petit = petit;
    ev.stage = stage;
    ev.column = column;
    for (uint32_t x = 0; x < chips; ++x) {
      ev.chip = static_cast<int>(x);
      ev.rows.clear();
      const size_t base = static_cast<size_t>(x) * b;
      for (int r = 0; r < cnt[x]; ++r) ev.rows.push_back({row_msg[base + r], row_addr[base + r]});
      opt.trace(ev);
    }
  };

  while (delivered_total < M && petit < opt.max_petit) {
    // 1. Injector.
    for (uint32_t x = 0; x < chips; ++x) {
      if (chip_pending[x] == 0) continue;
      int n = cnt[x];
      if (n >= b) continue;
      const size_t base = static_cast<size_t>(x) * b;
      for (uint32_t lp = 0; lp < P && n < b; ++lp) {
        const uint32_t g = x * P + lp;
        if (qnext[g] == qstart[g + 1]) continue;
        const uint32_t m = qmsg[qnext[g]++];
        const Message& msg = t.messages[m];
        row_msg[base + n] = m;
        row_addr[base + n] = (msg.src >> pbits) ^ (msg.dst >> pbits);
        ++n;
        ++c_injected[x];
        --chip_pending[x];
      }
      cnt[x] = n;
    }
    if (opt.trace) trace(Cm1Stage::kInjected, -1);

    // 2. Heart: one column per dimension; all chips decide, then all crossings land.
    for (int i = 0; i < c; ++i) {
      const uint32_t bit = uint32_t{1} << i;
      for (uint32_t x = 0; x < chips; ++x) {
        const int n = cnt[x];
        const size_t base = static_cast<size_t>(x) * b;
        uint32_t* addr = &row_addr[base];
        int r = 0;
        while (r < n && !(addr[r] & bit)) ++r;
        if (r == n) {
          if (n < b) {
            out_msg[x] = kNone;
            continue;
          }
          r = b - 1;  // desperation routing: all rows full, nobody wants dimension i
          ++c_desperation[x];
        }
        uint32_t* msg = &row_msg[base];
        out_msg[x] = msg[r];
        out_addr[x] = addr[r] ^ bit;
        for (int j = r + 1; j < n; ++j) {
          msg[j - 1] = msg[j];
          addr[j - 1] = addr[j];
        }
        cnt[x] = n - 1;
        c_busy[static_cast<size_t>(x) * c + i] += len;
        ++crossings;
      }
      for (uint32_t x = 0; x < chips; ++x) {
        const uint32_t y = x ^ bit;
        if (out_msg[y] == kNone) continue;
        const size_t at = static_cast<size_t>(x) * b + cnt[x];
        row_msg[at] = out_msg[y];
        row_addr[at] = out_addr[y];
        ++cnt[x];
      }
      if (opt.trace) trace(Cm1Stage::kColumn, i);
    }

    // 3. Ejector.
    for (uint32_t x = 0; x < chips; ++x) {
      const int n = cnt[x];
      if (n == 0) continue;
      const size_t base = static_cast<size_t>(x) * b;
      uint32_t* msg = &row_msg[base];
      uint32_t* addr = &row_addr[base];
      int kept = 0;
      if (or_mode) {
        bool any = false;
        for (int r = 0; r < n; ++r) {
          if (addr[r] != 0) continue;
          const Message& m = t.messages[msg[r]];
          const uint32_t lp = m.dst & (P - 1);
          acc_data[lp] |= m.data;
          acc_vp[lp] |= m.vp;
          ++acc_n[lp];
          any = true;
        }
        if (!any) continue;
        for (int r = 0; r < n; ++r) {
          if (addr[r] != 0) {
            msg[kept] = msg[r];
            addr[kept] = addr[r];
            ++kept;
            continue;
          }
          const uint32_t lp = t.messages[msg[r]].dst & (P - 1);
          Cm1Delivery d;
          d.msg = msg[r];
          d.petit = petit;
          d.rx_vp = acc_vp[lp];
          d.rx_data = acc_data[lp];
          d.combined = acc_n[lp];
          res.deliveries.push_back(d);
        }
        const int ndel = n - kept;
        for (size_t k = res.deliveries.size() - ndel; k < res.deliveries.size(); ++k) {
          const uint32_t lp = t.messages[res.deliveries[k].msg].dst & (P - 1);
          acc_data[lp] = 0;
          acc_vp[lp] = 0;
          acc_n[lp] = 0;
        }
      } else {
        int r = 0;
        while (r < n && addr[r] != 0) ++r;
        if (r == n) continue;
        const Message& m = t.messages[msg[r]];
        Cm1Delivery d;
        d.msg = msg[r];
        d.petit = petit;
        d.rx_vp = m.vp;
        d.rx_data = m.data;
        d.combined = 1;
        res.deliveries.push_back(d);
        for (int j = r + 1; j < n; ++j) {
          msg[j - 1] = msg[j];
          addr[j - 1] = addr[j];
        }
        kept = n - 1;
      }
      c_delivered[x] += static_cast<uint64_t>(n - kept);
      delivered_total += static_cast<uint64_t>(n - kept);
      cnt[x] = kept;
    }
    if (opt.trace) trace(Cm1Stage::kBuffered, -1);
    ++petit;
  }

  res.petit_cycles = petit;
  res.completed = delivered_total == M;
  res.bit_times = static_cast<uint64_t>(p.delivery_bit_times(static_cast<int64_t>(petit)));
  res.crossings = crossings;
  res.chips.resize(chips);
  for (uint32_t x = 0; x < chips; ++x) {
    Cm1ChipCounters& k = res.chips[x];
    k.injected = c_injected[x];
    k.delivered = c_delivered[x];
    k.desperation = c_desperation[x];
    k.petit_cycles = petit;
    k.parity_errors = 0;
    k.dim_busy.assign(c_busy.begin() + static_cast<ptrdiff_t>(x) * c,
                      c_busy.begin() + static_cast<ptrdiff_t>(x + 1) * c);
    res.desperation += c_desperation[x];
  }
  return res;
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
