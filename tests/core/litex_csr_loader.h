// A csr.csv read the way LiteX's loader reads it (CSRBuilder, litex/tools/remote/csr_builder.py,
// behind litex_client, RemoteClient and CommUART), with every way that loader would fail, or
// quietly misread the file, reported as a problem naming the file, the line and the thing:
//   - lines starting with '#' are skipped; every other line, a blank one too, is a CSV row that
//     each build_* step unpacks into exactly 5 fields (ValueError otherwise);
//   - csr_base NAME ADDR: ADDR hex (int(addr.replace("0x", ""), 16));
//   - csr_register NAME ADDR SIZE MODE: ADDR hex, SIZE decimal words, MODE ro / rw / wo (read()
//     needs ro or rw, write() rw or wo);
//   - constant NAME VALUE: int(VALUE) when it is one, else the text;
//   - memory_region NAME BASE SIZE TYPE: int(BASE, 16), int(SIZE);
//   - constants config_csr_data_width and config_bus_address_width must be there (KeyError
//     "csr_data_width not found in constants"); cmnet's bus is 32 and 32;
//   - litex_client --ident reads bases.identifier_mem (AttributeError without it).
// Besides, what LiteX would accept but misread: a name given twice (the later row wins), a row
// group it ignores, unaligned or overlapping registers, names that are not attribute names.
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace cmnet::testing_support {

struct LitexCsrRegisterRow {
  std::string name;
  uint32_t addr = 0, size = 0;  // size in 32-bit words (csr_data_width 32)
  std::string mode;
  int line = 0;
};

struct LitexCsrFile {
  std::map<std::string, uint32_t> bases;
  std::vector<LitexCsrRegisterRow> registers;  // file order: litex_client --regs reads in it
  std::map<std::string, std::string> constants;
  std::vector<std::string> memory_regions;
  std::vector<std::string> problems;  // "WHERE:LINE: what", empty when LiteX loads it as meant
  bool ok() const { return problems.empty(); }
  std::string report() const {
    std::string s;
    for (const std::string& p : problems) s += p + "\n";
    return s;
  }
};

namespace litex_csr_detail {

inline bool hex_field(std::string s, uint32_t* out) {
  if (s.rfind("0x", 0) == 0) s = s.substr(2);
  if (s.empty() || s.size() > 8 || s.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) return false;
  *out = static_cast<uint32_t>(std::stoul(s, nullptr, 16));
  return true;
}
inline bool decimal_field(const std::string& s, uint32_t* out) {
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos) return false;
  *out = static_cast<uint32_t>(std::stoul(s));
  return true;
}
inline bool attribute_name(const std::string& s) {
  return !s.empty() && !(s[0] >= '0' && s[0] <= '9') &&
         s.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string::npos;
}

}  // namespace litex_csr_detail

