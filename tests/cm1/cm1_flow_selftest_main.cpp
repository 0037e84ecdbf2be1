// Verilator harness for the self-test board tops (gen/cm1/cm1_board_emitter.h), built by
// tests/cm1/cm1_flow_test.cpp through build_verilated_model(). The top must be emitted without a
// reset button and with 3 active-high LEDs (led[0] pass, led[1] fail, led[2] running).
// Compile with -DCMNET_CHIP_TOP for cm1_chip_board_top, else cm1_board_top.
//
// usage: harness MAX_CYCLES  -> prints "pass CYCLES", "fail CYCLES" or "timeout CYCLES";
// exit 0 / 1 / 2. A second run restarts through the power-on reset (new model instance).
#include <cstdio>
#include <cstdlib>

#include "sim/core/harness_driver.h"
#ifdef CMNET_CHIP_TOP
#include "Vcm1_chip_board_top.h"
using Top = Vcm1_chip_board_top;
#else
#include "Vcm1_board_top.h"
using Top = Vcm1_board_top;
#endif

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: harness MAX_CYCLES\n");
    return 3;
  }
  const long max_cycles = std::atol(argv[1]);
  cmnet::harness::Driver<Top> top;
#ifdef CMNET_CHIP_TOP
  top->cube_in = 0;
#endif
  top->clk = 0;
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
