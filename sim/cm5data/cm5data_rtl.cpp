#include "sim/cm5data/cm5data_rtl.h"

#include <unistd.h>

#include <cinttypes>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "gen/cm5data/cm5data_emitter.h"
#include "sim/core/rtl_build.h"

namespace cmnet {
namespace fs = std::filesystem;

std::vector<uint32_t> cm5_expected_words(const Cm5DataParams& p, const Cm5DataMessage& m) {
  std::vector<uint32_t> w = cm5_message_words(p, m);
  w[0] &= ~0xF0u;
  return w;
}

Cm5DataRunResult run_cm5data_rtl(const Cm5DataConfig& cfg, const Cm5DataTraffic& t, const Cm5DataRtlOptions& opt) {
  const Cm5DataParams& p = cfg.cm5;
  check_cm5_traffic(t, p, "rtl traffic");
  const GeneratedDesign design = emit_cm5data(cfg);
  const std::string exe = build_verilated_model(design, "cm5data_network",
                                                std::string(CMNET_SOURCE_DIR) + "/sim/cm5data/cm5data_network_main.cpp");
  char tmpl[] = "/tmp/cmnet-cm5rtl-XXXXXX";
  if (!::mkdtemp(tmpl)) throw std::runtime_error("cannot create a temporary directory");
  const fs::path work(tmpl);
  const std::string in_path = (work / "in.txt").string(), out_path = (work / "out.txt").string();
  {
    std::ofstream in(in_path);
    in << "params " << p.leaves() << ' ' << p.link_bits << ' ' << p.buffer_flits() << ' ' << opt.max_cycles << '\n';
    for (uint32_t c = 0; c < p.total_chips(); ++c) in << "chip " << 4 + p.parents_at(cm5_chip_pos(p, c).level) << '\n';
    for (const Cm5DataMessage& m : t.messages) {
      const auto w = cm5_message_words(p, m);
      in << "msg " << m.src << ' ' << m.inject_at << ' ' << w.size() << std::hex;
      for (uint32_t x : w) in << ' ' << x;
      in << std::dec << '\n';
    }
  }
  const int rc = run_child({exe, in_path, out_path}, opt.timeout_s, (work / "log.txt").string());
  if (rc != 0) {
    std::ifstream lg(work / "log.txt");
    std::stringstream ss;
    ss << lg.rdbuf();
    fs::remove_all(work);
    throw std::runtime_error("cm5data RTL harness failed (exit " + std::to_string(rc) + "): " + ss.str());
  }
  // Messages by (destination, words arrived with), in traffic order.
  std::map<std::pair<uint32_t, std::vector<uint32_t>>, std::vector<size_t>> waiting;
  for (size_t i = t.messages.size(); i-- > 0;)
    waiting[{t.messages[i].dst, cm5_expected_words(p, t.messages[i])}].push_back(i);
  Cm5DataRunResult r;
  r.deliveries.resize(t.messages.size());
  r.chips.resize(p.total_chips());
  std::ifstream out(out_path);
  std::string kind;
  while (out >> kind) {
    if (kind == "tx") {
      size_t m = 0;
      uint64_t cyc = 0;
      out >> m >> cyc;
      r.deliveries.at(m).sent = cyc;
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
      auto it = waiting.find({leaf, w});
      if (it == waiting.end() || it->second.empty()) {
        // Not a message of the traffic (or a duplicate): count it against the network.
        ++r.kirchhoff_violations;
        continue;
      }
      const size_t m = it->second.back();
      it->second.pop_back();
      Cm5DataDelivery& d = r.deliveries[m];
      d.delivered = true;
      d.copies = 1;
      d.arrived = cyc;
      d.at_leaf = leaf;
      d.words = w;
      std::vector<uint32_t> body(w.begin(), w.end() - 1);
      d.crc_ok = cm5_crc32(body) == w.back();
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
    } else {
      fs::remove_all(work);
      throw std::runtime_error("cm5data RTL harness output: unknown record '" + kind + "'");
    }
  }
  fs::remove_all(work);
  return r;
}

}  // namespace cmnet
