#include "sim/cm5data/cm5data_rtl.h"

#include <unistd.h>

#include <cinttypes>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

#include "gen/cm5data/cm5data_emitter.h"
#include "sim/core/harness_run.h"
#include "sim/core/rtl_build.h"

namespace cmnet {
namespace fs = std::filesystem;

std::vector<uint32_t> cm5_expected_words(const Cm5DataParams& p, const Cm5DataMessage& m) {
  std::vector<uint32_t> w = cm5_message_words(p, m);
  w[0] &= ~0xF0u;  // U arrives as 0 (the message climbed exactly to its LCA)
  return w;
}

namespace {

constexpr size_t kNone = std::numeric_limits<size_t>::max();
constexpr uint64_t kNotSent = std::numeric_limits<uint64_t>::max();

struct HarnessRx {
  uint32_t leaf = 0;
  uint64_t cycle = 0;
  std::vector<uint32_t> words;
};

// One harness run's records, the messages numbered as in the traffic.
struct HarnessOut {
  std::vector<uint64_t> sent;  // per traffic message: its tx cycle, kNotSent if none
  std::vector<HarnessRx> rx;   // in the order the harness reported them
  uint64_t cycles = 0;
  bool completed = false;
  double seconds = 0;
  std::vector<Cm5DataChipCounters> chips;
  uint64_t malformed = 0;      // rx records of fewer than 2 words
};

// What the CRC covers and a leaf can compare: the head without U and mark, the data words.
std::vector<uint32_t> content_key(std::vector<uint32_t> w) {
  w.pop_back();
  w[0] &= kCm5HeadCrcMask;
  return w;
}

HarnessOut run_once(const Cm5DataConfig& cfg, const Cm5DataTraffic& t, const Cm5DataRtlOptions& opt) {
  const Cm5DataParams& p = cfg.cm5;
  const GeneratedDesign design = emit_cm5data(cfg);
  const std::string exe =
      build_verilated_model(design, "cm5data_network", std::string(CMNET_SOURCE_DIR) + "/sim/cm5data/cm5data_network_main.cpp",
                            {}, {}, opt.trace.on() ? trace_flags() : std::vector<std::string>{});
  std::ostringstream in;
  std::vector<size_t> sent_index;  // the harness's message number -> the traffic's
  in << "params " << p.leaves() << ' ' << p.link_bits << ' ' << p.link_credits() << ' ' << opt.max_cycles << '\n';
  if (p.slots > 0) in << "slots " << p.slots << '\n';
  for (uint32_t c = 0; c < p.total_chips(); ++c) in << "chip " << 4 + p.parents_at(cm5_chip_pos(p, c).level) << '\n';
  for (size_t c = 0; c < opt.afd_at.size(); ++c)
    if (opt.afd_at[c] != kCm5Never) in << "afd " << c << ' ' << opt.afd_at[c] << '\n';
  // Messages from or to a mapped-out leaf are refused at the sender's interface, as in the model.
  for (size_t i = 0; i < t.messages.size(); ++i) {
    const Cm5DataMessage& m = t.messages[i];
    if (cm5_refused(p, m)) continue;
    sent_index.push_back(i);
    const auto w = cm5_message_words(p, m);
    in << "msg " << m.src << ' ' << m.inject_at << ' ' << w.size() << std::hex;
    for (uint32_t x : w) in << ' ' << x;
    in << std::dec << '\n';
  }
  const HarnessRunResult run_out = run_harness("cm5data RTL harness", exe, in.str(), opt.timeout_s, opt.trace.env());
  HarnessOut h;
  h.sent.assign(t.messages.size(), kNotSent);
  h.chips.resize(p.total_chips());
  std::istringstream out(run_out.out);
  std::string kind;
  while (out >> kind) {
    if (kind == "tx") {
      size_t m = 0;
      uint64_t cyc = 0;
      out >> m >> cyc;
      h.sent.at(sent_index.at(m)) = cyc;
    } else if (kind == "rx") {
      HarnessRx x;
      size_t n = 0;
      out >> x.leaf >> x.cycle >> n;
      x.words.resize(n);
      out >> std::hex;
      for (auto& w : x.words) out >> w;
      out >> std::dec;
      if (x.words.size() < 2) {
        ++h.malformed;
        continue;
      }
      h.rx.push_back(std::move(x));
    } else if (kind == "done") {
      int completed = 0;
      out >> h.cycles >> completed;
      h.completed = completed != 0;
    } else if (kind == "speed") {
      uint64_t cyc = 0;
      out >> cyc >> h.seconds;
    } else if (kind == "cnt") {
      size_t c = 0;
      out >> c;
      const int ni = 4 + p.parents_at(cm5_chip_pos(p, static_cast<uint32_t>(c)).level);
      Cm5DataChipCounters& k = h.chips.at(c);
      k.in.resize(static_cast<size_t>(ni));
      k.out.resize(static_cast<size_t>(ni));
      for (auto& v : k.in) out >> v;
      for (auto& v : k.out) out >> v;
      out >> k.crc_primary >> k.crc_secondary;
    } else {
      throw std::runtime_error("cm5data RTL harness output: unknown record '" + kind + "'");
    }
  }
  return h;
}

// Per rx record, the traffic message it was (kNone: none) and whether that is a guess.
struct Matching {
  std::vector<size_t> msg;
  std::vector<uint8_t> ambiguous;
  std::vector<uint8_t> copy;  // a further delivery of a message already matched
  bool any_ambiguous = false;
};

// By content: among the unmatched messages with the record's key sent before it arrived, the
// earliest sent (a guess when there are several: the leaves cannot tell them apart); failing
// that (corrupted on the way), the unmatched message of the same length it differs least from;
// failing that, a copy of a matched message with its key.
Matching match_by_content(const Cm5DataTraffic& t, const Cm5DataParams& p, const HarnessOut& h) {
  std::vector<std::vector<uint32_t>> keys(t.messages.size());
  std::map<std::vector<uint32_t>, std::vector<size_t>> by_key;  // in traffic order
  std::vector<uint8_t> taken(t.messages.size(), 0);
  for (size_t i = 0; i < t.messages.size(); ++i) {
    keys[i] = content_key(cm5_message_words(p, t.messages[i]));
    by_key[keys[i]].push_back(i);
    taken[i] = h.sent[i] == kNotSent;
  }
  Matching mt;
  mt.msg.assign(h.rx.size(), kNone);
  mt.ambiguous.assign(h.rx.size(), 0);
  mt.copy.assign(h.rx.size(), 0);
  static const std::vector<size_t> kNoMessages;
  for (size_t r = 0; r < h.rx.size(); ++r) {
    const std::vector<uint32_t> k = content_key(h.rx[r].words);
    const auto it = by_key.find(k);
    const std::vector<size_t>& same = it == by_key.end() ? kNoMessages : it->second;
    size_t m = kNone, candidates = 0;
    for (size_t i : same) {
      if (taken[i] || h.sent[i] > h.rx[r].cycle) continue;
      ++candidates;
      if (m == kNone || h.sent[i] < h.sent[m]) m = i;
    }
    if (m == kNone) {
      size_t best = 3;
      for (size_t i = 0; i < t.messages.size(); ++i) {
        if (taken[i] || keys[i].size() != k.size()) continue;
        size_t d = 0;
        for (size_t j = 0; j < k.size(); ++j) d += keys[i][j] != k[j];
        if (d < best) {
          best = d;
          m = i;
        }
      }
    }
    if (m == kNone) {
      for (size_t i : same)
        if (h.sent[i] != kNotSent && h.sent[i] <= h.rx[r].cycle) {
          mt.msg[r] = i;
          mt.copy[r] = 1;
          mt.ambiguous[r] = same.size() > 1;
          break;
        }
      continue;
    }
    taken[m] = 1;
    mt.msg[r] = m;
    mt.ambiguous[r] = candidates > 1;
    mt.any_ambiguous |= candidates > 1;
  }
  return mt;
}

// Equal messages in flight together: run again with each message's first data word replaced by
// its traffic index (a simulation-only id the message carries through the network). Nothing in
// a chip or a leaf looks at data words for timing, so the second run's records come at the same
// leaves and cycles; when they do, its (now unique) contents name each record of the first run.
// When they do not, the first run's guesses stand, marked ambiguous.
Matching identify(const Cm5DataConfig& cfg, const Cm5DataTraffic& t, const Cm5DataRtlOptions& opt, const HarnessOut& h,
                  Matching guess) {
  Cm5DataTraffic tagged = t;
  for (size_t i = 0; i < tagged.messages.size(); ++i) tagged.messages[i].data.at(0) = static_cast<uint32_t>(i);
  Cm5DataRtlOptions o = opt;
  o.trace = {};  // the waveform is the first run's
  const HarnessOut h2 = run_once(cfg, tagged, o);
  if (h2.sent != h.sent || h2.rx.size() != h.rx.size()) return guess;
  for (size_t r = 0; r < h.rx.size(); ++r)
    if (h2.rx[r].leaf != h.rx[r].leaf || h2.rx[r].cycle != h.rx[r].cycle) return guess;
  Matching exact = match_by_content(tagged, cfg.cm5, h2);
  return exact.any_ambiguous ? guess : exact;
}

}  // namespace

Cm5DataRunResult run_cm5data_rtl(const Cm5DataConfig& cfg, const Cm5DataTraffic& t, const Cm5DataRtlOptions& opt) {
  const Cm5DataParams& p = cfg.cm5;
  check_cm5_traffic(t, p, "rtl traffic");
  const HarnessOut h = run_once(cfg, t, opt);
  Matching mt = match_by_content(t, p, h);
  if (mt.any_ambiguous) mt = identify(cfg, t, opt, h, mt);
  Cm5DataRunResult r;
  r.deliveries.resize(t.messages.size());
  r.chips = h.chips;
  r.cycles = h.cycles;
  r.completed = h.completed;
  r.seconds = h.seconds;
  r.kirchhoff_violations = h.malformed;
  for (size_t i = 0; i < t.messages.size(); ++i) {
    if (cm5_refused(p, t.messages[i])) {
      r.deliveries[i].refused = true;
      ++r.refused;
    } else if (h.sent[i] != kNotSent) {
      r.deliveries[i].sent = h.sent[i];
      ++r.leaf_injected;
    }
  }
  for (size_t k = 0; k < h.rx.size(); ++k) {
    if (mt.msg[k] == kNone || mt.copy[k]) {
      // Not a message of the traffic, or a duplicate: count it against the network.
      ++r.kirchhoff_violations;
      if (mt.msg[k] != kNone) ++r.deliveries[mt.msg[k]].copies;
      continue;
    }
    Cm5DataDelivery& d = r.deliveries[mt.msg[k]];
    d.delivered = true;
    d.copies = 1;
    d.arrived = h.rx[k].cycle;
    d.at_leaf = h.rx[k].leaf;
    d.words = h.rx[k].words;
    d.crc = cm5_crc_status(d.words, p.link_bits);
    d.crc_ok = d.crc == Cm5Crc::ok;
    d.ambiguous = mt.ambiguous[k] != 0;
    ++r.delivered;
  }
  return r;
}

}  // namespace cmnet
