#include "sim/hcube/hcube_rtl.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "gen/hcube/hcube_emitter.h"
#include "sim/core/harness_run.h"
#include "sim/core/rtl_build.h"

namespace cmnet {
namespace fs = std::filesystem;

std::vector<uint8_t> hcube_packet_bytes(const HcubeParams& p, const HcubeMessage& m, uint64_t k) {
  std::vector<uint8_t> b = {static_cast<uint8_t>(m.dst), static_cast<uint8_t>(m.dst >> 8), static_cast<uint8_t>(m.src),
                            static_cast<uint8_t>((m.src >> 8) & 0x0F)};
  uint64_t off = 0;
  if (k == 0) {
    for (int i = 0; i < 4; ++i) b.push_back(static_cast<uint8_t>(m.len >> (8 * i)));
    b.push_back(static_cast<uint8_t>(m.seq));
    b.push_back(static_cast<uint8_t>(m.seq >> 8));
  } else {
    off = static_cast<uint64_t>(p.first_data_bytes()) + (k - 1) * static_cast<uint64_t>(p.data_bytes());
  }
  for (int i = 0; i < p.packet_data(m.len, k); ++i) b.push_back(hcube_data_byte(p.seed, m.src, m.seq, off + i));
  return b;
}

std::vector<uint8_t> hcube_worm_bytes(const HcubeParams& p, const HcubeMessage& m) {
  std::vector<uint8_t> b = hcube_packet_bytes(p, m, 0);
  b.resize(HcubeParams::kMessageHeaderBytes);
  const std::vector<uint8_t> data = hcube_payload(p.seed, m);
  b.insert(b.end(), data.begin(), data.end());
  return b;
}

std::vector<uint32_t> hcube_worm_tags(const HcubeParams& p, const HcubeTraffic& t) {
  std::vector<size_t> order(t.messages.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return t.messages[a].gen < t.messages[b].gen; });
  if (order.size() > (1u << hcube_widths(p).tw))
    throw std::runtime_error("hcube RTL: more messages than the routers' 16-bit tags number");
  std::vector<uint32_t> tag(order.size());
  for (size_t r = 0; r < order.size(); ++r) tag[order[r]] = static_cast<uint32_t>(r);
  return tag;
}

HcubeRunResult run_hcube_rtl(const HcubeConfig& cfg, const HcubeTraffic& t, const HcubeRtlOptions& opt) {
  const HcubeParams& p = cfg.hc;
  check_hcube_traffic(t, p, "rtl traffic");
  const GeneratedDesign design = emit_hcube(cfg);
  const std::string exe = build_verilated_model(
      design, "hcube_network",
      std::string(CMNET_SOURCE_DIR) + (p.packet() ? "/sim/hcube/hcube_network_main.cpp" : "/sim/hcube/hcube_worm_main.cpp"),
      {}, {}, opt.trace.on() ? trace_flags() : std::vector<std::string>{});
  static const char* hx = "0123456789abcdef";
  std::ostringstream in;
  if (!p.packet()) {
    const std::vector<uint32_t> tag = hcube_worm_tags(p, t);
    in << "params " << p.nodes() << ' ' << p.dims << ' ' << opt.max_cycles << '\n';
    for (size_t i = 0; i < t.messages.size(); ++i) {
      const HcubeMessage& m = t.messages[i];
      in << "msg " << m.src << ' ' << m.dst << ' ' << m.gen << ' ' << tag[i] << ' ';
      for (uint8_t b : hcube_worm_bytes(p, m)) in << hx[b >> 4] << hx[b & 15];
      in << '\n';
    }
  } else {
    in << "params " << p.nodes() << ' ' << p.dims << ' ' << opt.max_cycles << ' ' << p.packet_bytes << '\n';
    for (const HcubeMessage& m : t.messages) {
      const uint64_t np = p.packets_of(m.len);
      in << "msg " << m.src << ' ' << m.dst << ' ' << m.gen << ' ' << np << '\n';
      for (uint64_t k = 0; k < np; ++k) {
        in << "pkt " << p.packet_wire(m.len, k) << ' ';
        for (uint8_t b : hcube_packet_bytes(p, m, k)) in << hx[b >> 4] << hx[b & 15];
        in << '\n';
      }
    }
  }
  const HarnessRunResult run_out = run_harness("hcube RTL harness", exe, in.str(), opt.timeout_s, opt.trace.env());
  HcubeRunResult r;
  r.ports.resize(static_cast<size_t>(p.links()));
  HcubeReassemblyCheck check(p, t, r, opt.keep_received);
  std::istringstream out(run_out.out);
  std::string kind;
  while (out >> kind) {
    if (kind == "rx") {
      HcubeReceived x;
      std::string hex;
      out >> x.dst >> x.src >> x.first_dim >> x.type >> x.len >> x.first >> x.last >> hex;
      for (size_t i = 0; i + 1 < hex.size(); i += 2) x.data.push_back(static_cast<uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
      r.ticks = std::max(r.ticks, x.last);
      check.add(std::move(x));
    } else if (kind == "done") {
      uint64_t cycles = 0;
      int completed = 0;
      out >> cycles >> completed;
    } else if (kind == "speed") {
      uint64_t cyc = 0;
      out >> cyc >> r.seconds;
    } else if (kind == "cnt") {
      size_t x = 0;
      out >> x;
      for (int d = 0; d < p.dims; ++d) {
        HcubePortCounters& c = r.ports.at(x * static_cast<size_t>(p.dims) + static_cast<size_t>(d));
        out >> c.packets >> c.messages >> c.bytes >> c.blocked_ticks;
      }
    } else {
      throw std::runtime_error("hcube RTL harness output: unknown record '" + kind + "'");
    }
  }
  r.completed = r.delivered == t.messages.size() && r.bad_reassembly == 0;
  return r;
}

}  // namespace cmnet
