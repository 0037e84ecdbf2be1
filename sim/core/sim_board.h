// A simulated board as a server process: builds (or finds in the cache) the Verilator model of a
// generated board top (`<family>_host_board`, gen/core/host_board.h) with sim/core/board_main.cpp,
// starts it on 127.0.0.1 (an ephemeral port unless one is asked for), and stops it on destruction.
// Every family's `cmnet run` starts one when no board URI is given, `cmnet board` serves one
// alone; tests drive the real host driver against it.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>

#include "gen/core/design.h"
#include "gen/core/host_board.h"
#include "sim/core/harness_process.h"
#include "sim/core/rtl_build.h"

namespace cmnet {

// The model of `design` (top `<family>_host_board`) emitted with `opt`; returns its executable.
std::string build_board_model(const GeneratedDesign& design, const HostBoardOptions& opt, bool trace = false);

class SimBoard {
 public:
  // `trace`: an FST waveform of the board, its window in clock cycles after the power-on reset.
  // `log_name` names the harness's log file (harness_log_path). `port`: its TCP port on
  // 127.0.0.1, 0 = any free one (runtime_error naming the port when it is taken).
  SimBoard(const GeneratedDesign& design, const HostBoardOptions& opt, const TraceWindow& trace = {},
           const std::string& log_name = "board", uint16_t port = 0);
  virtual ~SimBoard() = default;  // owned through the base by `cmnet board` (Cm1SimBoard too)

  std::string uri() const { return "sim://127.0.0.1:" + std::to_string(port()); }
  uint16_t port() const { return proc_->port(); }
  pid_t pid() const { return proc_->pid(); }
  bool running() const { return proc_->running(); }
  const std::string& log_path() const { return proc_->log_path(); }
  // SIGTERM, wait; returns the harness's last stdout line (its statistics). Idempotent.
  std::string stop() { return proc_->stop(); }
  // SIGKILL without waiting for statistics (a board that vanishes).
  void kill_now() { proc_->kill_now(); }
  // LiteX's csr.csv of this board top, written beside the model's Verilog.
  const std::string& csr_csv_path() const { return csr_csv_; }

 private:
  std::string csr_csv_;
  std::unique_ptr<HarnessProcess> proc_;
};

}  // namespace cmnet
