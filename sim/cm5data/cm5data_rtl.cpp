#include "sim/cm5data/cm5data_rtl.h"

#include <unistd.h>

#include <cinttypes>
#include <filesystem>
#include <fstream>
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

Cm5DataRunResult run_cm5data_rtl(const Cm5DataConfig& cfg, const Cm5DataTraffic& t, const Cm5DataRtlOptions& opt) {
  const Cm5DataParams& p = cfg.cm5;
  check_cm5_traffic(t, p, "rtl traffic");
  const GeneratedDesign design = emit_cm5data(cfg);
  const std::string exe =
      build_verilated_model(design, "cm5data_network", std::string(CMNET_SOURCE_DIR) + "/sim/cm5data/cm5data_network_main.cpp",
                            {}, {}, opt.trace.on() ? trace_flags() : std::vector<std::string>{});
  std::ostringstream in;
  {
    in << "params " << p.leaves() << ' ' << p.link_bits << ' ' << p.link_credits() << ' ' << opt.max_cycles << '\n';
    if (p.slots > 0) in << "slots " << p.slots << '\n';
    for (uint32_t c = 0; c < p.total_chips(); ++c) in << "chip " << 4 + p.parents_at(cm5_chip_pos(p, c).level) << '\n';
    for (size_t c = 0; c < opt.afd_at.size(); ++c)
      if (opt.afd_at[c] != kCm5Never) in << "afd " << c << ' ' << opt.afd_at[c] << '\n';
    // Messages from or to a mapped-out leaf are refused at the sender's interface, as in the model.
    for (const Cm5DataMessage& m : t.messages) {
      if (cm5_refused(p, m)) continue;
      const auto w = cm5_message_words(p, m);
      in << "msg " << m.src << ' ' << m.inject_at << ' ' << w.size() << std::hex;
      for (uint32_t x : w) in << ' ' << x;
      in << std::dec << '\n';
    }
  }
  const HarnessRunResult run_out = run_harness("cm5data RTL harness", exe, in.str(), opt.timeout_s, opt.trace.env());
  // Messages by their key (head without U and mark, data words), in traffic order.
  auto key = [](std::vector<uint32_t> w) {
    w.pop_back();
    w[0] &= kCm5HeadCrcMask;
    return w;
  };
  std::map<std::vector<uint32_t>, std::vector<size_t>> waiting;
  std::vector<std::vector<uint32_t>> keys(t.messages.size());
  std::vector<uint8_t> matched(t.messages.size(), 0);
  for (size_t i = t.messages.size(); i-- > 0;) {
    keys[i] = key(cm5_message_words(p, t.messages[i]));
    waiting[keys[i]].push_back(i);
  }
  Cm5DataRunResult r;
  r.deliveries.resize(t.messages.size());
  r.chips.resize(p.total_chips());
  std::vector<size_t> sent_index;  // the harness's message number -> the traffic's
  for (size_t i = 0; i < t.messages.size(); ++i) {
    if (cm5_refused(p, t.messages[i])) {
      r.deliveries[i].refused = true;
      ++r.refused;
      matched[i] = 1;
    } else {
      sent_index.push_back(i);
    }
  }
  std::istringstream out(run_out.out);
  std::string kind;
  while (out >> kind) {
    if (kind == "tx") {
      size_t m = 0;
      uint64_t cyc = 0;
      out >> m >> cyc;
      r.deliveries.at(sent_index.at(m)).sent = cyc;
      ++r.leaf_injected;
    } else if (kind == "rx") {
      uint32_t leaf = 0;
      uint64_t cyc = 0;
      size_t n = 0;
      out >> leaf >> cyc >> n;
      std::vector<uint32_t> w(n);
      out >> std::hex;
      for (auto& x : w) out >> x;
      out >> std::dec;
      if (w.size() < 2) {
        ++r.kirchhoff_violations;
        continue;
      }
      const std::vector<uint32_t> k = key(w);
      auto it = waiting.find(k);
      size_t m = t.messages.size();
      while (it != waiting.end() && !it->second.empty() && m == t.messages.size()) {
        if (!matched[it->second.back()]) m = it->second.back();
        it->second.pop_back();
      }
      if (m == t.messages.size()) {
        // Corrupted on the way: the unmatched message of the same length it differs least from.
        size_t best = 3;
        for (size_t i = 0; i < t.messages.size(); ++i) {
          if (matched[i] || keys[i].size() != k.size()) continue;
          size_t d = 0;
          for (size_t j = 0; j < k.size(); ++j) d += keys[i][j] != k[j];
          if (d < best) {
            best = d;
            m = i;
          }
        }
      }
      if (m == t.messages.size()) {
        // Not a message of the traffic (or a duplicate): count it against the network.
        ++r.kirchhoff_violations;
        continue;
      }
      matched[m] = 1;
      Cm5DataDelivery& d = r.deliveries[m];
      d.delivered = true;
      d.copies = 1;
      d.arrived = cyc;
      d.at_leaf = leaf;
      d.words = w;
      d.crc = cm5_crc_status(w, p.link_bits);
      d.crc_ok = d.crc == Cm5Crc::ok;
      ++r.delivered;
    } else if (kind == "done") {
      int completed = 0;
      out >> r.cycles >> completed;
      r.completed = completed != 0;
    } else if (kind == "speed") {
      uint64_t cyc = 0;
      out >> cyc >> r.seconds;
    } else if (kind == "cnt") {
      size_t c = 0;
      out >> c;
      const int ni = 4 + p.parents_at(cm5_chip_pos(p, static_cast<uint32_t>(c)).level);
      Cm5DataChipCounters& k = r.chips.at(c);
      k.in.resize(static_cast<size_t>(ni));
      k.out.resize(static_cast<size_t>(ni));
      for (auto& v : k.in) out >> v;
      for (auto& v : k.out) out >> v;
      out >> k.crc_primary >> k.crc_secondary;
    } else {
      throw std::runtime_error("cm5data RTL harness output: unknown record '" + kind + "'");
    }
  }
  return r;
}

}  // namespace cmnet
