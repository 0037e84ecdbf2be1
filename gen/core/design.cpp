#include "gen/core/design.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gen/core/errors.h"

namespace cmnet {

namespace fs = std::filesystem;

std::vector<std::string> GeneratedDesign::verilog_files() const {
  std::vector<std::string> out;
  for (const auto& f : verilog_sources()) out.push_back(f.first);
  return out;
}

std::vector<std::pair<std::string, std::string>> GeneratedDesign::verilog_sources() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& f : files)
    if (f.first.size() > 2 && f.first.substr(f.first.size() - 2) == ".v") out.push_back(f);
  return out;
}

std::string filelist(const GeneratedDesign& d) {
  std::string out;
  for (const auto& f : d.verilog_files()) out += f + "\n";
  return out;
}

std::string fusesoc_core(const GeneratedDesign& d, const std::string& library, const std::string& name,
                         const std::string& version, const std::string& description) {
  auto clean = [](std::string s) {
    for (char& c : s)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-')) c = '_';
    return s.empty() ? std::string("design") : s;
  };
  std::string desc = description;
  for (char& c : desc)
    if (c == '"' || c == '\\' || c == '\n') c = ' ';
  std::string out = "CAPI=2:\n";
  out += "name: cmnet:" + clean(library) + ":" + clean(name) + ":" + clean(version) + "\n";
  out += "description: \"" + desc + "\"\n\n";
  out += "filesets:\n  rtl:\n    file_type: verilogSource\n    files:\n";
  for (const auto& f : d.verilog_files()) out += "      - " + f + "\n";
  out += "\ntargets:\n  default:\n    filesets: [rtl]\n    toplevel: " + d.top + "\n";
  out += "  lint:\n    default_tool: verilator\n    filesets: [rtl]\n    toplevel: " + d.top + "\n";
  out += "    tools:\n      verilator:\n        mode: lint-only\n        verilator_options: [-Wall]\n";
  return out;
}

std::vector<std::string> write_design(const GeneratedDesign& d, const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw ConfigError(dir + ": cannot create output directory: " + ec.message());
  std::vector<std::string> out;
  for (const auto& [name, text] : d.files) {
    const std::string path = dir + "/" + name;
    std::ofstream f(path, std::ios::binary);
    f << text;
    if (!f) throw ConfigError(path + ": cannot write");
    out.push_back(path);
  }
  return out;
}

GeneratedDesign read_design(const std::string& dir, const std::string& top) {
  std::ifstream list(dir + "/filelist.f");
  if (!list) throw ConfigError(dir + "/filelist.f: cannot read (not a directory written by cmnet)");
  GeneratedDesign d;
  d.top = top;
  std::string name;
  for (int line = 1; std::getline(list, name); ++line) {
    if (name.empty()) continue;
    std::optional<std::string> text = try_read_file(dir + "/" + name);
    if (!text) throw ConfigError(dir + "/filelist.f:" + std::to_string(line) + ": cannot read " + name);
    d.files.emplace_back(name, std::move(*text));
  }
  if (d.files.empty()) throw ConfigError(dir + "/filelist.f: lists no files");
  return d;
}

std::string hw_dir() {
  if (const char* e = std::getenv("CMNET_HW_DIR")) return e;
  return std::string(CMNET_SOURCE_DIR) + "/hw";
}

std::string hw_path(const std::string& name) {
  const std::string root = hw_dir();
  std::vector<std::string> found;
  if (fs::is_regular_file(root + "/" + name)) found.push_back(root + "/" + name);
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(root, ec))
    if (e.is_directory() && fs::is_regular_file(e.path() / name)) found.push_back((e.path() / name).string());
  if (found.empty())
    throw ConfigError("cannot find the hardware primitive " + name + " in " + root +
                      " or its folders (set CMNET_HW_DIR)");
  std::sort(found.begin(), found.end());
  if (found.size() > 1)
    throw ConfigError("the hardware primitive " + name + " is in more than one folder: " + found[0] +
                      ", " + found[1]);
  return found[0];
}

std::string read_hw_file(const std::string& name) { return read_file(hw_path(name)); }

}  // namespace cmnet
