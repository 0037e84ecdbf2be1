#include "host/stream_board.h"

#include <chrono>
#include <optional>
#include <thread>

#include "gen/core/errors.h"
#include "gen/core/stream_regmap.h"
#include "host/errors.h"

namespace cmnet {
namespace {

using namespace streammap;
constexpr uint32_t kLeaves = offset("LEAVES"), kNcounters = offset("NCOUNTERS"), kInfo = offset("INFO"),
                   kInfoWords = offset("INFO_WORDS"), kFifoWords = offset("FIFO_WORDS"),
                   kControl = offset("CONTROL"), kStatus = offset("STATUS"), kCycles = offset("CYCLES"),
                   kTxStream = offset("TX_STREAM"), kTxFree = offset("TX_FREE"), kRxCount = offset("RX_COUNT"),
                   kRxPairs = offset("RX_PAIRS"),
                   kCounters = offset("COUNTERS");

// A write or read that must not be repeated (a FIFO push or pop): no re-sends around it, so a
// lost reply is an error, never a duplicated or lost word.
template <class F>
auto once(RegisterPort& port, F&& f) {
  const int saved = port.retries();
  port.set_retries(0);
  struct Restore {
    RegisterPort& p;
    int r;
    ~Restore() { p.set_retries(r); }
  } restore{port, saved};
  return f();
}

std::string status_text(uint32_t st) {
  std::string s;
  s += (st & 1u) ? "busy" : "not busy";
  s += (st & 2u) ? ", active" : "";
  s += (st & 4u) ? ", words to take" : "";
  s += (st & 8u) ? ", transmit FIFO empty" : ", words to send";
  return s;
}

}  // namespace

StreamBoard::StreamBoard(RegisterPort& port) : port_(port), header_(discover_board(port)) {
  block_ = find_block(header_, port, kBlockType, kBlockVersion, "stream board (STRM)");
  const uint32_t b = block_.base;
  const uint32_t leaves = port.read32(b + kLeaves);
  const uint32_t ncnt = port.read32(b + kNcounters);
  const uint32_t info_at = port.read32(b + kInfo);
  const uint32_t info_words = port.read32(b + kInfoWords);
  fifo_words_ = port.read32(b + kFifoWords);
  if (info_words == 0 || info_words > kMaxInfoWords || ncnt == 0 || ncnt > kMaxCounters)
    throw HostError(HostErrorKind::ProtocolError, port.name() + ": STRM block says " + std::to_string(ncnt) +
                                                      " counters and " + std::to_string(info_words) +
                                                      " info words (out of the register map's range)");
  const std::vector<uint32_t> words = port.burst_read(info_at, info_words);
  std::string text;
  for (uint32_t w : words)
    for (int k = 0; k < 4; ++k) {
      const char c = static_cast<char>((w >> (8 * k)) & 0xFF);
      if (c == 0) goto done;
      text += c;
    }
done:
  info_ = parse_stream_info(text, port.name());
  if (info_.leaves != leaves || info_.counters.size() != ncnt)
    throw HostError(HostErrorKind::ProtocolError,
                    port.name() + ": the info ROM describes " + std::to_string(info_.leaves) + " leaves and " +
                        std::to_string(info_.counters.size()) + " counters, the registers say " +
                        std::to_string(leaves) + " and " + std::to_string(ncnt));
}

void StreamBoard::set_run(bool run) { port_.write32(block_.base + kControl, run ? 1u : 0u); }

void StreamBoard::clear() {
  const uint32_t run = port_.read32(block_.base + kControl) & 1u;
  port_.write32(block_.base + kControl, run | 2u);
}

uint32_t StreamBoard::status() { return port_.read32(block_.base + kStatus); }
uint64_t StreamBoard::cycles() { return port_.read32(block_.base + kCycles); }
uint32_t StreamBoard::tx_free() { return port_.read32(block_.base + kTxFree); }

void StreamBoard::send(const StreamUnit& u) { send(std::vector<StreamUnit>{u}); }

void StreamBoard::send(const std::vector<StreamUnit>& units) {
  std::vector<uint32_t> records;
  for (const StreamUnit& u : units) {
    if (u.words.empty() || u.words.size() > 0xFFFF)
      throw InputError("stream board: a unit of " + std::to_string(u.words.size()) + " words for leaf " +
                       std::to_string(u.leaf) + " (allowed: 1..65535)");
    if (u.leaf >= info_.leaves)
      throw InputError("stream board: leaf " + std::to_string(u.leaf) + " out of range 0.." +
                       std::to_string(info_.leaves - 1));
    records.push_back(static_cast<uint32_t>(u.words.size()) << 16 | u.leaf);
    records.insert(records.end(), u.words.begin(), u.words.end());
  }
  if (records.empty()) return;
  try {
    once(port_, [&] {
      port_.burst_write(block_.base + kTxStream, records, true);
      return 0;
    });
  } catch (const HostError& e) {
    // The burst stopped part way: start the next one at a header again.
    try {
      const uint32_t run = port_.read32(block_.base + kControl) & 1u;
      port_.write32(block_.base + kControl, run | 4u);
    } catch (const HostError&) {
      // the link itself failed: the first error says so
    }
    throw HostError(e.kind(), port_.name() + ": " + std::to_string(units.size()) + " unit(s) for leaf " +
                                  std::to_string(units.front().leaf) + (units.size() > 1 ? " and on" : "") +
                                  " were not taken (transmit FIFO full?): " + e.what(),
                    e.status());
  }
}

std::vector<StreamUnit> StreamBoard::receive() {
  std::vector<StreamUnit> out;
  const uint32_t b = block_.base;
  uint32_t n = port_.read32(b + kRxCount);
  while (n > 0) {
    // RX_PAIRS in FIFO bursts: the head's leaf and last flag, then the word (taken). Reading
    // RX_COUNT first restarts the pairs.
    const std::vector<uint32_t> w = once(port_, [&] { return port_.burst_read(b + kRxPairs, 2 * size_t{n}, true); });
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t meta = w[2 * i];
      if (!(meta >> 31))
        throw HostError(HostErrorKind::ProtocolError, port_.name() + ": RX_COUNT said words wait but RX_PAIRS is empty");
      const uint32_t leaf = meta & 0xFFFF;
      const bool last = (meta >> 30) & 1u;
      if (have_partial_ && partial_.leaf != leaf)
        throw HostError(HostErrorKind::ProtocolError,
                        port_.name() + ": a unit from leaf " + std::to_string(partial_.leaf) +
                            " was interleaved with words from leaf " + std::to_string(leaf));
      partial_.leaf = leaf;
      partial_.words.push_back(w[2 * i + 1]);
      have_partial_ = true;
      if (last) {
        out.push_back(std::move(partial_));
        partial_ = StreamUnit{};
        have_partial_ = false;
      }
    }
    n = port_.read32(b + kRxCount);
  }
  return out;
}

