// Parameters of a CM-1 hypercube router network (Kahle, Kuszmaul, Hillis 1989, section 3)
// and the figures derived from them. One struct drives the RTL emitter, the reference model,
// the host register map and the reports.
#pragma once

#include <cstdint>
#include <string>

namespace cmnet {

enum class EjectMode { kOrCombine, kOnePerPetit };

const char* to_string(EjectMode m);

struct Cm1Params {
  int cube_dims = 4;        // c: the network has 2^c router chips
  int rows = 7;             // b: heart rows = injector slots = buffers per chip
  int procs_per_chip = 16;  // P: processors per chip, a power of two
  int vp_bits = 0;          // v: VP-ADDRESS bits
  int data_bits = 8;        // d: DATA bits (at most 64)
  EjectMode eject_mode = EjectMode::kOrCombine;  // default mode of the ejector (a run-time input in RTL)
  int queue_depth = 4;      // messages each RTL endpoint can hold before the host refills it

  int chips() const { return 1 << cube_dims; }
  int processors() const { return chips() * procs_per_chip; }
  int proc_bits() const;  // log2(P)
  // Message length in bits: MSGP + CUBE-ADDRESS + PROC-ADDRESS + VP + DATA + PARITY.
  // For P = 16 this is the paper's l = 6 + c + v + d.
  int msg_len() const { return 2 + cube_dims + proc_bits() + vp_bits + data_bits; }
  // Heart message storage with address rotation (3.4.5): two bits per site, 2bc.
  int heart_storage_bits() const { return 2 * rows * cube_dims; }
  // Heart latency with address rotation: T_heart = l + 2c bit-times.
  int t_heart() const { return msg_len() + 2 * cube_dims; }
  // The naive pipeline of 3.4.3, for comparison: b(c^2+3c)/2 bits and l + (c^2+3c)/2 bit-times.
  int naive_heart_storage_bits() const { return rows * (cube_dims * cube_dims + 3 * cube_dims) / 2; }
  int naive_t_heart() const { return msg_len() + (cube_dims * cube_dims + 3 * cube_dims) / 2; }
  // Bit-times between the starts of consecutive petit cycles. The paper overlaps petit cycles
  // every l bit-times when 2c <= l. This implementation also needs the ejector to have seen the
  // whole (restored) CUBE-ADDRESS before the next petit cycle's injector reads the buffered
  // MSGP bits, which is 3c + 1 bit-times after the MSGP enters the heart: the period is
  // max(l, 3c + 1). For the paper's c = 12, l = 50 both give 50.
  int petit_period() const {
    const int need = 3 * cube_dims + 1;
    return msg_len() > need ? msg_len() : need;
  }
  // Bit-times for a delivery cycle of k petit cycles (paper: k*l + 2c when 2c <= l).
  int64_t delivery_bit_times(int64_t k) const { return k * petit_period() + 2 * cube_dims; }
};

// Throws cmnet::ConfigError naming the field, its value and the allowed range.
void validate(const Cm1Params& p, const std::string& where);

}  // namespace cmnet
