#include "sim/cm1/cm1_sim_board.h"

#include <filesystem>
#include <string>
#include <vector>

#include "sim/core/rtl_build.h"

namespace cmnet {

std::string build_cm1_board_model(const GeneratedDesign& design, const HostBoardOptions& opt, bool trace) {
  const std::string src = CMNET_SOURCE_DIR;
  const bool fifo = opt.phy == HostLinkPhy::Fifo;
  const std::string cpb = fifo ? "-DCMNET_FIFO_PHY=1"
                               : "-DCMNET_CLKS_PER_BIT=" + std::to_string(opt.clock_hz / opt.baud);
  // The harness compiles the bridge in (#include), so its sources belong in the cache key.
  const std::string button = std::string("-DCMNET_RESET_BUTTON=") + (opt.reset_button ? "1" : "0");
  // CMNET_SIMULATED_BOARD: the top's two simulator ports (the stall timeout in wall time).
  std::vector<std::string> vflags = trace ? trace_flags() : std::vector<std::string>{};
  vflags.push_back("+define+CMNET_SIMULATED_BOARD");
  return build_verilated_model(design, "cm1_host_board", src + "/sim/cm1/cm1_board_main.cpp", {cpb, button},
                               {src + "/sim/core/board_rtl_bridge.h", src + "/sim/core/board_rtl_bridge.cpp",
                                src + "/sim/core/harness_driver.h"},
                               vflags);
}

std::string build_cm1_board_model(const Cm1Config& cfg, const HostBoardOptions& opt, bool trace) {
  return build_cm1_board_model(emit_cm1_host_board(cfg, opt), opt, trace);
}

Cm1SimBoard::Cm1SimBoard(const Cm1Config& cfg, const HostBoardOptions& opt, const TraceWindow& trace)
    : Cm1SimBoard(emit_cm1_host_board(cfg, opt), opt, trace) {}

namespace {
// The model's executable is DIR/obj/Vcm1_host_board, its Verilog (and csr.csv) in DIR/rtl.
std::string beside_model(const std::string& exe, const std::string& file) {
  return (std::filesystem::path(exe).parent_path().parent_path() / "rtl" / file).string();
}
}  // namespace

Cm1SimBoard::Cm1SimBoard(const GeneratedDesign& design, const HostBoardOptions& opt, const TraceWindow& trace)
    : csr_csv_(beside_model(build_cm1_board_model(design, opt, trace.on()), "csr.csv")),
      proc_(std::make_unique<HarnessProcess>(build_cm1_board_model(design, opt, trace.on()),
                                             std::vector<std::string>{"--port", "0"},
                                             harness_log_path("cm1board"), "simulated board",
                                             // a model's first build can take minutes on a loaded machine
                                             std::chrono::seconds(60), trace.env())) {}

}  // namespace cmnet
