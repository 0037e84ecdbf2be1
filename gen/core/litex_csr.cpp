#include "gen/core/litex_csr.h"

#include <cstdio>
#include <set>

#include "gen/core/errors.h"

namespace cmnet {

namespace {

std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", v);
  return b;
}

// LiteX's tools reach a row as an attribute (bus.regs.NAME, bus.bases.NAME): a lowercase
// Python identifier, which also keeps commas and quotes out of the CSV.
bool identifier(const std::string& s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

void check_map(const LitexCsrMap& m) {
  const std::string where = "csr.csv of " + m.title + ": ";
  if (m.title.find('\n') != std::string::npos) throw ConfigError(where + "the title has a line break");
  std::set<std::string> bases, regs;
  for (const LitexCsrBase& b : m.bases) {
    if (!identifier(b.name)) throw ConfigError(where + "csr_base '" + b.name + "' is not a lowercase identifier");
    if (!bases.insert(b.name).second) throw ConfigError(where + "csr_base '" + b.name + "' appears twice");
    if (b.address % 4 != 0)
      throw ConfigError(where + "csr_base " + b.name + " at " + hex(b.address) + " is not word-aligned");
  }
  for (const LitexCsrRegister& r : m.registers) {
    const std::string what = where + "csr_register " + r.name;
    if (!identifier(r.name)) throw ConfigError(where + "csr_register '" + r.name + "' is not a lowercase identifier");
    if (!regs.insert(r.name).second) throw ConfigError(what + " appears twice");
    if (r.address % 4 != 0) throw ConfigError(what + " at " + hex(r.address) + " is not word-aligned");
    if (r.words == 0) throw ConfigError(what + " has 0 words");
    if (r.address + 4ull * r.words > 0x100000000ull) throw ConfigError(what + " runs past the 32-bit address space");
    if (r.mode != "ro" && r.mode != "rw" && r.mode != "wo")
      throw ConfigError(what + ": mode '" + r.mode + "' (allowed: ro, rw, wo)");
  }
}

}  // namespace

std::string litex_csr_csv(const LitexCsrMap& m) {
  check_map(m);
  const std::string rule = "#--------------------------------------------------------------------------------\n";
  std::string s = rule + "# cmnet " + m.title + ", LiteX csr.csv format\n" + rule;
  for (const LitexCsrBase& b : m.bases) s += "csr_base," + b.name + "," + hex(b.address) + ",,\n";
  for (const LitexCsrRegister& r : m.registers)
    s += "csr_register," + r.name + "," + hex(r.address) + "," + std::to_string(r.words) + "," + r.mode + "\n";
  // CSRBuilder takes the bus widths from these (and refuses a file without them).
  s += "constant,config_csr_data_width," + std::to_string(kLitexCsrDataWidth) + ",,\n";
  s += "constant,config_bus_address_width," + std::to_string(kLitexBusAddressWidth) + ",,\n";
  return s;
}

}  // namespace cmnet