// `text`: the file's contents; `where`: its name for the problems.
inline LitexCsrFile load_litex_csr(const std::string& text, const std::string& where) {
  using namespace litex_csr_detail;
  LitexCsrFile f;
  std::set<std::string> seen_regs;
  std::istringstream in(text);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    auto problem = [&](const std::string& what) {
      f.problems.push_back(where + ":" + std::to_string(n) + ": " + what);
    };
    if (!line.empty() && line.back() == '\r') line.pop_back();  // Python reads with universal newlines
    if (!line.empty() && line[0] == '#') continue;
    if (line.find('"') != std::string::npos) {
      problem("a quoted field (cmnet never writes one; this loader does not parse them)");
      continue;
    }
    std::vector<std::string> c;
    std::stringstream ls(line);
    for (std::string x; std::getline(ls, x, ',');) c.push_back(x);
    if (!line.empty() && line.back() == ',') c.push_back("");
    if (c.size() != 5) {
      problem((line.empty() ? std::string("a blank line") : "'" + line + "'") + " has " + std::to_string(c.size()) +
              " fields, LiteX unpacks every row into 5");
      continue;
    }
    const std::string& group = c[0];
    const std::string& name = c[1];
    if (group == "csr_base") {
      uint32_t a = 0;
      if (!hex_field(c[2], &a)) problem("csr_base " + name + ": address '" + c[2] + "' is not hex");
      if (!attribute_name(name)) problem("csr_base '" + name + "' is not a lowercase attribute name");
      if (f.bases.count(name)) problem("csr_base " + name + " given twice");
      f.bases[name] = a;
    } else if (group == "csr_register") {
      LitexCsrRegisterRow r{name, 0, 0, c[4], n};
      if (!hex_field(c[2], &r.addr)) problem("csr_register " + name + ": address '" + c[2] + "' is not hex");
      if (!decimal_field(c[3], &r.size) || r.size == 0)
        problem("csr_register " + name + ": size '" + c[3] + "' is not a positive number of words");
      if (r.mode != "ro" && r.mode != "rw" && r.mode != "wo")
        problem("csr_register " + name + ": mode '" + r.mode + "' (LiteX reads ro / rw, writes rw / wo)");
      if (r.addr % 4 != 0) problem("csr_register " + name + ": address " + c[2] + " is not word-aligned");
      if (!attribute_name(name)) problem("csr_register '" + name + "' is not a lowercase attribute name");
      if (!seen_regs.insert(name).second) problem("csr_register " + name + " given twice");
      f.registers.push_back(r);
    } else if (group == "constant") {
      if (f.constants.count(name)) problem("constant " + name + " given twice");
      f.constants[name] = c[2];
    } else if (group == "memory_region") {
      uint32_t base = 0, size = 0;
      if (!hex_field(c[2], &base) || !decimal_field(c[3], &size))
        problem("memory_region " + name + ": base '" + c[2] + "' or size '" + c[3] + "' does not parse");
      f.memory_regions.push_back(name);
    } else {
      problem("row group '" + group + "' is not one LiteX reads (csr_base, csr_register, constant, memory_region)");
    }
  }
  for (const auto& [k, what] : {std::pair{"config_csr_data_width", "csr_data_width"},
                                 std::pair{"config_bus_address_width", "csr_bus_address_width"}}) {
    const auto it = f.constants.find(k);
    if (it == f.constants.end())
      f.problems.push_back(where + ": no 'constant," + k + ",32,,' row (LiteX: KeyError '" + what +
                           " not found in constants, please provide!')");
    else if (it->second != "32")
      f.problems.push_back(where + ": constant " + k + " is '" + it->second + "', cmnet's bus is 32");
  }
  if (!f.bases.count("identifier_mem"))
    f.problems.push_back(where + ": no 'csr_base,identifier_mem,...' row (litex_client --ident needs it)");
  // Registers in address order may not overlap (a misplaced window would read another's words).
  std::multimap<uint32_t, const LitexCsrRegisterRow*> by_addr;
  for (const auto& r : f.registers) by_addr.emplace(r.addr, &r);
  uint64_t end = 0;  // of the registers so far
  const LitexCsrRegisterRow* last = nullptr;  // the one that ends there
  for (const auto& [a, r] : by_addr) {
    if (last && a < end)
      f.problems.push_back(where + ":" + std::to_string(r->line) + ": csr_register " + r->name + " overlaps " +
                           last->name);
    if (a + 4ull * r->size > end) {
      end = a + 4ull * r->size;
      last = r;
    }
  }
  return f;
}

inline LitexCsrFile load_litex_csr_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    LitexCsrFile f;
    f.problems.push_back(path + ": cannot open");
    return f;
  }
  std::stringstream s;
  s << in.rdbuf();
  return load_litex_csr(s.str(), path);
}

// The register named `name`, or nullptr.
inline const LitexCsrRegisterRow* find_register(const LitexCsrFile& f, const std::string& name) {
  for (const auto& r : f.registers)
    if (r.name == name) return &r;
  return nullptr;
}

}  // namespace cmnet::testing_support
