// The board a run drives, reached one way for every family: the board at a URI, a simulated
// board started for the run (stopped on destruction), or a `cmnet build --mode host` directory's
// rtl/ simulated (the very top its bitstream was made from). A family's connection adds its own
// driver on top (CM-1: host/cm1/cm1_runner.h; the stream board: host/stream_runner.h).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "gen/core/host_board.h"
#include "host/register_port.h"
#include "sim/core/sim_board.h"

namespace cmnet {

struct BoardSource {
  std::string uri;        // "" = a simulated board
  std::string rtl_dir;    // a build directory to simulate instead of `start` (not with `uri`)
  std::string top;        // the board top a build directory must hold: "<family>_host_board"
  TraceWindow trace;      // the simulated board's waveform (either kind)
  // Starts the config's own simulated board (when neither `uri` nor `rtl_dir` is given).
  std::function<std::unique_ptr<SimBoard>()> start;
  // How long one reply may take; 0: 3 s for a board, 30 s for a simulated one (it answers only
  // between batches of cycles).
  double reply_timeout_s = 0;
};

struct BoardConnection {
  std::unique_ptr<SimBoard> sim;  // the simulated board, when this run started one
  std::string uri;
  std::unique_ptr<RegisterPort> port;  // framed protocol (sim, uart, usb) or PCIe registers
};

// Connects to `src`; InputError for a build directory that is not one of `src.top`, HostError
// for a link that fails.
BoardConnection connect_board_source(const BoardSource& src);

// The simulated board of a build directory: its rtl/ with the options its board file gave the
// top (clock, reset button; the flow's host top has the UART PHY). InputError unless `dir` was
// built with --mode host for `top`.
std::unique_ptr<SimBoard> sim_board_of_build(const std::string& dir, const std::string& top,
                                             const TraceWindow& trace);

}  // namespace cmnet
