#include "host/run_report.h"

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

}  // namespace

ReportVerdict write_run_report(const RunReport& r, const std::string& out_dir, std::FILE* out) {
  ReportVerdict v;
  v.conservation = check_conservation(r.regions);
  size_t row_mismatches = 0;
  for (const ReportRow& row : r.rows) row_mismatches += row.compared && row.board != row.model;
  v.agree = row_mismatches == 0 && r.mismatches == 0;

  std::fprintf(out, "\n== cmnet run: %s\n", r.title.c_str());
  for (const auto& line : r.about) std::fprintf(out, "   %s\n", line.c_str());
  std::fprintf(out, "   %-34s %12s %12s\n", "", "board", "model");
  for (const ReportRow& row : r.rows)
    std::fprintf(out, "   %-34s %12s %12s%s\n", row.name.c_str(), row.board.c_str(), row.model.c_str(),
                 row.compared && row.board != row.model ? "   <- differs" : "");
  for (const auto& line : r.notes) std::fprintf(out, "   %s\n", line.c_str());
  std::string regions;
  for (const auto& g : r.regions) regions += (regions.empty() ? "" : ", ") + g.region;
  std::fprintf(out, "   conservation (injected = delivered + in flight; %s): %s\n", regions.c_str(),
               v.conservation.summary().c_str());
  std::fprintf(out, "   board agrees with the reference model (%s): %s", r.agreement_scope.c_str(),
               v.agree ? "YES" : "NO");
  if (!v.agree) {
    std::fprintf(out, " (%zu figures", row_mismatches);
    if (!r.mismatch_detail.empty()) std::fprintf(out, "; %s", r.mismatch_detail.c_str());
    std::fprintf(out, ")");
  }
  std::fprintf(out, "\n");
  for (const auto& line : r.after) std::fprintf(out, "   %s\n", line.c_str());

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
  std::string written = "run.json";
  for (const ReportTable& t : r.tables) {
    std::string s;
    for (size_t i = 0; i < t.columns.size(); ++i) s.append(i ? "," : "").append(csv_cell(t.columns[i]));
    s += "\n";
    for (const auto& row : t.rows) {
      for (size_t i = 0; i < row.size(); ++i) s.append(i ? "," : "").append(csv_cell(row[i]));
      s += "\n";
    }
    write_file(out_dir + "/" + t.file, s);
    written += "," + t.file;
  }
  for (const auto& [name, svg] : r.plots) {
    write_file(out_dir + "/" + name, svg);
    written += "," + name;
  }
  std::fprintf(out, "   wrote %s/{%s}\n", out_dir.c_str(), written.c_str());
  return v;
}

}  // namespace cmnet
