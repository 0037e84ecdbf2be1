#include "sim/cm5data/cm5data_ni_run.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "gen/cm5data/cm5data_ni_regmap.h"
#include "gen/cm5data/cm5data_ni_rtl.h"
#include "gen/core/errors.h"
#include "sim/cm5data/cm5data_ni.h"

namespace cmnet {
namespace fs = std::filesystem;

namespace {

using cm5nimap::index;

void check_script(uint32_t N, const std::vector<Cm5NiAccess>& script, uint64_t cycles) {
  std::map<std::pair<uint64_t, uint32_t>, size_t> seen;
  for (size_t i = 0; i < script.size(); ++i) {
    const Cm5NiAccess& a = script[i];
    const std::string at = "ni script: access " + std::to_string(i) + ": ";
    if (a.leaf >= N) throw InputError(at + "leaf " + std::to_string(a.leaf) + " out of range 0.." + std::to_string(N - 1));
    if (a.cycle >= cycles) throw InputError(at + "cycle " + std::to_string(a.cycle) + " not before the run's end");
    if (a.addr >= (1u << cm5nimap::kAddrBits))
      throw InputError(at + "address " + std::to_string(a.addr) + " outside the register map");
    if (!seen.emplace(std::make_pair(a.cycle, a.leaf), i).second)
      throw InputError(at + "a second access of leaf " + std::to_string(a.leaf) + " in cycle " + std::to_string(a.cycle));
  }
}

// One leaf's registers over the model's NI (side 0), from the register map's text: a read's value
// is the state at the start of the cycle; an access's effects follow the cycle (the RTL's clock
// edge), except clearing the interrupt, which goes first so that an interrupt raised in the same
// cycle stays (the RTL's raise wins over the clear).
class ModelRegs {
 public:
  ModelRegs(const Cm5DataParams& p, Cm5DataNi& ni) : p_(p), ni_(ni) {}

  uint32_t read(uint32_t addr) const {
    const int side = 0;
    switch (addr) {
      case index("RECV_HEAD"): {
        if (!ni_.can_receive(side)) return 0;
        const Cm5DataNiMessage m = ni_.peek(side);
        return 0x80000000u | (m.crc == Cm5Crc::ok ? 1u << 30 : 0u) | (m.fell ? 1u << 24 : 0u) |
               (static_cast<uint32_t>(m.tag) << 20) | (static_cast<uint32_t>(m.len) << 16) | ridx_;
      }
      case index("RECV_DATA"):
        return ni_.can_receive(side) ? ni_.peek(side).data.at(ridx_) : 0u;
      case index("STATUS"):
        return (f_refused_ ? 1u << 31 : 0u) | (f_addr_ ? 1u << 30 : 0u) | (f_ovf_ ? 1u << 29 : 0u) |
               (ni_.interrupt ? 1u << 28 : 0u) | (static_cast<uint32_t>(ni_.recv_messages(side)) << 16) |
               (static_cast<uint32_t>(cm5_ni_send_words(p_) - ni_.send_words(side)) << 8) |
               static_cast<uint32_t>(ni_.send_words(side));
      case index("RECV_LEVEL"):
        return (static_cast<uint32_t>(ni_.recv_messages(side)) << 16) | static_cast<uint32_t>(ni_.recv_flits(side));
      case index("TAG_MASK"): return ni_.tag_mask;
      case index("INTERRUPT"): return ni_.interrupt ? 1u : 0u;
      case index("CNT_SENT"): return static_cast<uint32_t>(ni_.counters(side).sent);
      case index("CNT_RECEIVED"): return static_cast<uint32_t>(ni_.counters(side).received);
      case index("CNT_REFUSED"): return static_cast<uint32_t>(ni_.counters(side).refused);
      case index("CNT_INTERRUPTS"): return static_cast<uint32_t>(ni_.counters(side).interrupts);
      case index("CNT_CRC_ERRORS"): return static_cast<uint32_t>(ni_.counters(side).crc_errors);
      case index("CNT_ADDR_ERRORS"): return static_cast<uint32_t>(ni_.counters(side).address_errors);
      default: return 0;  // write-only and unmapped addresses read 0
    }
  }

