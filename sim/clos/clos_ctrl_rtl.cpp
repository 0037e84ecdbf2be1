#include "sim/clos/clos_ctrl_rtl.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>

#include "gen/clos/clos_emitter.h"
#include "sim/core/harness_run.h"
#include "sim/core/rtl_build.h"

namespace cmnet {
namespace fs = std::filesystem;

std::vector<ClosLeafRequest> random_leaf_requests(const ClosParams& p, int per_leaf, int think, int hold, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<ClosLeafRequest> v;
  const int N = p.ports();
  std::uniform_int_distribution<int> other(0, N - 2), th(0, 2 * think), ho(0, 2 * hold);
  for (int k = 0; k < per_leaf; ++k)
    for (int leaf = 0; leaf < N; ++leaf) {
      int d = other(rng);
      if (d >= leaf) ++d;
      v.push_back({leaf, d, th(rng), ho(rng)});
    }
  return v;
}

namespace {

struct Layout {
  ClosCtrlLayout l;
  int iv_lsb = 0, blocked_lsb, ms_lsb, dest_lsb, orig_lsb, type_lsb, to_lsb;
  explicit Layout(const ClosCtrlLayout& x) : l(x) {
    blocked_lsb = l.M;
    ms_lsb = blocked_lsb + 1;
    dest_lsb = ms_lsb + l.KW;
    orig_lsb = dest_lsb + l.NW;
    type_lsb = orig_lsb + l.NW;
    to_lsb = type_lsb + 4;
  }
  static int f(uint64_t m, int lsb, int w) { return static_cast<int>((m >> lsb) & ((uint64_t{1} << w) - 1)); }
  ClosMsg decode(uint64_t m) const {
    ClosMsg c;
    c.type = static_cast<ClosMsgType>(f(m, type_lsb, 4));
    c.to = f(m, to_lsb, l.D);
    c.orig = f(m, orig_lsb, l.NW);
    c.dest = f(m, dest_lsb, l.NW);
    c.ms = f(m, ms_lsb, l.KW);
    c.blocked = f(m, blocked_lsb, 1) != 0;
    c.iv.resize(static_cast<size_t>(l.M));
    for (int b = 0; b < l.M; ++b) c.iv[static_cast<size_t>(b)] = static_cast<char>((m >> b) & 1u);
    return c;
  }
};

// The fields a message of this type carries (the rest are zero in the RTL, absent in the model).
std::string canon(ClosMsg c, int m) {
  const bool has_ms = c.type == ClosMsgType::kCO || c.type == ClosMsgType::kACK || c.type == ClosMsgType::kCANCEL ||
                      c.type == ClosMsgType::kIDCR || c.type == ClosMsgType::kDDCR || c.type == ClosMsgType::kREADY;
  if (!has_ms) c.ms = 0;
  if (c.type != ClosMsgType::kCR) c.iv.clear();
  else c.iv.resize(static_cast<size_t>(m), 0);
  if (c.type != ClosMsgType::kRESEND) c.blocked = false;
  if (c.type == ClosMsgType::kREADY) c.dest = 0, c.ms = 0;  // the READY port carries the leaf only
  return c.str();
}

// A configuration write {valid, select} at addr, as text.
std::string cfg_str(int addr, int data, const ClosParams& p) {
  const int valid = (data >> p.cfg_sel_bits()) & 1, sel = data & ((1 << p.cfg_sel_bits()) - 1);
  return "CFG " + std::to_string(addr) + (valid ? " = " + std::to_string(sel) : std::string(" cleared"));
}

}  // namespace

ClosCtrlRtlRun run_clos_ctrl_rtl(const ClosConfig& cfg, const std::vector<ClosLeafRequest>& requests, uint64_t max_cycles,
                                 double timeout_s, const ClosParams* model_params, const TraceWindow& trace) {
  const ClosParams& p = cfg.clos;
  const Layout L(clos_ctrl_layout(cfg));
  if (L.l.MW > 64) throw std::invalid_argument("clos ctrl RTL harness: messages wider than 64 bits");
  const std::string exe =
      build_verilated_model(emit_clos_ctrl(cfg), "clos_ctrl_top", std::string(CMNET_SOURCE_DIR) + "/sim/clos/clos_ctrl_main.cpp",
                            {}, {}, trace.on() ? trace_flags() : std::vector<std::string>{});
  std::ostringstream in;
  {
    in << "params " << p.hnodes() << ' ' << L.l.MW << ' ' << L.type_lsb << ' ' << L.dest_lsb << ' ' << L.orig_lsb << ' '
       << L.to_lsb << ' ' << L.l.NW << ' ' << max_cycles << '\n';
    for (const ClosLeafRequest& r : requests)
      in << "req " << r.orig << ' ' << (r.orig / p.n) % p.hnodes() << ' ' << r.dest << ' ' << r.think << ' ' << r.hold
         << '\n';
  }
  const HarnessRunResult run_out = run_harness("clos ctrl RTL harness", exe, in.str(), timeout_s, trace.env());
  ClosCtrlRtlRun run;
  const ClosParams mp = model_params ? *model_params : p;
  const ClosSetupOptions o = clos_protocol_options(mp);
  ClosProtocolModel model(mp, o);
  // Per hnode: what the model's step for its last handled message sends, and what the RTL sent since.
  std::vector<std::vector<std::string>> want(static_cast<size_t>(p.hnodes())), got(want.size());
  std::vector<std::string> what(want.size());
  auto bad = [&](const std::string& s) {
    if (run.mismatches++ < 8) run.first_mismatches.push_back(s);
  };
  auto close = [&](size_t h) {
    std::sort(want[h].begin(), want[h].end());
    std::sort(got[h].begin(), got[h].end());
    if (want[h] != got[h]) {
      std::string s = "hnode " + std::to_string(h) + " handling " + what[h] + ": model sent {";
      for (const auto& x : want[h]) s.append(x).append("; ");
      s.append("} RTL sent {");
      for (const auto& x : got[h]) s.append(x).append("; ");
      bad(s + "}");
    }
    want[h].clear();
    got[h].clear();
  };
  std::istringstream out(run_out.out);
  std::string kind;
  while (out >> kind) {
    if (kind == "end") {
      int ovf = 0;
      out >> run.cycles >> run.requests_done >> ovf;
      run.overflow = ovf != 0;
      break;
    }
    uint64_t cycle = 0;
    int h = 0;
    out >> cycle >> h;
    if (h < 0 || h >= p.hnodes()) throw std::runtime_error("clos ctrl RTL harness: bad hnode in its log");
    const size_t hh = static_cast<size_t>(h);
    if (kind == "H") {
      uint64_t m = 0;
      out >> std::hex >> m >> std::dec;
      close(hh);
      const ClosMsg c = L.decode(m);
      run.log.push_back({cycle, c});
      ++run.handled;
      ++run.handled_by_type[static_cast<int>(c.type)];
      what[hh] = canon(c, p.m);
      if (c.to != h) bad("hnode " + std::to_string(h) + " handled a message for hnode " + std::to_string(c.to));
      for (const ClosMsg& x : model.handle(h, c)) want[hh].push_back(canon(x, p.m));
      for (const auto& [addr, sel] : model.config_writes())
        want[hh].push_back(cfg_str(addr, sel < 0 ? 0 : (1 << p.cfg_sel_bits()) | sel, p));
    } else if (kind == "S") {
      uint64_t m = 0;
      out >> std::hex >> m >> std::dec;
      ++run.sent;
      got[hh].push_back(canon(L.decode(m), p.m));
    } else if (kind == "W") {
      uint64_t addr = 0, data = 0;
      out >> addr >> data;
      ++run.cfg_writes;
      got[hh].push_back(cfg_str(static_cast<int>(addr), static_cast<int>(data), p));
      const bool valid = (data >> p.cfg_sel_bits()) & 1u;
      run.writes.push_back({cycle, static_cast<int>(addr), valid ? static_cast<int>(data & ((1u << p.cfg_sel_bits()) - 1)) : -1});
    } else if (kind == "R") {
      int leaf = 0;
      out >> leaf;
      ++run.readies;
      ClosMsg c;
      c.type = ClosMsgType::kREADY;
      c.to = h;
      c.orig = leaf;
      run.log.push_back({cycle, c});
      got[hh].push_back(canon(c, p.m));
    } else {
      throw std::runtime_error("clos ctrl RTL harness: unreadable log");
    }
  }
  for (size_t h = 0; h < want.size(); ++h) close(h);
  run.model_error = model.error();
  run.model_idle = model.idle();
  return run;
}

}  // namespace cmnet
