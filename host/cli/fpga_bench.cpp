#include "host/cli/fpga_bench.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include "gen/core/errors.h"
#include "host/cli/commands.h"
#include "host/cli/family.h"

namespace cmnet {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

ModulePlaceOptions module_place_options(const PlaceableModule& m, const std::string& dir) {
  ModulePlaceOptions o;
  o.dir = dir;
  o.before_synth = m.before_synth;
  o.skip_files = m.skip_files;
  return o;
}

FpgaMeasurement measure_module(const PlaceableModule& m, const FpgaRunOptions& o) {
  ModulePlaceOptions po = module_place_options(m, o.dir);
  po.seeds = o.seeds;
  po.freq_mhz = o.freq_mhz;
  po.no_fit_is_result = true;
  FpgaMeasurement r;
  try {
    const ModulePlacement p = place_module_ice40(m.design, m.top, po);
    r.luts = p.luts;
    r.ffs = p.ffs;
    r.ram_blocks = p.ram_blocks;
    r.logic_cells = p.logic_cells;
    r.logic_cells_available = p.logic_cells_available;
    r.wrapped = p.wrapped;
    if (!p.not_fit.empty()) {
      r.status = FpgaMeasurement::Status::DoesNotFit;
      r.detail = p.not_fit;
      return r;
    }
    r.status = FpgaMeasurement::Status::Placed;
    for (const auto& s : p.runs) r.fmax.push_back({s.seed, s.fmax_mhz, s.critical});
  } catch (const std::exception& e) {
    r.status = FpgaMeasurement::Status::Error;
    r.detail = e.what();
  }
  return r;
}

FpgaMeasurement measure_board_top(const GeneratedDesign& top, const Board& board, const std::string& mode,
                                  const std::string& config_json, const FpgaRunOptions& o, bool ignore_loops) {
  FpgaMeasurement r;
  r.status = FpgaMeasurement::Status::Placed;
  std::string dir;  // the last run's
  try {
    for (int seed : o.seeds) {
      FlowOptions fo;
      fo.out_dir = dir = o.dir + (o.seeds.size() > 1 ? "/seed" + std::to_string(seed) : std::string());
      fo.freq_mhz = o.freq_mhz;
      fo.seed = seed;
      fo.mode = mode;
      fo.config_json = config_json;
      fo.run_icetime = false;  // nextpnr's Fmax is the figure
      fo.ignore_loops = ignore_loops;
      const FlowResult f = run_flow(top, board, fo);
      r.luts = f.luts;
      r.ffs = f.ffs;
      r.ram_blocks = f.ram_blocks;
      if (f.utilisation.count("ICESTORM_LC")) {
        r.logic_cells = f.utilisation.at("ICESTORM_LC").used;
        r.logic_cells_available = f.utilisation.at("ICESTORM_LC").available;
      }
      r.fmax.push_back({seed, f.fmax_nextpnr, f.critical_path});
    }
  } catch (const DoesNotFit& e) {
    r.status = FpgaMeasurement::Status::DoesNotFit;
    r.detail = e.resource + " " + std::to_string(e.used) + " used, " + std::to_string(e.available) + " available";
    r.fmax.clear();
    try {  // the synthesis counts, which the flow's report kept
      const FlowResult f = read_report(dir);
      r.luts = f.luts;
      r.ffs = f.ffs;
      r.ram_blocks = f.ram_blocks;
    } catch (const InputError&) {  // the flow stopped before its report (e.g. the flip-flop estimate)
    }
  } catch (const std::exception& e) {  // e.g. ConfigError: too few header pins for the cube wires
    r.status = FpgaMeasurement::Status::Error;
    r.detail = e.what();
    r.fmax.clear();
  }
  return r;
}

double lut4_per_port_bit(const FpgaBlock& b, const FpgaMeasurement& m) {
  if (b.ports <= 0 || b.port_bits <= 0 || m.luts < 0) return -1;
  return static_cast<double>(m.luts) / (static_cast<double>(b.ports) * b.port_bits);
}

namespace {

struct FmaxStats {
  double min = 0, mean = 0;
};
FmaxStats fmax_stats(const FpgaMeasurement& m) {
  FmaxStats s;
  if (m.fmax.empty()) return s;
  s.min = m.fmax.front().fmax_mhz;
  for (const auto& f : m.fmax) {
    s.min = std::min(s.min, f.fmax_mhz);
    s.mean += f.fmax_mhz / static_cast<double>(m.fmax.size());
  }
  return s;
}

// 12345 -> "12,345"; < 0 -> "-".
std::string grouped(long v) {
  if (v < 0) return "-";
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<size_t>(i), ",");
  return s;
}

std::string fixed(double v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

const char* status_name(FpgaMeasurement::Status s) {
  switch (s) {
    case FpgaMeasurement::Status::Placed: return "placed";
    case FpgaMeasurement::Status::DoesNotFit: return "does not fit";
    case FpgaMeasurement::Status::Error: return "error";
  }
  return "?";
}

}  // namespace

std::string fpga_bench_table(const std::vector<FpgaBenchRow>& rows, const std::vector<int>& seeds) {
  std::string seed_list;
  for (int s : seeds) seed_list += (seed_list.empty() ? "" : ", ") + std::to_string(s);
  std::ostringstream t;
  t << "| family | block | LUT4 | flip-flops | RAM | logic cells | Fmax MHz, seeds " << seed_list
    << " | min / mean | LUT4 per port bit | paper's clock |\n";
  t << "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (const FpgaBenchRow& r : rows) {
    const FpgaMeasurement& m = r.m;
    std::string fmax, stats;
    std::string cells = grouped(m.logic_cells) + (m.wrapped ? " (wrapped)" : "");
    if (m.status == FpgaMeasurement::Status::Placed) {
      for (const auto& f : m.fmax) fmax += (fmax.empty() ? "" : " / ") + fixed(f.fmax_mhz, 1);
      const FmaxStats s = fmax_stats(m);
      stats = fixed(s.min, 1) + " / " + fixed(s.mean, 1);
    } else if (m.status == FpgaMeasurement::Status::DoesNotFit) {
      cells = "does not fit: " + m.detail;
      fmax = stats = "-";
    } else {
      fmax = "error: " + m.detail.substr(0, m.detail.find('\n')).substr(0, 80);
      stats = "-";
    }
    const double lpb = lut4_per_port_bit(r.block, m);
    const std::string per_bit = lpb < 0 ? "-"
                                        : fixed(lpb, 1) + " (" + std::to_string(r.block.ports) + " x " +
                                              std::to_string(r.block.port_bits) + ")";
    const std::string paper = r.block.paper_mhz > 0 ? fixed(r.block.paper_mhz, 0) + " MHz" : "-";
    t << "| " << r.family << " | " << r.block.name << " | " << grouped(m.luts) << " | " << grouped(m.ffs) << " | "
      << grouped(m.ram_blocks) << " | " << cells << " | " << fmax << " | " << stats << " | " << per_bit << " | "
      << paper << " |\n";
  }
  return t.str();
}