  // The access of this cycle: what it does before and after the network's cycle.
  void before(const Cm5NiAccess& a) {
    pop_ = a.addr == index("RECV_DATA") && !a.write && ni_.can_receive(0);
    if (a.write && a.addr == index("INTERRUPT")) ni_.interrupt = false;
  }
  void after(const Cm5NiAccess& a) {
    if (!a.write) {
      if (pop_) {
        if (++ridx_ == static_cast<uint32_t>(ni_.peek(0).len)) {
          ni_.receive(0);
          ridx_ = 0;
        }
      }
      return;
    }
    switch (a.addr) {
      case index("SEND_DATA"):
        if (static_cast<int>(stage_.size()) < p_.max_words) stage_.push_back(a.data);
        else f_ovf_ = true;
        break;
      case index("SEND"): {
        if (stage_.empty()) break;
        if ((a.data >> 24) & 1u) throw InputError("ni script: SEND with the mark (bit 24) set: the model NI sends unmarked");
        const uint32_t dst = a.data & 0xFFFFu;
        const int tag = static_cast<int>((a.data >> 20) & 15u);
        const uint64_t refused = ni_.counters(0).refused;
        if (dst >= p_.leaves() || !ni_.reachable(dst)) {
          // The model counts a mapped-out destination; one out of range is the map's address error too.
          if (dst < p_.leaves()) ni_.send(0, dst, tag, stage_);
          else throw InputError("ni script: SEND to leaf " + std::to_string(dst) + " out of range (the model refuses it)");
          f_addr_ = true;
        } else if (!ni_.send(0, dst, tag, stage_)) {
          if (ni_.counters(0).refused != refused + 1) throw std::logic_error("ni model: a refusal not counted");
          f_refused_ = true;
        }
        stage_.clear();
        break;
      }
      case index("STATUS"): f_refused_ = f_addr_ = f_ovf_ = false; break;
      case index("TAG_MASK"): ni_.tag_mask = static_cast<uint16_t>(a.data & 0xFFFFu); break;
      default: break;
    }
  }

 private:
  const Cm5DataParams& p_;
  Cm5DataNi& ni_;
  std::vector<uint32_t> stage_;
  uint32_t ridx_ = 0;
  bool pop_ = false, f_refused_ = false, f_addr_ = false, f_ovf_ = false;
};

}  // namespace

std::vector<Cm5NiRead> run_cm5data_ni_model(const Cm5DataParams& p, const std::vector<Cm5NiAccess>& script, uint64_t cycles) {
  const uint32_t N = p.leaves();
  check_script(N, script, cycles);
  Cm5DataNiConfig nc;
  nc.send_words = cm5_ni_send_words(p);
  nc.recv_flits = p.ni_recv_words * p.flits_per_word();
  Cm5DataNetwork net(p);
  std::vector<Cm5DataNi> nis;
  for (uint32_t x = 0; x < N; ++x) nis.emplace_back(p, x, nc);
  std::vector<ModelRegs> regs;
  for (uint32_t x = 0; x < N; ++x) regs.emplace_back(p, nis[x]);
  std::vector<Cm5NiAccess> sorted = script;
  std::stable_sort(sorted.begin(), sorted.end(), [](const Cm5NiAccess& a, const Cm5NiAccess& b) {
    return a.cycle != b.cycle ? a.cycle < b.cycle : a.leaf < b.leaf;
  });
  std::vector<Cm5NiRead> out;
  size_t i = 0;
  for (uint64_t t = 0; t < cycles; ++t) {
    const size_t first = i;
    while (i < sorted.size() && sorted[i].cycle == t) {
      const Cm5NiAccess& a = sorted[i++];
      if (!a.write) out.push_back({t, a.leaf, a.addr, regs[a.leaf].read(a.addr)});
      regs[a.leaf].before(a);
    }
    for (uint32_t x = 0; x < N; ++x) nis[x].cycle(0, net);
    net.step();
    for (size_t k = first; k < i; ++k) regs[sorted[k].leaf].after(sorted[k]);
  }
  return out;
}

std::vector<Cm5NiRead> run_cm5data_ni_rtl(const Cm5DataConfig& cfg, const std::vector<Cm5NiAccess>& script, uint64_t cycles,
                                          const TraceWindow& trace) {
  const uint32_t N = cfg.cm5.leaves();
  check_script(N, script, cycles);
  const GeneratedDesign design = emit_cm5data_ni(cfg);
  const std::string exe = build_verilated_model(design, "cm5data_ni_net", std::string(CMNET_SOURCE_DIR) + "/sim/cm5data/cm5data_ni_main.cpp",
                                                {}, {}, trace.on() ? trace_flags() : std::vector<std::string>{});
  char tmpl[] = "/tmp/cmnet-cm5ni-XXXXXX";
  if (!::mkdtemp(tmpl)) throw std::runtime_error("cannot create a temporary directory");
  const fs::path work(tmpl);
  const std::string in_path = (work / "in.txt").string(), out_path = (work / "out.txt").string();
  {
    std::ofstream in(in_path);
    in << "params " << N << ' ' << cycles << '\n';
    for (const Cm5NiAccess& a : script)
      in << "acc " << a.cycle << ' ' << a.leaf << ' ' << (a.write ? 1 : 0) << ' ' << a.addr << ' ' << a.data << '\n';
  }
  const int rc = run_child({exe, in_path, out_path}, 600, (work / "log.txt").string(), trace.env());
  if (rc != 0) {
    std::ifstream lg(work / "log.txt");
    std::stringstream ss;
    ss << lg.rdbuf();
    fs::remove_all(work);
    throw std::runtime_error("cm5data NI harness failed (exit " + std::to_string(rc) + "): " + ss.str());
  }
  std::vector<Cm5NiRead> out;
  std::ifstream o(out_path);
  std::string kind;
  while (o >> kind) {
    if (kind != "rd") throw std::runtime_error("cm5data NI harness output: unknown record '" + kind + "'");
    Cm5NiRead r;
    o >> r.cycle >> r.leaf >> r.addr >> r.value;
    out.push_back(r);
  }
  fs::remove_all(work);
  return out;
}

}  // namespace cmnet
