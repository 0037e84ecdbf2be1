// LiteX's host tools against every cmnet board (issue 24, point 5). Each family's host-link board
// top, as `cmnet build EXAMPLE --board icebreaker --mode host|stream` makes it from the family's
// smallest example config, and the host-link test board:
//   - its csr.csv loads the way LiteX's CSRBuilder loads it (tests/core/litex_csr_loader.h):
//     5-field rows, the two bus-width constants, identifier_mem, parsable addresses and sizes;
//   - on the simulated board (the Verilator model of that top), a client that behaves like
//     CommUART reads the identifier as litex_client --ident does and every register of the
//     csr.csv as litex_client --regs does, each equal to what cmnet's own driver reads there,
//     and writes the registers that are safe to write, read back, with writes split at 142
//     words as CommUART splits them at 115200 baud.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "bitstreams/board.h"
#include "gen/core/errors.h"
#include "gen/core/litex_csr.h"
#include "host/board_client.h"
#include "host/cli/family.h"
#include "sim/core/host_link_rtl.h"
#include "sim/core/sim_board.h"
#include "tests/core/commuart_like.h"
#include "tests/core/litex_csr_loader.h"

namespace cmnet {
namespace {

using namespace std::chrono_literals;
using testing_support::CommUartLike;
using testing_support::find_register;
using testing_support::LitexCsrFile;
using testing_support::load_litex_csr;
using testing_support::load_litex_csr_file;

// A register LiteX's tools may write without disturbing the board (configuration, or run
// control with nothing to send), and the bits it reads back.
struct SafeWrite {
  std::string reg;
  uint32_t mask;
};

struct BoardCase {
  std::string example;  // in gen/examples
  std::string mode;     // the build mode of the family's host-link board top
  std::vector<SafeWrite> writes;
};

// Every stream board: CONTROL's run bit (a network with nothing to send only idles).
const std::vector<SafeWrite> kStreamWrites = {{"strm_control", 0x1}};

const std::vector<BoardCase>& boards() {
  static const std::vector<BoardCase> b = {
      {"cm1_board.json", "host", {{"cm1_gen_seed", 0xFFFFFFFF}, {"cm1_gen_count", 0xFFFF}}},
      {"cm5data_4_board.json", "host", kStreamWrites},
      {"cm5ctl_2.json", "host", kStreamWrites},
      {"clos_n224.json", "stream", kStreamWrites},
      {"hcube_3.json", "host", kStreamWrites},
  };
  return b;
}

std::string case_name(const ::testing::TestParamInfo<BoardCase>& i) {
  return i.param.example.substr(0, i.param.example.find('.'));
}
void PrintTo(const BoardCase& c, std::ostream* os) { *os << c.example << " --mode " << c.mode; }

struct Emitted {
  NetworkConfig cfg;
  GeneratedDesign design;
};

// The icebreaker's 12 MHz clock and active-low button give exactly HostBoardOptions{}, the
// options the simulated board is started with.
Emitted emit_board(const BoardCase& c) {
  Emitted e;
  const Family* f = nullptr;
  e.cfg = load_network(std::string(CMNET_SOURCE_DIR) + "/gen/examples/" + c.example, &f);
  BuildArgs a;
  a.mode = c.mode;
  e.design = f->board_top(e.cfg, load_board("icebreaker"), a);
  return e;
}

std::string file_of(const GeneratedDesign& d, const std::string& name) {
  for (const auto& [n, text] : d.files)
    if (n == name) return text;
  ADD_FAILURE() << d.top << ": no " << name;
  return {};
}

class LitexBoard : public ::testing::TestWithParam<BoardCase> {};

// ------------------------------------------------------------------ csr.csv, as LiteX loads it

TEST_P(LitexBoard, CsrCsvLoadsAsLitexLoadsIt) {
  const Emitted e = emit_board(GetParam());
  const LitexCsrFile csr = load_litex_csr(file_of(e.design, "csr.csv"), GetParam().example + " csr.csv");
  EXPECT_TRUE(csr.ok()) << csr.report();
  EXPECT_GT(csr.registers.size(), 8u);
  for (const char* r : {"board_type", "board_clock_hz", "board_link", "board_config_id"})
    EXPECT_NE(find_register(csr, r), nullptr) << GetParam().example << " csr.csv: no " << r;
  for (const SafeWrite& w : GetParam().writes) {
    const auto* r = find_register(csr, w.reg);
    ASSERT_NE(r, nullptr) << GetParam().example << " csr.csv: no " << w.reg;
    EXPECT_EQ(r->mode, "rw") << w.reg;
  }
}

TEST(LitexCsr, HostLinkTestBoardsCsrCsvLoadsAsLitexLoadsIt) {
  const HostLinkRtlConfig cfg;
  const LitexCsrFile csr = load_litex_csr(file_of(host_link_design(cfg), "csr.csv"), "host-link test board csr.csv");
  EXPECT_TRUE(csr.ok()) << csr.report();
  const auto* ram = find_register(csr, "demo_ram");
  ASSERT_NE(ram, nullptr);
  EXPECT_EQ(ram->size, 1u << cfg.ram_aw);
  EXPECT_EQ(csr.bases.at("identifier_mem"), 0x400u);
}

// The loader fails where LiteX's fails, naming the file and the thing: the file (no
// constants), a blank line, a short row, an address that is not hex, a name given twice, a
// window over another register.
TEST(LitexCsr, TheLoaderNamesWhatLitexWouldRefuse) {
  auto problems = [](const std::string& text) { return load_litex_csr(text, "x.csv").report(); };
  const std::string ok = "csr_base,identifier_mem,0x00000400,,\n"
                         "csr_register,a,0x00000000,1,ro\n"
                         "constant,config_csr_data_width,32,,\n"
                         "constant,config_bus_address_width,32,,\n";
  EXPECT_EQ(problems("# a comment\n" + ok), "");
  const std::string no_constants = problems("csr_base,identifier_mem,0x00000400,,\n");
  EXPECT_NE(no_constants.find("x.csv: no 'constant,config_csr_data_width,32,,' row "
                              "(LiteX: KeyError 'csr_data_width not found in constants"),
            std::string::npos)
      << no_constants;
  EXPECT_NE(no_constants.find("x.csv: no 'constant,config_bus_address_width,32,,' row"), std::string::npos);
  EXPECT_NE(problems(ok + "\n").find("x.csv:5: a blank line has 0 fields"), std::string::npos);
  EXPECT_NE(problems(ok + "csr_base,b,0x0,\n").find("x.csv:5: 'csr_base,b,0x0,' has 4 fields"), std::string::npos);
  EXPECT_NE(problems(ok + "csr_register,b,0x1g,1,ro\n").find("csr_register b: address '0x1g' is not hex"),
            std::string::npos);
  EXPECT_NE(problems(ok + "csr_register,a,0x00000010,1,ro\n").find("x.csv:5: csr_register a given twice"),
            std::string::npos);
  EXPECT_NE(problems(ok + "csr_register,w,0x00000000,2,rw\n").find("overlaps"), std::string::npos);
  EXPECT_NE(problems(ok + "csr_register,m,0x00000100,1,rx\n").find("mode 'rx'"), std::string::npos);
  EXPECT_NE(problems("csr_register,a,0x00000000,1,ro\n").find("no 'csr_base,identifier_mem"), std::string::npos);
}

// The one writer refuses a row LiteX could not use, naming the board and the row.
TEST(LitexCsr, TheWriterRefusesBadRowsByName) {
  auto refused = [](const LitexCsrRegister& r) {
    try {
      (void)litex_csr_csv(LitexCsrMap{"test board", {{"identifier_mem", 0x400}}, {r}});
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refused({"Ctl", 0, 1, "rw"}), "csr.csv of test board: csr_register 'Ctl' is not a lowercase identifier");
  EXPECT_EQ(refused({"ctl", 2, 1, "rw"}), "csr.csv of test board: csr_register ctl at 0x00000002 is not word-aligned");
  EXPECT_EQ(refused({"ctl", 0, 0, "rw"}), "csr.csv of test board: csr_register ctl has 0 words");
  EXPECT_EQ(refused({"ctl", 0xFFFFFFFC, 2, "ro"}),
            "csr.csv of test board: csr_register ctl runs past the 32-bit address space");
  EXPECT_EQ(refused({"ctl", 0, 1, "r"}), "csr.csv of test board: csr_register ctl: mode 'r' (allowed: ro, rw, wo)");
  const std::string csv = litex_csr_csv(LitexCsrMap{"test board", {{"identifier_mem", 0x400}}, {{"ctl", 0, 1, "rw"}}});
  EXPECT_TRUE(load_litex_csr(csv, "written").ok()) << load_litex_csr(csv, "written").report();
}

// ------------------------------------------------------------------ LiteX's tools on the board

BoardClientOptions client_options() {
  BoardClientOptions o;
  o.timeout = 10000ms;  // only ends a wait when something is broken (ASan, a loaded machine)
  return o;
}

// What cmnet's own driver reads at every word of every readable register: the oracle.
std::map<uint32_t, uint32_t> frame_view(const std::string& uri, const LitexCsrFile& csr) {
  std::map<uint32_t, uint32_t> v;
  BoardClient c = BoardClient::open(uri, client_options());
  for (const auto& r : csr.registers) {
    if (r.mode == "wo") continue;
    const auto words = c.burst_read(r.addr, r.size);
    for (uint32_t j = 0; j < r.size; ++j) v[r.addr + 4 * j] = words[j];
  }
  return v;
}

// litex_client --ident: one read per character at identifier_mem + 4 i, the low byte, until a 0.
std::string litex_ident(CommUartLike& ub, uint32_t base) {
  std::string s;
  for (uint32_t i = 0; i < 256; ++i) {
    const char c = static_cast<char>(ub.read(base + 4 * i, 1)[0] & 0xFF);
    if (c == '\0') break;
    s.push_back(c);
  }
  return s;
}

// A safe register written once, then by a fixed burst of 300 words (CommUART: three commands,
// 142 + 142 + 16), then back to its old value; each read back.
void write_and_read_back(CommUartLike& ub, const testing_support::LitexCsrRegisterRow& r, uint32_t mask,
                         uint32_t old) {
  SCOPED_TRACE(r.name);
  const uint32_t one = 0x9E3779B9u & mask;
  ub.write(r.addr, {one});
  EXPECT_EQ(ub.read(r.addr, 1)[0] & mask, one);
  std::vector<uint32_t> burst(300);
  for (size_t i = 0; i < burst.size(); ++i) burst[i] = (0x9E3779B9u * static_cast<uint32_t>(i + 7)) & mask;
  const size_t before = ub.write_commands();
  ub.write(r.addr, burst, /*fixed=*/true);
  EXPECT_EQ(ub.write_commands() - before, 3u) << "300 words at " << ub.max_write_words() << " a command";
  EXPECT_EQ(ub.read(r.addr, 1)[0] & mask, burst.back());
  ub.write(r.addr, {old});
  EXPECT_EQ(ub.read(r.addr, 1)[0] & mask, old & mask);
}

TEST_P(LitexBoard, CommUartClientReadsEveryRegisterAndWritesSplitAt142Words) {
  const Emitted e = emit_board(GetParam());
  SimBoard sim(e.design, HostBoardOptions{}, {}, "litex-" + e.cfg.network);
  const LitexCsrFile csr = load_litex_csr_file(sim.csr_csv_path());
  ASSERT_TRUE(csr.ok()) << csr.report();
  const std::map<uint32_t, uint32_t> frames = frame_view(sim.uri(), csr);
  std::string frame_ident;
  {
    BoardClient c = BoardClient::open(sim.uri(), client_options());
    for (uint32_t x : c.burst_read(csr.bases.at("identifier_mem"), 256)) {
      if ((x & 0xFF) == 0) break;
      frame_ident.push_back(static_cast<char>(x & 0xFF));
    }
  }

  CommUartLike ub(sim.port(), 1ms);  // every byte its own write, 1 ms apart
  ASSERT_EQ(ub.max_write_words(), 142u);
  const std::string ident = litex_ident(ub, csr.bases.at("identifier_mem"));
  EXPECT_EQ(ident.rfind("cmnet " + e.cfg.network + " " + e.cfg.name + ":", 0), 0u) << ident;
  EXPECT_EQ(ident, frame_ident);

  // litex_client --regs: every register in file order, its words in reads of at most 255.
  for (const auto& r : csr.registers) {
    if (r.mode == "wo") continue;
    SCOPED_TRACE(r.name);
    const auto v = ub.read(r.addr, r.size);
    ASSERT_EQ(v.size(), r.size);
    for (uint32_t j = 0; j < r.size; ++j) EXPECT_EQ(v[j], frames.at(r.addr + 4 * j)) << "word " << j;
  }
  EXPECT_EQ(frames.at(find_register(csr, "board_type")->addr), 0x434D4E54u);  // 'CMNT'
  EXPECT_EQ(frames.at(find_register(csr, "board_clock_hz")->addr), HostBoardOptions{}.clock_hz);

  for (const SafeWrite& w : GetParam().writes) {
    const auto* r = find_register(csr, w.reg);
    ASSERT_NE(r, nullptr) << w.reg;
    write_and_read_back(ub, *r, w.mask, frames.at(r->addr));
  }
  const std::string stats = sim.stop();
  EXPECT_NE(stats.find("framing_errors=0"), std::string::npos) << stats;
}

INSTANTIATE_TEST_SUITE_P(Examples, LitexBoard, ::testing::ValuesIn(boards()), case_name);

}  // namespace
}  // namespace cmnet
