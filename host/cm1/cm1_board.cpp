#include "host/cm1/cm1_board.h"

#include <algorithm>
#include <map>
#include <string>

#include "gen/cm1/cm1_counter_list.h"
#include "host/board_blocks.h"
#include "host/errors.h"
#include "sim/cm1/cm1_counters.h"
#include "sim/cm1/oracle/cm1_oracle.h"

namespace cmnet {

Cm1Board::Cm1Board(RegisterPort& port) : c_(port) {
  using namespace cm1reg;
  const BoardHeader h = discover_board(c_);
  info_.clock_hz = h.clock_hz;
  info_.link = h.link;
  info_.config_id = h.config_id;
  info_.cm1_base = find_block(h, c_, kCm1Type, cm1map::kBlockVersion, "CM-1").base;
  const auto w = c_.burst_read(reg(kC), 11);
  Cm1Params& p = info_.params;
  p.cube_dims = static_cast<int>(w[0]);
  p.rows = static_cast<int>(w[1]);
  p.procs_per_chip = static_cast<int>(w[2]);
  p.vp_bits = static_cast<int>(w[3]);
  p.data_bits = static_cast<int>(w[4]);
  info_.msg_len = static_cast<int>(w[5]);
  info_.petit_period = static_cast<int>(w[6]);
  info_.queue_depth = static_cast<int>(w[7]);
  info_.ncounters = static_cast<int>(w[8]);
  info_.cnt_stride = static_cast<int>(w[9]);
  info_.ep_hist = w[10];
  p.queue_depth = info_.queue_depth;
  if (p.cube_dims < 1 || p.cube_dims > 16 || info_.msg_len != p.msg_len() ||
      info_.petit_period != p.petit_period() || info_.ncounters < cm1_counter_count(p.cube_dims) ||
      info_.cnt_stride < info_.ncounters || (info_.cnt_stride & (info_.cnt_stride - 1)) != 0)
    throw HostError(HostErrorKind::ProtocolError,
                    c_.name() + ": the CM-1 block's parameters are inconsistent (c=" +
                        std::to_string(p.cube_dims) + ", l=" + std::to_string(info_.msg_len) + ")");
}

void Cm1Board::check_matches(const Cm1Params& want) const {
  const Cm1Params& have = info_.params;
  auto cmp = [&](const char* name, int a, int b) {
    if (a != b)
      throw HostError(HostErrorKind::ProtocolError,
                      c_.name() + ": wrong board: it has " + name + " = " + std::to_string(a) +
                          ", the config says " + std::to_string(b));
  };
  cmp("cube_dims", have.cube_dims, want.cube_dims);
  cmp("rows", have.rows, want.rows);
  cmp("procs_per_chip", have.procs_per_chip, want.procs_per_chip);
  cmp("vp_bits", have.vp_bits, want.vp_bits);
  cmp("data_bits", have.data_bits, want.data_bits);
}

void Cm1Board::clear() { c_.write32(reg(cm1reg::kControl), 0x2); }

void Cm1Board::load(const Traffic& t) {
  const Cm1Params& p = info_.params;
  check_traffic(t, p, c_.name());
  std::map<uint32_t, int> per_src;
  for (const Message& m : t.messages) {
    if (++per_src[m.src] > info_.queue_depth)
      throw HostError(HostErrorKind::ProtocolError,
                      "the pattern has more than " + std::to_string(info_.queue_depth) +
                          " messages for processor " + std::to_string(m.src) +
                          ", the board's endpoint queues hold " +
                          std::to_string(info_.queue_depth) +
                          " (generate the board with a larger queue_depth)");
  }
  const uint32_t taken0 = c_.read32(reg(cm1reg::kLoad));
  const uint32_t drops0 = c_.read32(reg(cm1reg::kLoadDrops));
  const bool wide = p.data_bits > 32;
  std::vector<uint32_t> words;
  for (const Message& m : t.messages) {
    words.push_back(m.src);
    words.push_back(m.dst);
    words.push_back(m.vp);
    words.push_back(static_cast<uint32_t>(m.data));
    if (wide) words.push_back(static_cast<uint32_t>(m.data >> 32));
  }
  // A FIFO burst must not be re-sent: a retry after a lost reply would load twice. The
  // taken/dropped check below catches a partial load instead. (A memory-mapped port never
  // re-sends: set_retries is a no-op there.)
  const int retries = c_.retries();
  c_.set_retries(0);
  try {
    if (!words.empty()) c_.burst_write(reg(cm1reg::kLoad), words, /*fifo=*/true);
  } catch (...) {
    c_.set_retries(retries);
    throw;
  }
  c_.set_retries(retries);
  const uint32_t taken = c_.read32(reg(cm1reg::kLoad)) - taken0;
  const uint32_t drops = c_.read32(reg(cm1reg::kLoadDrops)) - drops0;
  if (taken != words.size() || drops != 0)
    throw HostError(HostErrorKind::ProtocolError,
                    c_.name() + ": loading the pattern: the board took " + std::to_string(taken) +
                        " of " + std::to_string(words.size()) + " words and dropped " +
                        std::to_string(drops) + " messages");
}

void Cm1Board::generate(uint32_t pattern, uint32_t count, uint32_t seed) {
  if (count > static_cast<uint32_t>(info_.queue_depth))
    throw HostError(HostErrorKind::ProtocolError,
                    "generator: " + std::to_string(count) + " messages per processor, the board's "
                    "endpoint queues hold " + std::to_string(info_.queue_depth));
  c_.write32(reg(cm1reg::kGenCount), count);
  c_.write32(reg(cm1reg::kGenSeed), seed);
  c_.write32(reg(cm1reg::kGen), (pattern & 7u) | 0x100u);
  // One message per cycle: done long before the next register read returns; bounded anyway.
  for (int i = 0; i < 1000; ++i)
    if ((c_.read32(reg(cm1reg::kGen)) & 1u) == 0) return;
  throw HostError(HostErrorKind::Timeout, c_.name() + ": the traffic generator did not finish");
}

void Cm1Board::start(EjectMode mode) {
  c_.write32(reg(cm1reg::kControl), 0x1u | (mode == EjectMode::kOnePerPetit ? 0x4u : 0u));
}

Cm1BoardStatus Cm1Board::status() {
  const auto w = c_.burst_read(reg(cm1reg::kStatus), 3);
  Cm1BoardStatus s;
  s.running = w[0] & 1u;
  s.pending = w[0] & 2u;
  s.buffered = w[0] & 4u;
  s.hist_overrun = w[0] & 16u;
  s.petit = w[1];
  s.cycles = w[2];
  return s;
}

std::vector<Cm1ChipCounters> Cm1Board::counters() {
  const Cm1Params& p = info_.params;
  const int n = info_.cnt_stride;
  const auto w = c_.burst_read(cm1reg::kCounters, static_cast<size_t>(p.chips() * n));
  std::vector<Cm1ChipCounters> out(static_cast<size_t>(p.chips()));
  for (int chip = 0; chip < p.chips(); ++chip) {
    out[static_cast<size_t>(chip)] = cm1_counters_from_words(p, &w[static_cast<size_t>(chip * n)], static_cast<size_t>(n));
  }
  return out;
}

std::vector<Cm1RxCheck> Cm1Board::receptions() {
  const size_t np = static_cast<size_t>(info_.params.processors());
  const auto w = c_.burst_read(cm1reg::kReceptions, np * 4);
  std::vector<Cm1RxCheck> out(np);
  for (size_t g = 0; g < np; ++g) out[g] = {w[4 * g], w[4 * g + 1], w[4 * g + 2], w[4 * g + 3]};
  return out;
}

std::array<uint32_t, 16> Cm1Board::histogram() {
  const auto w = c_.burst_read(reg(cm1reg::kHist), 16);
  std::array<uint32_t, 16> h{};
  for (size_t i = 0; i < 16; ++i) h[i] = w[i];
  return h;
}

std::vector<std::array<uint32_t, 16>> Cm1Board::endpoint_histograms() {
  const size_t np = static_cast<size_t>(info_.params.processors());
  const auto w = c_.burst_read(info_.ep_hist, np * 16);
  std::vector<std::array<uint32_t, 16>> out(np);
  for (size_t g = 0; g < np; ++g)
    for (size_t k = 0; k < 16; ++k) out[g][k] = w[g * 16 + k];
  return out;
}

std::vector<std::array<uint32_t, 16>> expected_endpoint_histograms(const Cm1Params& p,
                                                                   const Traffic& t,
                                                                   const Cm1RunResult& r) {
  std::vector<std::array<uint32_t, 16>> out(static_cast<size_t>(p.processors()));
  // One reception per (petit, destination processor), as in expected_rx_checks.
  std::map<std::pair<uint64_t, uint32_t>, bool> rx;
  for (const Cm1Delivery& d : r.deliveries) rx[{d.petit, t.messages.at(d.msg).dst}] = true;
  for (const auto& [key, unused] : rx) {
    (void)unused;
    ++out.at(key.second)[std::min<uint64_t>(key.first, 15)];
  }
  return out;
}

std::vector<Cm1RxCheck> expected_rx_checks(const Cm1Params& p, const Traffic& t,
                                           const Cm1RunResult& r) {
  std::vector<Cm1RxCheck> out(static_cast<size_t>(p.processors()));
  // Every message is injected by its source's endpoint before the run ends.
  for (const Message& m : t.messages) ++out.at(m.src).injected;
  // One reception per (petit, destination processor): the OR of its group.
  std::map<std::pair<uint64_t, uint32_t>, uint64_t> rx;
  for (const Cm1Delivery& d : r.deliveries) {
    const uint64_t word = (d.rx_data << p.vp_bits) | d.rx_vp;
    rx[{d.petit, t.messages.at(d.msg).dst}] = word;
  }
  for (const auto& [key, word] : rx) {
    Cm1RxCheck& c = out.at(key.second);
    ++c.count;
    c.xor_word ^= static_cast<uint32_t>(word);
    c.petit_sum += static_cast<uint32_t>(key.first);
  }
  return out;
}

std::vector<std::string> cm1_oracle_disagreements(const Cm1Params& p, const Traffic& t, EjectMode mode,
                                                  const std::vector<Cm1RxCheck>& rx, uint64_t petit_cycles) {
  cm1_oracle::TalliedCycle d;
  d.ejection = mode == EjectMode::kOrCombine ? cm1_oracle::Ejection::kOrCombine : cm1_oracle::Ejection::kOnePerPetit;
  for (const Message& m : t.messages) d.sent.push_back({m.src, m.dst, m.vp, m.data});
  for (const Cm1RxCheck& c : rx) d.processors.push_back({c.count, c.xor_word, c.petit_sum, c.injected});
  d.vp_bits = p.vp_bits;
  d.petit_cycles = petit_cycles;
  return cm1_oracle::disagreements(d);
}

}  // namespace cmnet
