// A user's line files (traffic, connection sets, workloads) read one way: one record a line,
// fields separated by white space, '#' to the end of a line a comment, blank lines skipped, and
// every error naming the file, the line and the field ("t.traffic:2: field 'DST' value 9 ...").
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace cmnet {

struct FieldLine {
  std::string at;  // "NAME:LINE: ", the prefix of every error about this line
  int line = 0;
  std::vector<std::string> fields;

  // Field `i` as an unsigned number (base 10 or 16) in lo..hi; InputError "field 'NAME' value V
  // out of range lo..hi" (a sign, a letter or trailing text is out of range too).
  uint64_t num(size_t i, const char* name, uint64_t lo, uint64_t hi, int base = 10) const;
  // The InputError text for field `i` called `name`: at + "field 'NAME' value V " + what.
  std::string error(size_t i, const char* name, const std::string& what) const;
};

// The records of `in` (`name` is how errors call it); InputError when it cannot be read.
std::vector<FieldLine> read_field_lines(std::istream& in, const std::string& name);
// The same for the file `path`; InputError "PATH: cannot open WHAT" when it cannot be opened.
std::vector<FieldLine> read_field_lines_file(const std::string& path, const std::string& what);

}  // namespace cmnet
