#include "host/run_report.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace cmnet {

namespace {

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
  return o + "\"";
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  if (!f) throw std::runtime_error(path + ": cannot write the report");
}

// The layout of the printed report.
constexpr size_t kIndent = 3;     // every line
constexpr size_t kNext = 5;       // continuation lines, and long values under their row's name
constexpr size_t kGap = 3;        // between the table's columns
constexpr size_t kValueMax = 24;  // a wider value goes on its own lines under its row's name
const std::string kDiffers = "   <- differs";

std::string spaces(size_t n) { return std::string(n, ' '); }
std::string pad_right(const std::string& s, size_t w) { return s + spaces(w > s.size() ? w - s.size() : 0); }
std::string pad_left(const std::string& s, size_t w) { return spaces(w > s.size() ? w - s.size() : 0) + s; }
std::string rtrim(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

void add(std::string& out, const std::vector<std::string>& lines) {
  for (const auto& l : lines) out += rtrim(l) + "\n";
}
void add_text(std::string& out, const std::string& text, size_t width) {
  add(out, wrap_text(text, width, spaces(kIndent), spaces(kNext)));
}

bool differs(const ReportRow& row) { return row.compared && row.board != row.model; }

// The board / model table, its column widths from its contents. A row whose value is too wide
// for a column (a status register's fields, a mismatch's description) prints its name, then
// its value once if board and model agree, else both, each on lines of their own.
std::string table_text(const std::vector<ReportRow>& rows, size_t width) {
  auto is_long = [](const ReportRow& row) { return row.board.size() > kValueMax || row.model.size() > kValueMax; };
  size_t vw = 5, name_max = 1;  // 5: "board", "model"
  for (const ReportRow& row : rows) {
    name_max = std::max(name_max, row.name.size());
    if (!is_long(row)) vw = std::max({vw, row.board.size(), row.model.size()});
  }
  const size_t fixed = kIndent + 2 * (kGap + vw) + kDiffers.size();
  const size_t name_w = std::min(name_max, width > fixed + 16 ? width - fixed : 16);
  const size_t row_w = kIndent + name_w + 2 * (kGap + vw);
  std::string out;
  add(out, {spaces(kIndent + name_w + kGap) + pad_left("board", vw) + spaces(kGap) + pad_left("model", vw)});
  for (const ReportRow& row : rows) {
    std::vector<std::string> lines = wrap_text(row.name, kIndent + name_w, spaces(kIndent), spaces(kNext));
    if (!is_long(row)) {
      lines[0] = pad_right(lines[0], kIndent + name_w) + spaces(kGap) + pad_left(row.board, vw) + spaces(kGap) +
                 pad_left(row.model, vw);
    } else {
      const bool once = row.model.empty() || row.board == row.model;
      const std::string lb = row.model.empty() ? "board: " : once ? "board = model: " : "board: ";
      for (const auto& l : wrap_text(lb + row.board, width, spaces(kNext), spaces(kNext + lb.size()))) lines.push_back(l);
      if (!once)
        for (const auto& l : wrap_text("model: " + row.model, width, spaces(kNext), spaces(kNext + 7))) lines.push_back(l);
    }
    if (differs(row)) lines[0] = pad_right(lines[0], row_w) + kDiffers;
    add(out, lines);
  }
  return out;
}

}  // namespace

std::vector<std::string> wrap_text(const std::string& text, size_t width, const std::string& first,
                                   const std::string& next) {
  std::vector<std::string> lines;
  std::string line = first;
  bool empty = true;  // no word on `line` yet
  size_t at = 0;
  while (at < text.size()) {
    const size_t end = std::min(text.find(' ', at), text.size());
    std::string word = text.substr(at, end - at);
    at = end + 1;
    while (!word.empty()) {
      const size_t room = width > line.size() ? width - line.size() : 0;
      if (word.size() + (empty ? 0 : 1) <= room) {
        line += (empty ? "" : " ") + word;
        empty = false;
        break;
      }
      if (empty) {  // longer than a whole line: cut it
        const size_t cut = std::max<size_t>(1, room);
        line += word.substr(0, cut);
        word.erase(0, cut);
      }
      lines.push_back(line);
      line = next;
      empty = true;
    }
  }
  if (!empty || lines.empty()) lines.push_back(line);
  return lines;
}