std::vector<CounterReading> StreamBoard::counters() {
  const std::vector<uint32_t> v = port_.burst_read(kCounters, info_.counters.size());
  std::vector<CounterReading> out;
  for (size_t i = 0; i < v.size(); ++i) out.push_back({info_.counters[i], v[i]});
  return out;
}

std::vector<RegionCount> StreamBoard::regions(const std::vector<CounterReading>& c) const {
  std::vector<RegionCount> r(info_.regions.size());
  std::vector<bool> used(r.size(), false);
  for (size_t i = 0; i < r.size(); ++i) r[i].region = info_.regions[i];
  for (const CounterReading& x : c) {
    RegionCount& rc = r.at(x.counter.region);
    switch (x.counter.kind) {
      case CounterKind::In: rc.injected += x.value; used[x.counter.region] = true; break;
      case CounterKind::Out: rc.delivered += x.value; used[x.counter.region] = true; break;
      case CounterKind::Held: rc.in_flight += x.value; used[x.counter.region] = true; break;
      case CounterKind::Other: break;
    }
  }
  std::vector<RegionCount> out;
  for (size_t i = 0; i < r.size(); ++i)
    if (used[i]) out.push_back(r[i]);
  return out;
}

void check_units_per_run(const StreamInfo& info, uint64_t units) {
  // Narrow counters wrap: a unit adds at most one to each, so a run is bounded by its units.
  const uint64_t most = (uint64_t{1} << info.counter_bits) - 1;  // counter_bits <= 32 (the info parser)
  if (units > most)
    throw InputError("stream board: a run of " + std::to_string(units) + " units, but the board's counters are " +
                     std::to_string(info.counter_bits) + " bits: at most " + std::to_string(most) +
                     " units a run (split the workload into runs)");
}

