// A network family: everything cmnet does with one kind of network, behind one interface, the
// way a generator registers its back ends. The commands `cmnet gen | sim | run | sweep | build |
// bench` read a config, look its "network" up in the registry (families.cpp, the one place a
// family is registered) and call the family; `cmnet list` names them.
//
// The argument structs carry what the shared commands parse. A family reads the fields it uses
// and refuses, by name, an option it has no meaning for (reject_option), so a new family adds
// its options here, documented with the family that reads them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bitstreams/board.h"
#include "gen/core/config.h"
#include "gen/core/design.h"
#include "host/cli/fpga_bench.h"  // FpgaBlock
#include "sim/core/rtl_build.h"  // TraceWindow
#include "sim/core/sim_board.h"  // start_board

namespace CLI {
class App;
}

namespace cmnet {

struct StreamBoardSpec;

// `cmnet sim CONFIG --engine rtl|model (--pattern NAME | --traffic FILE) --out FILE.jsonl`
struct SimArgs {
  std::string engine = "model";  // rtl (Verilator) or model (the reference model)
  std::string pattern, traffic, out;
  uint64_t seed = 1;
  int per_proc = 1;              // messages per endpoint (CM-1: per processor, the VP ratio)
  std::string mode;              // CM-1: ejector mode or | one ("" = the config's)
  uint64_t max_steps = 10000;    // give up after this many (CM-1: petit cycles)
  // An FST waveform of the RTL run (file "" = none), its window in clock cycles of the run
  // (from its first cycle after reset; CM-1: bit-times from petit cycle 0, one clock each).
  TraceWindow trace;
};

// `cmnet run CONFIG [--board URI] ...`: a workload on a board through the host driver.
struct RunArgs {
  std::string board;             // URI; "" = start the family's simulated board
  std::string pattern = "permutation", traffic, out_dir = "out/run";
  uint64_t seed = 1;
  int per_proc = 1;
  double timeout_s = 300;
  std::string mode;              // CM-1: ejector mode
  std::string generator;         // CM-1: the board's on-chip generator makes the pattern
  std::string sim_link = "uart"; // the simulated board's host-link PHY: uart | fifo
  std::string rtl;               // simulate a `cmnet build --mode host` directory
  // The simulated board's FST waveform (file "" = none), its window in clock cycles after the
  // board's power-on reset.
  TraceWindow trace;
};

// `cmnet sweep CONFIG`: offered load against accepted throughput, each point against the model.
struct SweepArgs {
  std::string board, pattern = "permutation", out_dir = "out/sweep";
  std::string sim_link = "uart";
  uint64_t seed = 1;
  int max_per_proc = 64;
  double timeout_s = 300;
  std::string mode;              // CM-1: ejector mode
};

// `cmnet board CONFIG [--port P] [--sim-link uart|fifo]`: the simulated board alone, serving.
struct BoardArgs {
  std::string sim_link = "uart"; // its host-link PHY, as `run --sim-link`
  uint16_t port = 0;             // on 127.0.0.1; 0 = any free port
};

// `cmnet build CONFIG --board NAME -o DIR [--mode M]`: the board top the flow synthesizes.
struct BuildArgs {
  std::string mode;              // "" = the family's first build mode
  std::string pattern = "permutation";  // self-test pattern
  uint64_t pattern_seed = 1;
  int per_proc = 1;
  std::string traffic;           // cm5data network and cabled modes: the messages from a traffic file, not a pattern
  int chip_id = 0;               // CM-1 chip mode: this FPGA's chip number
  int bit_clocks = 8;            // CM-1 cube mode: clocks per bit-time
  double go_delay_s = 0.5;       // CM-1 cube mode: seconds from lock to the run
};

// `cmnet bench [--family NAME] [--json FILE] [--quick]`: the family's figures beside its paper.
struct BenchArgs {
  std::string json;              // "" = the family's default file name
  bool quick = false;
  std::string only;              // "" = every section; else one section of the family's bench
};

class Family {
 public:
  virtual ~Family() = default;
  virtual std::string name() const = 0;   // the config's "network"
  virtual std::string title() const = 0;  // the network and the paper it follows, one line
  virtual std::vector<std::string> patterns() const = 0;
  virtual std::vector<std::string> build_modes() const = 0;  // first = default
  // What `cmnet bench` measures for this family, one line each (for `cmnet list`).
  virtual std::vector<std::string> figures() const = 0;

