// The memory-mapped network interface's registers (gen/cm5data/cm5data_ni_regmap.h) decoded
// onto the model's NI (sim/cm5data/cm5data_ni.h), one side: what run_cm5data_ni_model drives
// from a script and what other drivers of the model (the CM-5 machine's processors) use to
// speak the RTL block's bus protocol on the model. Written from the map's text, not the RTL.
// Per cycle: read() (the state at the start of the cycle), before(), the NI's and the
// network's cycle, after() (the clock edge). The tag mask and the interrupt are the model NI's,
// per node.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "gen/cm5data/cm5data_ni_regmap.h"
#include "gen/cm5data/cm5data_ni_rtl.h"
#include "gen/core/errors.h"
#include "sim/cm5data/cm5data_ni.h"
#include "sim/cm5data/cm5data_ni_run.h"

namespace cmnet {

// One leaf's registers of one side over the model's NI, from the register map's text: a read's value
// is the state at the start of the cycle; an access's effects follow the cycle (the RTL's clock
// edge), except clearing the interrupt, which goes first so that an interrupt raised in the same
// cycle stays (the RTL's raise wins over the clear).
class Cm5NiModelRegs {
 public:
  Cm5NiModelRegs(const Cm5DataParams& p, Cm5DataNi& ni, int side = 0) : p_(p), ni_(ni), side_(side) {}

  uint32_t read(uint32_t addr) const {
    const int side = side_;
    switch (addr) {
      case cm5nimap::index("RECV_HEAD"): {
        if (!ni_.can_receive(side)) return 0;
        const Cm5DataNiMessage m = ni_.peek(side);
        return 0x80000000u | (m.crc == Cm5Crc::ok ? 1u << 30 : 0u) | (m.fell ? 1u << 24 : 0u) |
               (static_cast<uint32_t>(m.tag) << 20) | (static_cast<uint32_t>(m.len) << 16) | ridx_;
      }
      case cm5nimap::index("RECV_DATA"):
        return ni_.can_receive(side) ? ni_.peek(side).data.at(ridx_) : 0u;
      case cm5nimap::index("STATUS"):
        return (f_refused_ ? 1u << 31 : 0u) | (f_addr_ ? 1u << 30 : 0u) | (f_ovf_ ? 1u << 29 : 0u) |
               (ni_.interrupt ? 1u << 28 : 0u) | (static_cast<uint32_t>(ni_.recv_messages(side)) << 16) |
               (static_cast<uint32_t>(cm5_ni_send_words(p_) - ni_.send_words(side)) << 8) |
               static_cast<uint32_t>(ni_.send_words(side));
      case cm5nimap::index("RECV_LEVEL"):
        return (static_cast<uint32_t>(ni_.recv_messages(side)) << 16) | static_cast<uint32_t>(ni_.recv_flits(side));
      case cm5nimap::index("TAG_MASK"): return ni_.tag_mask;
      case cm5nimap::index("INTERRUPT"): return ni_.interrupt ? 1u : 0u;
      case cm5nimap::index("CNT_SENT"): return static_cast<uint32_t>(ni_.counters(side).sent);
      case cm5nimap::index("CNT_RECEIVED"): return static_cast<uint32_t>(ni_.counters(side).received);
      case cm5nimap::index("CNT_REFUSED"): return static_cast<uint32_t>(ni_.counters(side).refused);
      case cm5nimap::index("CNT_INTERRUPTS"): return static_cast<uint32_t>(ni_.counters(side).interrupts);
      case cm5nimap::index("CNT_CRC_ERRORS"): return static_cast<uint32_t>(ni_.counters(side).crc_errors);
      case cm5nimap::index("CNT_ADDR_ERRORS"): return static_cast<uint32_t>(ni_.counters(side).address_errors);
      default: return 0;  // write-only and unmapped addresses read 0
    }
  }

  // The access of this cycle: what it does before and after the network's cycle.
  void before(const Cm5NiAccess& a) {
    pop_ = a.addr == cm5nimap::index("RECV_DATA") && !a.write && ni_.can_receive(side_);
    if (a.write && a.addr == cm5nimap::index("INTERRUPT")) ni_.interrupt = false;
  }
  void after(const Cm5NiAccess& a) {
    if (!a.write) {
      if (pop_) {
        if (++ridx_ == static_cast<uint32_t>(ni_.peek(side_).len)) {
          ni_.receive(side_);
          ridx_ = 0;
        }
      }
      return;
    }
    switch (a.addr) {
      case cm5nimap::index("SEND_DATA"):
        if (static_cast<int>(stage_.size()) < p_.max_words) stage_.push_back(a.data);
        else f_ovf_ = true;
        break;
      case cm5nimap::index("SEND"): {
        if (stage_.empty()) break;
        if ((a.data >> 24) & 1u) throw InputError("ni script: SEND with the mark (bit 24) set: the model NI sends unmarked");
        const uint32_t dst = a.data & 0xFFFFu;
        const int tag = static_cast<int>((a.data >> 20) & 15u);
        const uint64_t refused = ni_.counters(side_).refused;
        if (dst >= p_.leaves() || !ni_.reachable(dst)) {
          // The model counts a mapped-out destination; one out of range is the map's address error too.
          if (dst < p_.leaves()) ni_.send(side_, dst, tag, stage_);
          else throw InputError("ni script: SEND to leaf " + std::to_string(dst) + " out of range (the model refuses it)");
          f_addr_ = true;
        } else if (!ni_.send(side_, dst, tag, stage_)) {
          if (ni_.counters(side_).refused != refused + 1) throw std::logic_error("ni model: a refusal not counted");
          f_refused_ = true;
        }
        stage_.clear();
        break;
      }
      case cm5nimap::index("STATUS"): f_refused_ = f_addr_ = f_ovf_ = false; break;
      case cm5nimap::index("TAG_MASK"): ni_.tag_mask = static_cast<uint16_t>(a.data & 0xFFFFu); break;
      default: break;
    }
  }

 private:
  const Cm5DataParams& p_;
  Cm5DataNi& ni_;
  int side_ = 0;
  std::vector<uint32_t> stage_;
  uint32_t ridx_ = 0;
  bool pop_ = false, f_refused_ = false, f_addr_ = false, f_ovf_ = false;
};

}  // namespace cmnet