ReportRow second_view_row(const std::string& name, const std::vector<std::string>& disagreements,
                          const std::string& agreed) {
  std::string say = agreed;
  if (!disagreements.empty()) {
    say = disagreements[0];
    if (disagreements.size() > 1) say += " (and " + std::to_string(disagreements.size() - 1) + " more)";
  }
  return {name, say, agreed, true};
}

ReportVerdict judge_run_report(const RunReport& r) {
  ReportVerdict v;
  v.conservation = check_conservation(r.regions);
  v.agree = r.mismatches == 0 && std::none_of(r.rows.begin(), r.rows.end(), differs);
  return v;
}

std::string run_report_text(const RunReport& r, const ReportVerdict& v, size_t width) {
  std::string out = "\n";
  add(out, wrap_text("== cmnet run: " + r.title, width, "", spaces(kIndent)));
  for (const auto& line : r.about) add_text(out, line, width);
  out += table_text(r.rows, width);
  for (const auto& line : r.notes) add_text(out, line, width);
  std::string regions;
  for (const auto& g : r.regions) regions += (regions.empty() ? "" : ", ") + g.region;
  add_text(out, "conservation (injected = delivered + in flight; " + regions + "): " + v.conservation.summary(), width);
  // The answer right after the phrase, so that the line a user or a script looks for never wraps.
  std::string verdict = std::string("board agrees with the reference model: ") + (v.agree ? "YES" : "NO");
  if (!v.agree) {
    const auto n = static_cast<size_t>(std::count_if(r.rows.begin(), r.rows.end(), differs));
    verdict += " (" + std::to_string(n) + " figures" + (r.mismatch_detail.empty() ? "" : "; " + r.mismatch_detail) + ")";
  }
  verdict += " (compared: " + r.agreement_scope + ")";
  add_text(out, verdict, width);
  for (const auto& line : r.after) add_text(out, line, width);
  return out;
}

ReportVerdict write_run_report(const RunReport& r, const std::string& out_dir, std::FILE* out) {
  const ReportVerdict v = judge_run_report(r);
  std::fputs(run_report_text(r, v).c_str(), out);

  std::filesystem::create_directories(out_dir);
  nlohmann::ordered_json j = r.json;
  nlohmann::ordered_json regs = nlohmann::ordered_json::array();
  for (const auto& g : r.regions)
    regs.push_back({{"region", g.region}, {"injected", g.injected}, {"delivered", g.delivered}, {"in_flight", g.in_flight}});
  j["regions"] = regs;
  j["conserved"] = v.conservation.ok;
  j["conservation_violations"] = v.conservation.violations;
  j["agrees_with_model"] = v.agree;
  write_file(out_dir + "/run.json", j.dump(2) + "\n");
  std::string written = "run.json";  // the files, as "a, b, c": the line wraps between them
  for (const ReportTable& t : r.tables) {
    std::string s;
    for (size_t i = 0; i < t.columns.size(); ++i) s.append(i ? "," : "").append(csv_cell(t.columns[i]));
    s += "\n";
    for (const auto& row : t.rows) {
      for (size_t i = 0; i < row.size(); ++i) s.append(i ? "," : "").append(csv_cell(row[i]));
      s += "\n";
    }
    write_file(out_dir + "/" + t.file, s);
    written += ", " + t.file;
  }
  for (const auto& [name, svg] : r.plots) {
    write_file(out_dir + "/" + name, svg);
    written += ", " + name;
  }
  std::string wrote;
  add_text(wrote, "wrote " + out_dir + "/{" + written + "}", kReportWidth);
  std::fputs(wrote.c_str(), out);
  return v;
}

}  // namespace cmnet
