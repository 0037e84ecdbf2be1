// The one place Verilog text is written: indentation, the generated-file header, and
// deterministic output (no time stamps, no host names; same inputs give the same bytes).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace cmnet {

class VerilogWriter {
 public:
  // `params` are printed in the header in the given order.
  void header(const std::string& what, const std::vector<std::pair<std::string, std::string>>& params);
  void line(const std::string& text = "");
  void comment(const std::string& text) { line("// " + text); }
  void open(const std::string& text);   // a line that opens a block, then indent
  void close(const std::string& text);  // dedent, then a line that closes a block
  // Ends a port list and opens the module body.
  void end_ports() { close(");"); ++indent_; }
  // Ends a module's parameter list and opens its port list.
  void end_params() { close(") ("); ++indent_; }
  // Closes a top-level module, and the file's `default_nettype none (from header) with it.
  void end_module() {
    close("endmodule");
    line("`default_nettype wire");
  }
  // An instance with named parameter and port connections, aligned one per line.
  void instance(const std::string& module, const std::string& name,
                const std::vector<std::pair<std::string, std::string>>& params,
                const std::vector<std::pair<std::string, std::string>>& ports);
  const std::string& text() const { return out_; }

 private:
  std::string out_;
  int indent_ = 0;
};

std::string vbits(int width);  // "[W-1:0] " or "" for width 1

// A number as emitted Verilog text (decimal); the emitters' one spelling of it.
inline std::string S(long long x) { return std::to_string(x); }

}  // namespace cmnet