ojson fpga_bench_json(const std::vector<FpgaBenchRow>& rows, const std::vector<int>& seeds, double freq_mhz) {
  ojson out;
  out["tool"] = "cmnet bench-fpga";
  out["device"] = "iCE40HX8K-CT256";
  out["flow"] = "yosys synth_ice40, nextpnr-ice40 --hx8k --freq " + fixed(freq_mhz, 0) +
                " (Fmax is what nextpnr reached, met or not)";
  out["seeds"] = seeds;
  out["lut4_per_port_bit"] =
      "SB_LUT4 / (ports x bits per port); a port is one link, its bits the link's data width in one direction";
  out["hoplite"] = {{"lut_per_port_bit", 0.6}, {"what", "32-bit deflection router without buffers (Kapre and Gray)"}};
  ojson blocks = ojson::array();
  for (const FpgaBenchRow& r : rows) {
    const FpgaMeasurement& m = r.m;
    ojson b = {{"family", r.family}, {"block", r.block.name}, {"how", r.block.how}, {"status", status_name(m.status)}};
    if (!m.detail.empty()) b["detail"] = m.detail;
    b["lut4"] = m.luts;
    b["flip_flops"] = m.ffs;
    b["sb_ram40_4k"] = m.ram_blocks;
    b["logic_cells"] = m.logic_cells;
    b["logic_cells_available"] = m.logic_cells_available;
    b["wrapped"] = m.wrapped;
    ojson fm = ojson::array();
    for (const auto& f : m.fmax) {
      ojson one = {{"seed", f.seed}, {"fmax_mhz", f.fmax_mhz}};
      if (f.critical.ns > 0)
        one["critical_path"] = {{"ns", f.critical.ns}, {"logic_cells", f.critical.cells}, {"from", f.critical.from},
                                {"to", f.critical.to}};
      fm.push_back(one);
    }
    b["fmax"] = fm;
    if (!m.fmax.empty()) {
      const FmaxStats s = fmax_stats(m);
      b["fmax_min_mhz"] = s.min;
      b["fmax_mean_mhz"] = s.mean;
    }
    b["ports"] = r.block.ports;
    b["bits_per_port"] = r.block.port_bits;
    const double lpb = lut4_per_port_bit(r.block, m);
    b["lut4_per_port_bit"] = lpb < 0 ? ojson(nullptr) : ojson(lpb);
    if (r.block.paper_mhz > 0) b["paper_clock"] = {{"mhz", r.block.paper_mhz}, {"source", r.block.paper_clock}};
    blocks.push_back(b);
  }
  out["blocks"] = blocks;
  return out;
}

