// The host-link RTL as a simulated board: the hand-written modules (hw/common/cmnet_frame_engine.v,
// the PHYs, the demo register file), a Verilator model of the test board built from them
// (cached like every other model, sim/core/rtl_build.h), and RtlBoard, which runs that model as a
// child process serving the host-link protocol on 127.0.0.1 (sim/core/host_link_main.cpp), so that
// BoardClient::open(board.uri()) talks to the RTL.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gen/core/design.h"
#include "gen/core/host_link_phy.h"
#include "sim/core/harness_process.h"

namespace cmnet {


struct HostLinkRtlConfig {
  HostLinkPhy phy = HostLinkPhy::Bytes;
  int clks_per_bit = 8;                   // UART only, >= 4
  uint32_t frame_timeout_cycles = 50000;  // the engine's FRAME_TIMEOUT (0: never)
  uint32_t bus_timeout_cycles = 1023;
  int ram_aw = 10;                        // demo RAM: 2^ram_aw words at 0x1000
  int wait_states = 0;                    // demo register file's extra cycles per access
};

// LiteX's identifier of the test board (the demo register file's identifier_mem at 0x400).
std::string host_link_identifier(const HostLinkRtlConfig& cfg);
// The hand-written host-link modules, in compile order (file names in hw_dir()).
const std::vector<std::string>& host_link_hw_files();
// Those files plus a generated wrapper, cmnet_host_link_sim, that sets the parameters, and
// LiteX's csr.csv of the board.
GeneratedDesign host_link_design(const HostLinkRtlConfig& cfg);
// Builds (or finds in the cache) the harness executable; returns its path.
std::string build_host_link_model(const HostLinkRtlConfig& cfg);

struct RtlBoardOptions {
  int throttle_percent = 0;             // host-side stalls (bytes PHY) / FT245 empty-full (FIFO)
  uint32_t seed = 1;
  uint64_t stall_timeout_ms = 500;       // wall time a partial frame may wait (BridgeOptions)
  std::string log_path;                 // the harness's stderr; empty: a file in the temp dir
};

class RtlBoard {
 public:
  // Builds the model if needed, starts it and waits (at most 60 s) for its port.
  explicit RtlBoard(const HostLinkRtlConfig& cfg, RtlBoardOptions options = {});
  ~RtlBoard();  // stop()
  RtlBoard(const RtlBoard&) = delete;
  RtlBoard& operator=(const RtlBoard&) = delete;

  uint16_t port() const { return proc_->port(); }
  std::string uri() const { return "sim://127.0.0.1:" + std::to_string(port()); }
  const std::string& log_path() const { return proc_->log_path(); }
  // LiteX's csr.csv of this board (registers and identifier_mem), beside the model's Verilog.
  const std::string& csr_csv_path() const { return csr_csv_; }
  bool running() const;
  // Stops the harness (SIGTERM) and returns its statistics ("cycles", "overruns",
  // "frame_errors", ...; see sim/core/host_link_main.cpp) plus "exit_status". Idempotent.
  std::map<std::string, uint64_t> stop();

 private:
  std::string csr_csv_;
  std::unique_ptr<HarnessProcess> proc_;
  std::map<std::string, uint64_t> stats_;
};

}  // namespace cmnet
