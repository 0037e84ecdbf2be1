// The shared run report's text (host/run_report.h): every line within the width, the table's
// columns sized from their contents, a value too long for its column printed once under its
// row's name when board and model agree (both, marked, when they differ), text wrapped at spaces.
#include "host/run_report.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace cmnet {
namespace {
namespace fs = std::filesystem;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) v.push_back(line);
  return v;
}

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

// Every run of white space as one space: the text as it reads, wrapped or not.
std::string flat(const std::string& s) {
  std::string o;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) o += c;
    else if (!o.empty() && o.back() != ' ') o += ' ';
  return o;
}

// The lines that hold `what`.
std::vector<std::string> with(const std::vector<std::string>& lines, const std::string& what) {
  std::vector<std::string> v;
  for (const auto& l : lines)
    if (l.find(what) != std::string::npos) v.push_back(l);
  return v;
}

// A status register as cm5ctl's runner prints it: 105 characters, too long for a column.
std::string status(int globals, int owed) {
  return "globals " + std::to_string(globals) + " halted 0 link_error 0 fault 0 drop 0 owed " + std::to_string(owed) +
         " waiting 0/0/0/0 last_err 0 overflow 0 router_done 0";
}

// Shaped like the reports that overflowed: cm5ctl's status rows and long about line, hcube's
// long row names, CM-1's long notes.
RunReport long_report() {
  RunReport r;
  r.title = "reduce-scan on sim://127.0.0.1:35335";
  r.about = {"cm5ctl cm5ctl-2: 2 leaves, leaves=2 word_bits=32 up_width=6 down_width=5 crc_bits=0",
             "workload reduce-scan: results compared leaf by leaf and function by function, in order, with the "
             "software results; counters (per function too) with the reference model's result counts (plus one "
             "status per leaf); each leaf's final status registers (global ORs, halted, sticky CRC link error)"};
  r.rows = {{"units sent", "6", "", false},
            {"units delivered", "6", "6", true},
            {"leaf0 status", status(3, 0), status(3, 0), true},
            {"leaf1 status", status(5, 1), status(5, 0), true},
            {"leaf counters (bytes loaded and delivered, messages; nothing refused or overflowed)", "40", "40", true},
            {"results as computed in software", "all equal", "all equal", true},
            {"leaf0.combine", "2", "3", true}};
  r.notes = {"delivery petit cycle: mean 4.19, p50 4, p90 8, p99 10; histogram: 11 15 12 12 12 8 14 13 10 4 2 0 0 0 "
             "0 0 0 0 0 0 0 0"};
  r.regions = {{"partition1", 6, 6, 0}};
  r.agreement_scope = "every result and every leaf's counters";
  r.after = {"host time 0.022 s; link: 29 requests, 0 retries"};
  return r;
}

TEST(RunReport, WrapsTextAtSpacesWithinTheWidth) {
  EXPECT_EQ(wrap_text("aa bb cc dd", 8, "> ", "  "), (std::vector<std::string>{"> aa bb", "  cc dd"}));
  EXPECT_EQ(wrap_text("", 8, "> ", "  "), (std::vector<std::string>{"> "}));
  // A word longer than a line is cut, so no line is wider than asked.
  for (const auto& l : wrap_text("x abcdefghijklmnop y", 6, "", ""))
    EXPECT_LE(l.size(), 6u) << l;
}

TEST(RunReport, EveryLineFitsAndLongValuesPrintOnce) {
  const RunReport r = long_report();
  const ReportVerdict v = judge_run_report(r);
  EXPECT_FALSE(v.agree);  // leaf1's status and leaf0.combine differ
  const std::string text = run_report_text(r, v);
  const auto lines = lines_of(text);
  for (const auto& l : lines) EXPECT_LE(l.size(), kReportWidth) << "\n" << l << "\n in\n" << text;
  // Agreeing: the value once, under the row's name.
  EXPECT_EQ(count(text, "globals 3 halted"), 1u) << text;
  EXPECT_EQ(count(text, "board = model: globals 3"), 1u) << text;
  // Differing: board and model each once, and the row marked.
  EXPECT_EQ(count(text, "board: globals 5"), 1u) << text;
  EXPECT_EQ(count(text, "model: globals 5"), 1u) << text;
  EXPECT_EQ(with(lines, "leaf1 status").size(), 1u);
  EXPECT_NE(with(lines, "leaf1 status")[0].find("<- differs"), std::string::npos) << text;
  EXPECT_EQ(with(lines, "<- differs").size(), 2u) << text;  // leaf1 status, leaf0.combine
  // Nothing of the long about line and notes is lost to the wrapping.
  EXPECT_EQ(count(flat(text), r.about[1]), 1u) << text;
  EXPECT_EQ(count(flat(text), r.notes[0]), 1u) << text;
  EXPECT_NE(text.find("(2 figures)"), std::string::npos) << text;
}

TEST(RunReport, TableColumnsComeFromTheContents) {
  const RunReport r = long_report();
  const auto lines = lines_of(run_report_text(r, judge_run_report(r)));
  // The short rows with a model value end their model column where the header's "model" ends.
  const auto header = std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
    return l.find("board") != std::string::npos && l.size() >= 5 && l.substr(l.size() - 5) == "model";
  });
  ASSERT_NE(header, lines.end());
  const size_t model_end = header->size();
  for (const char* row : {"units delivered", "all equal", "leaf0.combine"}) {
    const auto l = with(lines, row);
    ASSERT_EQ(l.size(), 1u) << row;
    EXPECT_EQ(l[0].substr(0, model_end).find_last_not_of(' ') + 1, model_end) << l[0];
  }
  // The long name wraps in its column; its values sit on its first line, in the columns.
  const auto first = with(lines, "leaf counters (bytes loaded");
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].size(), model_end) << first[0];
  EXPECT_EQ(with(lines, "refused or overflowed)").size(), 1u);
  // Columns sized from the contents: "all equal" is the widest short value, so the board
  // column is 9 wide, not the long status's 105.
  EXPECT_LT(model_end, 3 + 60 + 2 * (3 + 9) + 1u);
}

TEST(RunReport, WritesTheFilesAndNamesThemWithinTheWidth) {
  RunReport r = long_report();
  r.rows.resize(2);  // agrees
  for (int i = 0; i < 8; ++i) r.tables.push_back({"table_with_a_long_name_" + std::to_string(i) + ".csv", {"a"}, {{"1"}}});
  r.plots = {{"plot.svg", "<svg/>"}};
  const fs::path dir = fs::temp_directory_path() / ("cmnet-run-report-" + std::to_string(::getpid()));
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  const ReportVerdict v = write_run_report(r, dir.string(), out);
  EXPECT_TRUE(v.ok());
  std::rewind(out);
  std::string text;
  for (int c; (c = std::fgetc(out)) != EOF;) text += static_cast<char>(c);
  std::fclose(out);
  for (const auto& l : lines_of(text)) EXPECT_LE(l.size(), kReportWidth) << l;
  EXPECT_NE(text.find("YES"), std::string::npos) << text;
  for (const char* f : {"run.json", "table_with_a_long_name_7.csv", "plot.svg"}) {
    EXPECT_TRUE(fs::exists(dir / f)) << f;
    EXPECT_EQ(count(text, f), 1u) << f << " in\n" << text;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace cmnet
