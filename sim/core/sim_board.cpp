#include "sim/core/sim_board.h"

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace cmnet {

std::string build_board_model(const GeneratedDesign& design, const HostBoardOptions& opt, bool trace) {
  const std::string src = CMNET_SOURCE_DIR;
  const bool fifo = opt.phy == HostLinkPhy::Fifo;
  const std::string cpb = fifo ? "-DCMNET_FIFO_PHY=1"
                               : "-DCMNET_CLKS_PER_BIT=" + std::to_string(opt.clock_hz / opt.baud);
  const std::string button = std::string("-DCMNET_RESET_BUTTON=") + (opt.reset_button ? "1" : "0");
  const std::string top = "-DCMNET_TOP=V" + design.top;
  // CMNET_SIMULATED_BOARD: the top's two simulator ports (the stall timeout in wall time).
  std::vector<std::string> vflags = trace ? trace_flags() : std::vector<std::string>{};
  vflags.push_back("+define+CMNET_SIMULATED_BOARD");
  // The harness compiles the bridge in (#include), so its sources belong in the cache key.
  return build_verilated_model(design, design.top, src + "/sim/core/board_main.cpp", {cpb, button, top},
                               {src + "/sim/core/board_rtl_bridge.h", src + "/sim/core/board_rtl_bridge.cpp",
                                src + "/sim/core/harness_driver.h"},
                               vflags);
}

namespace {
// The model's executable is DIR/obj/V<top>, its Verilog (and csr.csv) in DIR/rtl.
std::string beside_model(const std::string& exe, const std::string& file) {
  return (std::filesystem::path(exe).parent_path().parent_path() / "rtl" / file).string();
}
}  // namespace

SimBoard::SimBoard(const GeneratedDesign& design, const HostBoardOptions& opt, const TraceWindow& trace,
                   const std::string& log_name, uint16_t port) {
  const std::string exe = build_board_model(design, opt, trace.on());
  csr_csv_ = beside_model(exe, "csr.csv");
  proc_ = std::make_unique<HarnessProcess>(exe, std::vector<std::string>{"--port", std::to_string(port)}, harness_log_path(log_name),
                                           "simulated board",
                                           // a model's first build can take minutes on a loaded machine
                                           std::chrono::seconds(60), trace.env());
}

}  // namespace cmnet
