// cmnet-rtlboard: the host-link RTL (hw/common/cmnet_frame_engine.v behind a PHY, with the demo register
// file hw/common/cmnet_regfile_demo.v) as a simulated board on 127.0.0.1, like cmnet-fakeboard but
// cycle-accurate RTL. Builds the Verilator model if it is not cached (sim/core/host_link_rtl.h), then
// becomes it: the port is printed on stdout (one line), SIGINT/SIGTERM stop it and print one
// "stats ..." line. Connect with sim://127.0.0.1:PORT.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstring>
#include <map>

#include "sim/core/host_link_rtl.h"

int main(int argc, char** argv) {
  CLI::App app{"cmnet-rtlboard: serve the host-link RTL (frame engine + demo registers) over TCP"};
  std::string phy = "bytes";
  cmnet::HostLinkRtlConfig cfg;
  unsigned port = 0, throttle = 0, seed = 1;
  uint64_t stall_ms = 500;
  bool build_only = false;
  app.add_option("--phy", phy, "bytes (straight into the engine), uart (through the UART pins) or fifo (FT245 pins)")
      ->check(CLI::IsMember({"bytes", "uart", "fifo"}));
  app.add_option("--clks-per-bit", cfg.clks_per_bit, "UART clocks per bit")->check(CLI::Range(4, 65535));
  app.add_option("--frame-timeout-cycles", cfg.frame_timeout_cycles,
                 "the engine's FRAME_TIMEOUT: cycles a partial frame may stall while the board is busy (0: never)");
  app.add_option("--wait-states", cfg.wait_states, "extra cycles per register access")->check(CLI::Range(0, 255));
  app.add_option("--port", port, "TCP port on 127.0.0.1 (0: ephemeral, printed on stdout)")->check(CLI::Range(0u, 65535u));
  app.add_option("--throttle", throttle, "percent of cycles the host side stalls (bytes, fifo)")->check(CLI::Range(0u, 90u));
  app.add_option("--seed", seed, "seed of the stalls");
  app.add_option("--stall-timeout-ms", stall_ms,
                 "wall time a partial frame or UARTBone command may wait for its next byte before the "
                 "engine's frame timeout drops it (waiting costs no simulated cycles)");
  app.add_flag("--build-only", build_only, "build (or find) the model, print its path, exit");
  CLI11_PARSE(app, argc, argv);
  cfg.phy = phy == "uart" ? cmnet::HostLinkPhy::Uart : phy == "fifo" ? cmnet::HostLinkPhy::Fifo : cmnet::HostLinkPhy::Bytes;
  try {
    const std::string exe = cmnet::build_host_link_model(cfg);
    if (build_only) {
      std::printf("%s\n", exe.c_str());
      return 0;
    }
    std::vector<std::string> args = {exe, "--port", std::to_string(port), "--throttle", std::to_string(throttle),
                                     "--seed", std::to_string(seed), "--stall-timeout-ms", std::to_string(stall_ms)};
    std::vector<char*> av;
    for (auto& a : args) av.push_back(a.data());
    av.push_back(nullptr);
    std::fflush(stdout);
    ::execv(exe.c_str(), av.data());
    std::fprintf(stderr, "cmnet-rtlboard: cannot run %s: %s\n", exe.c_str(), std::strerror(errno));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cmnet-rtlboard: %s\n", e.what());
  }
  return 1;
}