FpgaMeasurement fpga_measurement_from_json(const ojson& b) {
  FpgaMeasurement m;
  const std::string st = b.value("status", "error");
  m.status = st == "placed"         ? FpgaMeasurement::Status::Placed
             : st == "does not fit" ? FpgaMeasurement::Status::DoesNotFit
                                    : FpgaMeasurement::Status::Error;
  m.detail = b.value("detail", "");
  m.luts = b.value("lut4", -1L);
  m.ffs = b.value("flip_flops", -1L);
  m.ram_blocks = b.value("sb_ram40_4k", -1L);
  m.logic_cells = b.value("logic_cells", -1L);
  m.logic_cells_available = b.value("logic_cells_available", -1L);
  m.wrapped = b.value("wrapped", false);
  if (b.contains("fmax"))
    for (const auto& f : b["fmax"]) {
      FpgaMeasurement::Seed one{f.value("seed", 0), f.value("fmax_mhz", 0.0), {}};
      if (f.contains("critical_path")) {
        const auto& c = f["critical_path"];
        one.critical = {c.value("ns", 0.0), c.value("logic_cells", 0), c.value("from", ""), c.value("to", "")};
      }
      m.fmax.push_back(one);
    }
  return m;
}

std::string fpga_bench_critical_paths(const std::vector<FpgaBenchRow>& rows) {
  std::ostringstream t;
  for (const FpgaBenchRow& r : rows) {
    if (r.m.status != FpgaMeasurement::Status::Placed || r.m.fmax.empty()) continue;
    const auto& f = r.m.fmax.front();
    if (f.critical.ns <= 0) continue;
    t << "- " << r.family << ", " << r.block.name << " (seed " << f.seed << "): " << fixed(f.critical.ns, 1)
      << " ns over " << f.critical.cells << " logic cells, from `" << f.critical.from << "` to `" << f.critical.to
      << "`\n";
  }
  return t.str();
}

