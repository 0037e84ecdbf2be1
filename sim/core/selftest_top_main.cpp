// Verilator harness for a self-test board top (gen/core/selftest_top.h): the top has clk, 3
// active-high LEDs (led[0] pass, led[1] fail, led[2] running) and uart_tx, and no reset button
// (the power-on reset). Compile with -DCMNET_TOP=<Verilated class>, e.g. Vcm5data_selftest_top,
// and -DCMNET_ZERO_INPUT=<port> for a top with one more input held at 0 (CM-1's chip top: cube_in).
//
// usage: harness MAX_CYCLES  -> prints "pass CYCLES", "fail CYCLES" or "timeout CYCLES";
// exit 0 / 1 / 2. CMNET_TRACE (sim/core/harness_driver.h) writes an FST trace of the run.
#include <cstdio>
#include <cstdlib>

#include "sim/core/harness_driver.h"

#define CMNET_STR2(x) #x
#define CMNET_STR(x) CMNET_STR2(x)
#include CMNET_STR(CMNET_TOP.h)

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: harness MAX_CYCLES\n");
    return 3;
  }
  const long max_cycles = std::atol(argv[1]);
  cmnet::harness::Driver<CMNET_TOP> top;
  top->clk = 0;
#ifdef CMNET_ZERO_INPUT
  top->CMNET_ZERO_INPUT = 0;
#endif
  top.eval();
  bool running_seen = false;
  for (long t = 0; t < max_cycles; ++t) {
    top.clock(true);
    top.clock(false);
    if (top->uart_tx != 1) {
      std::printf("uart_tx not idle-high at cycle %ld\n", t);
      return 1;
    }
    if (top->led & 4) running_seen = true;
    if (top->led & 1) {
      std::printf("pass %ld%s\n", t, running_seen ? "" : " (running LED never lit)");
      return running_seen && !(top->led & 2) ? 0 : 1;
    }
    if (top->led & 2) {
      std::printf("fail %ld\n", t);
      return 1;
    }
  }
  std::printf("timeout %ld\n", max_cycles);
  return 2;
}