  // Parses and validates the config's family object; ConfigError names the file and the field.
  virtual void check(const NetworkConfig& cfg) const = 0;
  // The config as canonical JSON, every default filled in (recorded in reports).
  virtual std::string canonical_json(const NetworkConfig& cfg) const = 0;
  // `cmnet gen`: the RTL, filelist, manifest; and a one-line summary of the derived figures.
  virtual GeneratedDesign emit(const NetworkConfig& cfg) const = 0;
  virtual std::string summary(const NetworkConfig& cfg) const = 0;
  // `cmnet build`: the board top of `args.mode` for `board`.
  virtual GeneratedDesign board_top(const NetworkConfig& cfg, const Board& board,
                                    const BuildArgs& args) const = 0;
  // `cmnet sim`, `run`, `sweep`, `bench`: return the process exit code (0 = agreed/completed).
  virtual int sim(const NetworkConfig& cfg, const SimArgs& args) const = 0;
  virtual int run(const NetworkConfig& cfg, const RunArgs& args) const = 0;
  virtual int sweep(const NetworkConfig& cfg, const SweepArgs& args) const = 0;
  virtual int bench(const BenchArgs& args) const = 0;
  // `cmnet board`: starts the simulated board that `run` starts when given no --board (the very
  // top that is flashed), by the same path; it serves until SimBoard::stop. The default refuses
  // (InputError): a family without a board.
  virtual std::unique_ptr<SimBoard> start_board(const NetworkConfig& cfg, const BoardArgs& args) const;
  // The sections `cmnet bench --only NAME` may run alone (none: the whole bench only).
  virtual std::vector<std::string> bench_sections() const { return {}; }
  // `cmnet bench-fpga`: the family's blocks on the iCE40 HX8K (host/cli/fpga_bench.h); none: a family
  // whose hardware is another family's (cm5).
  virtual std::vector<FpgaBlock> fpga_blocks() const = 0;
  // Commands only this family has (CM-1: demo, cube); names must not clash.
  virtual void add_commands(CLI::App& app) const { (void)app; }
};

// The members every family defines in its <family>_family.cpp, declared once: a family's class
// writes CMNET_FAMILY_MEMBERS in its public part, beside name() and what it adds (bench_sections,
// add_commands).
#define CMNET_FAMILY_MEMBERS                                                                        \
  std::string title() const override;                                                              \
  std::vector<std::string> patterns() const override;                                              \
  std::vector<std::string> build_modes() const override;                                           \
  std::vector<std::string> figures() const override;                                               \
  void check(const NetworkConfig& cfg) const override;                                             \
  std::string canonical_json(const NetworkConfig& cfg) const override;                             \
  GeneratedDesign emit(const NetworkConfig& cfg) const override;                                   \
  std::string summary(const NetworkConfig& cfg) const override;                                    \
  GeneratedDesign board_top(const NetworkConfig& cfg, const Board& board, const BuildArgs& args)   \
      const override;                                                                              \
  int sim(const NetworkConfig& cfg, const SimArgs& args) const override;                           \
  int run(const NetworkConfig& cfg, const RunArgs& args) const override;                           \
  int sweep(const NetworkConfig& cfg, const SweepArgs& args) const override;                       \
  int bench(const BenchArgs& args) const override;                                                 \
  std::vector<FpgaBlock> fpga_blocks() const override;                                             \
  std::unique_ptr<SimBoard> start_board(const NetworkConfig& cfg, const BoardArgs& args) const override;

// Every registered family, in registration order.
const std::vector<const Family*>& families();
// The family of `network`; ConfigError naming `where` and listing the families otherwise.
const Family& find_family(const std::string& network, const std::string& where);
// load_config_file + find_family + Family::check: a config ready for its family.
NetworkConfig load_network(const std::string& path, const Family** family);

// An option the family has no meaning for: InputError "--OPT: not used by the FAMILY family".
void reject_option(const Family& f, bool given, const std::string& option);

// `--trace FILE.fst` and its window as `sim` and `run` take them: InputError naming the option
// when the file does not end in .fst, the window is reversed, or (`sim`) the engine is not
// "rtl" (the model has no waveforms). Every family's sim and run call it before running;
// returns `trace`.
const TraceWindow& check_trace(const TraceWindow& trace, const std::string& engine = "rtl");

// The stream runner's options (host/stream_runner.h) from `cmnet run`'s, for a family on the
// stream board: the board (--board, or the simulated one: --sim-link, --rtl DIR), -o, the
// timeout and --trace (checked).
struct StreamRunArgs;
StreamRunArgs stream_run_args(const RunArgs& a);

// Family::start_board of a family on the stream board (gen/core/stream_board.h): the simulated
// board a stream run starts (host/stream_runner.h, start_stream_sim_board) for `spec`.
std::unique_ptr<SimBoard> start_stream_board(const StreamBoardSpec& spec, const BoardArgs& args);

}  // namespace cmnet