namespace {

struct BenchFpgaArgs {
  std::vector<std::string> families;  // empty: all
  std::vector<std::string> blocks;    // empty: all; else the blocks whose name contains one of these
  int seeds = 3;
  std::string out_dir = "out/bench-fpga";
  std::string work;  // "" = OUT/work
  int jobs = 2;
  bool resume = false;
};

// The selected families' blocks, in registration order; --family takes names or comma lists;
// with `only`, the blocks whose name contains one of its texts.
std::vector<FpgaBenchRow> selected_blocks(const std::vector<std::string>& names, const std::vector<std::string>& only = {},
                                          bool say_empty = true) {
  std::vector<std::string> want;
  for (const std::string& n : names) {
    std::stringstream ss(n);
    for (std::string x; std::getline(ss, x, ',');)
      if (!x.empty()) want.push_back(find_family(x, "--family").name());
  }
  std::vector<FpgaBenchRow> rows;
  for (const Family* f : families()) {
    if (!want.empty() && std::find(want.begin(), want.end(), f->name()) == want.end()) continue;
    const auto blocks = f->fpga_blocks();
    if (blocks.empty() && say_empty) std::printf("%s: no blocks of its own\n", f->name().c_str());
    for (const FpgaBlock& b : blocks)
      if (only.empty() || std::any_of(only.begin(), only.end(), [&](const std::string& t) { return b.name.find(t) != std::string::npos; }))
        rows.push_back({f->name(), b, {}});
  }
  if (rows.empty() && !only.empty()) throw InputError("--block: no block of the selected families has that name");
  return rows;
}

// A directory name from a block's name: letters and digits, the rest '-'.
std::string slug(const std::string& s) {
  std::string o;
  for (char c : s) o += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  return o;
}

// --resume: the rows `path` already holds at `seeds`, placed or not fitting (errors are retried).
std::vector<bool> resume_rows(std::vector<FpgaBenchRow>& rows, const std::string& path, const std::vector<int>& seeds) {
  std::vector<bool> have(rows.size(), false);
  std::ifstream in(path);
  if (!in) return have;
  const ojson old = ojson::parse(in, nullptr, false);
  if (old.is_discarded() || !old.contains("blocks") || old.value("seeds", ojson::array()) != ojson(seeds)) return have;
  for (size_t i = 0; i < rows.size(); ++i)
    for (const auto& b : old["blocks"])
      if (b.value("family", "") == rows[i].family && b.value("block", "") == rows[i].block.name) {
        const FpgaMeasurement m = fpga_measurement_from_json(b);
        if (m.status == FpgaMeasurement::Status::Error) continue;
        rows[i].m = m;
        have[i] = true;
      }
  return have;
}

int do_bench_fpga(const BenchFpgaArgs& a) {
  if (a.seeds < 1) throw InputError("--seeds " + std::to_string(a.seeds) + ": at least 1");
  if (a.jobs < 1) throw InputError("--jobs " + std::to_string(a.jobs) + ": at least 1");
  // --resume keeps every family's measured blocks in the files, measuring only the selected ones.
  const std::vector<FpgaBenchRow> selected = selected_blocks(a.families, a.blocks);
  std::vector<FpgaBenchRow> rows = a.resume ? selected_blocks({}, {}, false) : selected;
  auto is_selected = [&](const FpgaBenchRow& r) {
    for (const auto& x : selected)
      if (x.family == r.family && x.block.name == r.block.name) return true;
    return false;
  };
  std::vector<int> seeds;
  for (int s = 1; s <= a.seeds; ++s) seeds.push_back(s);
  const std::string work = a.work.empty() ? a.out_dir + "/work" : a.work;
  const std::string json_path = a.out_dir + "/bench-fpga.json", md_path = a.out_dir + "/bench-fpga.md";
  fs::create_directories(work);
  const double freq = 100;
  std::vector<bool> have = a.resume ? resume_rows(rows, json_path, seeds) : std::vector<bool>(rows.size(), false);
  std::vector<size_t> todo;
  for (size_t i = 0; i < rows.size(); ++i)
    if (!have[i] && is_selected(rows[i])) todo.push_back(i);
  std::printf("bench-fpga: %zu blocks (%zu to measure), nextpnr seeds 1..%d, %d at a time (work: %s)\n", rows.size(),
              todo.size(), a.seeds, a.jobs, work.c_str());
  std::fflush(stdout);
  const auto t0 = std::chrono::steady_clock::now();
  auto secs = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  std::mutex io;
  // The blocks measured so far (in the order listed), written after each one.
  auto measured = [&] {
    std::vector<FpgaBenchRow> out;
    for (size_t i = 0; i < rows.size(); ++i)
      if (have[i]) out.push_back(rows[i]);
    return out;
  };
  auto selected_rows = [&] {
    std::vector<FpgaBenchRow> out;
    for (const auto& r : rows)
      if (is_selected(r)) out.push_back(r);
    return out;
  };
  auto write = [&] {
    const std::vector<FpgaBenchRow> done_rows = measured();
    ojson js = fpga_bench_json(done_rows, seeds, freq);
    std::ofstream(json_path) << js.dump(2) << "\n";
    std::ofstream(md_path) << fpga_bench_table(done_rows, seeds) << "\nCritical paths:\n\n"
                           << fpga_bench_critical_paths(done_rows);
  };
  std::atomic<size_t> next{0}, done{0};
  auto worker = [&] {
    for (size_t k = next++; k < todo.size(); k = next++) {
      FpgaBenchRow& r = rows[todo[k]];
      {
        std::lock_guard<std::mutex> l(io);
        std::printf("[%6.0f s] start %s: %s\n", secs(), r.family.c_str(), r.block.name.c_str());
        std::fflush(stdout);
      }
      FpgaRunOptions o;
      o.dir = work + "/" + r.family + "-" + slug(r.block.name);
      o.seeds = seeds;
      o.freq_mhz = freq;
      FpgaMeasurement m = r.block.measure(o);
      std::lock_guard<std::mutex> l(io);
      r.m = std::move(m);
      have[todo[k]] = true;
      write();
      std::string fm;
      for (const auto& f : r.m.fmax) fm += " " + fixed(f.fmax_mhz, 1);
      std::printf("[%6.0f s] done %zu/%zu %s: %s: %s LUT4, %s logic cells, Fmax%s%s\n", secs(), ++done, todo.size(),
                  r.family.c_str(), r.block.name.c_str(), grouped(r.m.luts).c_str(), grouped(r.m.logic_cells).c_str(),
                  fm.empty() ? " -" : fm.c_str(),
                  r.m.status == FpgaMeasurement::Status::Placed ? "" : (" (" + std::string(status_name(r.m.status)) +
                                                                         ": " + r.m.detail.substr(0, 200) + ")").c_str());
      std::fflush(stdout);
    }
  };
  std::vector<std::thread> pool;
  for (int j = 0; j < std::min<int>(a.jobs, static_cast<int>(todo.size())); ++j) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  write();
  std::printf("\n%s\nLUT4 per port bit: SB_LUT4 / (ports x bits per port); Hoplite's class: about 0.6.\n"
              "Critical paths:\n%s\nwrote %s and %s (%.0f s)\n",
              fpga_bench_table(selected_rows(), seeds).c_str(), fpga_bench_critical_paths(selected_rows()).c_str(),
              json_path.c_str(), md_path.c_str(), secs());
  bool errors = false;
  for (size_t i : todo) errors = errors || rows[i].m.status == FpgaMeasurement::Status::Error;
  return errors ? 1 : 0;
}

BenchFpgaArgs g_args;

}  // namespace

void add_bench_fpga_command(CLI::App& app) {
  auto* c = app.add_subcommand("bench-fpga",
                               "Every family's blocks on the iCE40 HX8K: LUT4, flip-flops, block RAM, logic cells, "
                               "Fmax at several nextpnr seeds; one table and one JSON");
  c->add_option("--family", g_args.families, "only these families (repeat or comma list)");
  c->add_option("--block", g_args.blocks, "only the blocks whose name contains this text (repeat: any of them)");
  c->add_option("--seeds", g_args.seeds, "nextpnr seeds 1..N (default 3)");
  c->add_option("-o,--out", g_args.out_dir, "directory for bench-fpga.json and bench-fpga.md (default out/bench-fpga)");
  c->add_option("--work", g_args.work, "work directory for the builds (default OUT/work)");
  c->add_option("--jobs", g_args.jobs, "blocks measured at a time (default 2)");
  c->add_flag("--resume", g_args.resume, "keep the blocks OUT/bench-fpga.json has at the same seeds; measure the rest");
  c->callback([] { throw CommandExit{do_bench_fpga(g_args)}; });
}

}  // namespace cmnet
