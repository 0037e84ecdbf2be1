// Verilator harness of one CM-5 control network link alone (cm5ctl_link_pair: cm5ctl_link_tx
// into cm5ctl_link_rx, wires XORed with a fault mask between them), for the bit-exact check of
// the frame against the shared description (gen/cm5ctl/cm5ctl_packet.h). Driven by
// sim/cm5ctl/cm5ctl_rtl.cpp (run_cm5ctl_link).
//   argv[1]: input, one case a line: "PAYLOAD_HEX FLIP_CYCLE FLIP_WIRES_HEX" (FLIP_CYCLE -1: none)
//   argv[2]: output, one line a case: the T wire words of the frame (hex, cycle 0 first), then
//            the payload the receiver took (hex) and its crc_err
// Each case: `load` for one cycle, then the frame's T cycles, `last` in the T-th.
#include <cinttypes>
#include <cstdio>

#include "Vcm5ctl_link_pair.h"
#include "sim/core/harness_driver.h"
#include "sim/core/harness_io.h"

#ifndef CM5_T
#error "CM5_T (the frame's cycles) must be defined"
#endif

int main(int argc, char** argv) {
  const cmnet::harness::Files io("cm5ctl link harness", argc, argv);
  std::FILE* in = io.in();
  std::FILE* out = io.out();
  cmnet::harness::Driver<Vcm5ctl_link_pair> d;
  d->load = 0;
  d->last = 0;
  d->flip = 0;
  d->pkt = 0;
  d.reset();
  uint64_t payload = 0;
  long long flip_cycle = -1;
  unsigned flip_wires = 0;
  while (std::fscanf(in, "%" SCNx64 " %lld %x", &payload, &flip_cycle, &flip_wires) == 3) {
    d->pkt = payload;
    d->load = 1;
    d.tick();
    d->load = 0;
    for (int t = 0; t < CM5_T; ++t) {
      d->last = t == CM5_T - 1;
      d->flip = t == flip_cycle ? flip_wires : 0;
      d.eval();
      std::fprintf(out, "%x ", static_cast<unsigned>(d->wires));
      if (t == CM5_T - 1) std::fprintf(out, "%" PRIx64 " %d\n", static_cast<uint64_t>(d->got), d->crc_err ? 1 : 0);
      d.tick();
    }
    d->last = 0;
    d->flip = 0;
  }
  return 0;
}
