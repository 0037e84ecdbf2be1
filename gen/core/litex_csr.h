// LiteX's csr.csv, the register map LiteX's host tools load (litex_client --ident / --regs,
// RemoteClient, CommUART: their CSRBuilder, litex/tools/remote/csr_builder.py). Every cmnet board
// writes its csr.csv through this one writer, so every board's file meets what that loader needs:
//   - rows of exactly 5 fields, no blank line, '#' comments only at the start of a line;
//   - `csr_base,NAME,0xADDR,,` (litex_client --ident reads bases.identifier_mem);
//   - `csr_register,NAME,0xADDR,SIZE,MODE`, SIZE in 32-bit words, MODE ro / rw / wo;
//   - `constant,config_csr_data_width,32,,` and `constant,config_bus_address_width,32,,`: the
//     loader refuses a file without them (KeyError "csr_data_width not found in constants").
// Rows in LiteX's own order: bases, registers, constants.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cmnet {

struct LitexCsrBase {
  std::string name;
  uint32_t address = 0;
};

struct LitexCsrRegister {
  std::string name;  // the full LiteX name, e.g. "strm_control"
  uint32_t address = 0;
  uint32_t words = 1;
  std::string mode;  // "ro", "rw" or "wo"
};

struct LitexCsrMap {
  std::string title;  // the header comment: what board this is
  std::vector<LitexCsrBase> bases;
  std::vector<LitexCsrRegister> registers;
};

// The CSR bus a cmnet board has in LiteX's terms: 32-bit data, 32-bit byte addresses.
inline constexpr int kLitexCsrDataWidth = 32;
inline constexpr int kLitexBusAddressWidth = 32;

// The file's text. ConfigError naming the row if a name is not a lowercase identifier, a name
// repeats, an address is not word-aligned, a register has no words or runs past 4 GiB, or a
// mode is not ro / rw / wo.
std::string litex_csr_csv(const LitexCsrMap& map);

}  // namespace cmnet
