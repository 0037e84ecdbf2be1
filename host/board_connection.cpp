#include "host/board_connection.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>

#include "bitstreams/board.h"
#include "gen/core/errors.h"
#include "host/board_client.h"

namespace cmnet {

std::unique_ptr<SimBoard> sim_board_of_build(const std::string& dir, const std::string& top,
                                             const TraceWindow& trace) {
  const std::string report = dir + "/report.json";
  std::ifstream in(report);
  if (!in) throw InputError("--rtl " + dir + ": no report.json (not a cmnet build directory)");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    throw InputError(report + ": " + e.what());
  }
  const std::string mode = j.value("mode", ""), built = j.value("top", "");
  if (mode != "host" || built != top)
    throw InputError("--rtl " + dir + ": built with --mode " + mode + " (top " + built + "); cmnet run drives " +
                     top + ": cmnet build --mode host with this config");
  const Board board = load_board(j.value("board_file", j.value("board", "")));
  HostBoardOptions h;
  h.clock_hz = static_cast<uint32_t>(board.clock_mhz * 1e6 + 0.5);
  h.reset_button = board.reset.has_value() && board.reset->active_low;
  spdlog::info("simulating the build in {} ({} top for {}, {} Hz)", dir, top, board.name, h.clock_hz);
  return std::make_unique<SimBoard>(read_design(dir + "/rtl", top), h, trace, top);
}

BoardConnection connect_board_source(const BoardSource& src) {
  BoardConnection c;
  c.uri = src.uri;
  if (!src.rtl_dir.empty()) {
    if (!c.uri.empty()) throw InputError("--rtl and --board: give one (--rtl simulates a build directory)");
    c.sim = sim_board_of_build(src.rtl_dir, src.top, src.trace);
  } else if (c.uri.empty()) {
    spdlog::info("no --board given: starting the simulated board (building its model on first use)");
    c.sim = src.start();
  }
  if (c.sim) {
    c.uri = c.sim->uri();
    // LiteX's tools: litex_server --uart --uart-port socket://127.0.0.1:PORT with this csr.csv.
    spdlog::info("LiteX register map of the simulated board: {}", c.sim->csr_csv_path());
  }
  spdlog::info("board: {}", c.uri);
  BoardClientOptions bo;
  const double reply_s = src.reply_timeout_s > 0 ? src.reply_timeout_s : c.sim ? 30.0 : 3.0;
  bo.timeout = std::chrono::milliseconds(static_cast<long long>(reply_s * 1000));
  c.port = open_register_port(c.uri, bo);
  return c;
}

}  // namespace cmnet
