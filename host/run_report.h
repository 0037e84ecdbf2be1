// The report of a run on a board, written the same way for every family: a text table of the
// board's figures beside the reference model's, conservation per region, the agreement verdict,
// run.json, one CSV per table and the SVG plots. A family fills a RunReport with its own figures,
// tables and plots (as data); this writes and judges it.
#pragma once

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/conservation.h"

namespace cmnet {

struct ReportRow {
  std::string name;
  std::string board;      // formatted value
  std::string model;      // "" when the model has no such figure
  bool compared = false;  // board must equal model (counted in the verdict)
};

// A compared row of a second view (a family's functional oracle): `agreed` on both sides when it
// has nothing to say, else its first disagreement ("... (and N more)") against `agreed`.
ReportRow second_view_row(const std::string& name, const std::vector<std::string>& disagreements,
                          const std::string& agreed);

struct ReportTable {
  std::string file;  // e.g. "chips.csv"
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
};

struct RunReport {
  std::string title;                    // "many-to-one on sim://127.0.0.1:41797"
  std::vector<std::string> about;       // lines under the title: the network, the mode
  std::vector<ReportRow> rows;          // the board/model table
  std::vector<std::string> notes;       // lines after the table (load, percentiles, ...)
  std::vector<RegionCount> regions;     // conservation, per region
  std::string agreement_scope;          // what the verdict covers, e.g. "counters of every chip"
  size_t mismatches = 0;                // family-counted differences beyond the compared rows
  std::string mismatch_detail;          // how they split, e.g. "2 chips, 0 processors differ"
  std::vector<std::string> after;       // lines after the verdict (host time, link statistics)
  nlohmann::ordered_json json = nlohmann::ordered_json::object();  // the family's run.json fields
  std::vector<ReportTable> tables;
  std::vector<std::pair<std::string, std::string>> plots;  // file name -> SVG text
};

struct ReportVerdict {
  ConservationCheck conservation;
  bool agree = false;  // every compared row equal and no family mismatches
  bool ok() const { return conservation.ok && agree; }
};

// Every printed line of a report fits in this many columns: a long name wraps in its column, a
// value too long for its column goes on its own lines under its name (once, when board and model
// agree), and text lines wrap at spaces.
constexpr size_t kReportWidth = 100;

// `text` broken at spaces into lines of at most `width` columns, the first led by `first`, the
// others by `next` (a word longer than a line is cut).
std::vector<std::string> wrap_text(const std::string& text, size_t width, const std::string& first,
                                   const std::string& next);

// Conservation and the agreement verdict of a report.
ReportVerdict judge_run_report(const RunReport& r);
// The report's text as write_run_report prints it, up to the list of files written.
std::string run_report_text(const RunReport& r, const ReportVerdict& v, size_t width = kReportWidth);

// Prints the report to `out`, writes run.json (the family's fields plus "conservation",
// "regions" and "agrees_with_model"), the tables and the plots into `out_dir`.
ReportVerdict write_run_report(const RunReport& r, const std::string& out_dir, std::FILE* out = stdout);

}  // namespace cmnet
