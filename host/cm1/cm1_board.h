// The host's view of a board that carries a CM-1 network (hw/cm1/cm1_host_regs.v): discovery by
// walking the board's block list, loading a routing pattern, running it, and reading back the
// routers' counters and the per-processor reception checks. Works the same over every
// transport (sim://, uart://, usb://, pcie://): it needs only a RegisterPort.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "gen/cm1/cm1_params.h"
#include "gen/cm1/cm1_regmap.h"
#include "host/board_blocks.h"
#include "host/board_client.h"  // most callers construct a BoardClient
#include "host/register_port.h"
#include "sim/cm1/cm1_model.h"
#include "sim/cm1/cm1_traffic.h"

namespace cmnet {

// Register offsets inside the CM-1 block (see hw/cm1/cm1_host_regs.v).
namespace cm1reg {
// The block header and BOARD block registers are the shared ones (host/board_blocks.h).
using blockreg::kBoardType, blockreg::kType, blockreg::kVersion, blockreg::kNext, blockreg::kSize;
using blockreg::kClockHz, blockreg::kLink, blockreg::kConfigId;
// The block's own registers, from its one description (gen/cm1/cm1_regmap.h).
constexpr uint32_t kCm1Type = cm1map::kBlockType;
constexpr uint32_t kC = cm1map::offset("C"), kB = cm1map::offset("B"), kP = cm1map::offset("P"),
                   kV = cm1map::offset("V"), kD = cm1map::offset("D"), kL = cm1map::offset("L"),
                   kTP = cm1map::offset("TP"), kQueueDepth = cm1map::offset("QUEUE_DEPTH"),
                   kNCounters = cm1map::offset("NCOUNTERS"), kCntStride = cm1map::offset("CNT_STRIDE"),
                   kEpHist = cm1map::offset("EP_HIST");
constexpr uint32_t kControl = cm1map::offset("CONTROL"), kStatus = cm1map::offset("STATUS"),
                   kPetit = cm1map::offset("PETIT"), kCycles = cm1map::offset("CYCLES"),
                   kLoad = cm1map::offset("LOAD"), kLoadDrops = cm1map::offset("LOAD_DROPS"),
                   kGen = cm1map::offset("GEN"), kGenCount = cm1map::offset("GEN_COUNT"),
                   kGenSeed = cm1map::offset("GEN_SEED"), kHist = cm1map::offset("HIST");
constexpr uint32_t kCounters = cm1map::offset("COUNTERS"), kReceptions = cm1map::offset("ENDPOINTS");
}  // namespace cm1reg

struct Cm1BoardInfo {
  uint32_t clock_hz = 0;
  uint32_t link = 0;
  uint32_t config_id = 0;
  uint32_t cm1_base = 0;
  Cm1Params params;
  int msg_len = 0;
  int petit_period = 0;
  int queue_depth = 0;
  int ncounters = 0;
  int cnt_stride = 0;  // counter words per chip in the counter window (a power of two)
  uint32_t ep_hist = 0; // address of the per-endpoint delivery histograms
};

struct Cm1BoardStatus {
  bool running = false;
  bool pending = false;
  bool buffered = false;
  bool hist_overrun = false;  // an endpoint histogram missed a batch (a design error)
  uint32_t petit = 0;
  uint32_t cycles = 0;
};

// What one processor's endpoint saw during a run.
struct Cm1RxCheck {
  uint32_t count = 0;
  uint32_t xor_word = 0;   // XOR of the received {DATA, VP} words (low 32 bits)
  uint32_t petit_sum = 0;  // sum of their delivery petit cycles
  uint32_t injected = 0;   // messages this processor's endpoint injected
  bool operator==(const Cm1RxCheck&) const = default;
};

class Cm1Board {
 public:
  explicit Cm1Board(RegisterPort& port);
  const Cm1BoardInfo& info() const { return info_; }
  // Throws HostError(ProtocolError) naming the first parameter that differs.
  void check_matches(const Cm1Params& p) const;
  void clear();
  // Loads the pattern into the endpoints' queues. Throws when a processor has more messages
  // than its queue holds, or the board refused or dropped any.
  void load(const Traffic& t);
  // Has the board's on-chip generator fill every queue with `count` messages per processor of
  // pattern `pattern` (sim/cm1/cm1_traffic_gen.h) and waits until it is done.
  void generate(uint32_t pattern, uint32_t count, uint32_t seed);
  void start(EjectMode mode);
  Cm1BoardStatus status();
  std::vector<Cm1ChipCounters> counters();
  std::vector<Cm1RxCheck> receptions();
  std::array<uint32_t, 16> histogram();
  // Per processor: receptions delivered in petit cycle k = 0..15 (15: 15 and later).
  std::vector<std::array<uint32_t, 16>> endpoint_histograms();

 private:
  RegisterPort& c_;
  Cm1BoardInfo info_;
  uint32_t reg(uint32_t off) const { return info_.cm1_base + off; }
};

// The reception checks the model's result implies (what a faithful board must report).
std::vector<Cm1RxCheck> expected_rx_checks(const Cm1Params& p, const Traffic& t,
                                           const Cm1RunResult& r);
// The second view: the board's reception checks against the functional oracle written from the
// paper (sim/cm1/oracle), which shares no code with the model; one sentence per disagreement.
std::vector<std::string> cm1_oracle_disagreements(const Cm1Params& p, const Traffic& t, EjectMode mode,
                                                  const std::vector<Cm1RxCheck>& rx, uint64_t petit_cycles);
// The per-endpoint delivery histograms the model's result implies.
std::vector<std::array<uint32_t, 16>> expected_endpoint_histograms(const Cm1Params& p,
                                                                   const Traffic& t,
                                                                   const Cm1RunResult& r);

}  // namespace cmnet