StreamRunResult run_units(StreamBoard& board, const std::vector<StreamUnit>& units, size_t expect_units,
                          const StreamRunOptions& opt) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  StreamRunResult res;
  board.set_run(false);
  board.clear();
  size_t next = 0;
  auto last_progress = clock::now();
  auto stalled = [&] {
    return std::chrono::duration<double>(clock::now() - last_progress).count() > opt.timeout_s;
  };
  // Pulled units: the one pulled but not yet sent, and whether the source is exhausted.
  std::optional<StreamUnit> pulled;
  bool pull_done = !opt.pull;
  if (opt.pull && !units.empty()) throw InputError("stream board: a run gives units either as a list or by pull");
  check_units_per_run(board.info(), units.size());
  auto have_next = [&]() -> const StreamUnit* {
    if (!opt.pull) return next < units.size() ? &units[next] : nullptr;
    if (!pulled && !pull_done) {
      StreamUnit u;
      const int r = opt.pull(res.delivered, u);
      if (r > 0) pulled = std::move(u);
      if (r < 0) pull_done = true;
    }
    return pulled ? &*pulled : nullptr;
  };
  auto send_what_fits = [&] {
    uint32_t free = board.tx_free();
    std::vector<StreamUnit> batch;  // as many units as fit, in one burst
    for (const StreamUnit* u = have_next(); u && u->words.size() <= free; u = have_next()) {
      if (opt.pull) check_units_per_run(board.info(), next + 1);
      free -= static_cast<uint32_t>(u->words.size());
      batch.push_back(*u);
      ++next;
      pulled.reset();
    }
    board.send(batch);
    const bool sent = !batch.empty();
    if (const StreamUnit* u = have_next(); u && u->words.size() > board.fifo_words())
      throw InputError("stream board: unit " + std::to_string(next) + " has " +
                       std::to_string(u->words.size()) + " words, more than the transmit FIFO's " +
                       std::to_string(board.fifo_words()));
    return sent;
  };
  if (opt.load_before_run) send_what_fits();
  board.set_run(true);
  size_t polls = 0;
  for (;;) {
    bool moved = send_what_fits();
    auto got = board.receive();
    if (!got.empty()) moved = true;
    for (auto& u : got) res.delivered.push_back(std::move(u));
    if (moved) last_progress = clock::now();
    if (opt.progress && (moved || ++polls % 64 == 0)) opt.progress(next, res.delivered.size());
    const bool all_sent = opt.pull ? pull_done && !pulled : next == units.size();
    if (all_sent && (expect_units == 0 || res.delivered.size() >= expect_units)) {
      const uint32_t st = board.status();
      const bool idle = !(st & 1u) && (st & 8u) && !(st & 4u);  // not busy, tx empty, rx empty
      if (idle) {
        auto tail = board.receive();  // anything that came since
        for (auto& u : tail) res.delivered.push_back(std::move(u));
        if (tail.empty()) break;
      }
    }
    if (stalled())
      throw HostError(HostErrorKind::Timeout,
                      "stream board: nothing moved for " + std::to_string(opt.timeout_s) + " s: sent " +
                          std::to_string(next) + (opt.pull ? std::string() : " of " + std::to_string(units.size())) +
                          " units, received " +
                          std::to_string(res.delivered.size()) +
                          (expect_units ? " of " + std::to_string(expect_units) : std::string()) +
                          ", board status " + status_text(board.status()));
    if (!moved) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  res.sent = next;
  res.counters = board.counters();
  res.cycles = board.cycles();
  board.set_run(false);
  res.host_seconds = std::chrono::duration<double>(clock::now() - t0).count();
  if (opt.progress) opt.progress(next, res.delivered.size());
  return res;
}

}  // namespace cmnet
