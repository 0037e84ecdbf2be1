// The registry of network families: the one place a family is registered.
#include "host/cli/family.h"

#include "host/cli/clos/clos_family.h"
#include "host/cli/cm1/cm1_family.h"
#include "host/cli/cm5/cm5_family.h"
#include "host/cli/cm5ctl/cm5ctl_family.h"
#include "host/cli/cm5data/cm5data_family.h"
#include "host/cli/hcube/hcube_family.h"
#include "gen/core/errors.h"

namespace cmnet {

const std::vector<const Family*>& families() {
  static const Cm1Family cm1;
  static const Cm5ctlFamily cm5ctl;
  static const Cm5DataFamily cm5data;
  static const ClosFamily clos;
  static const HcubeFamily hcube;
  static const Cm5Family cm5;
  static const std::vector<const Family*> all = {&cm1, &cm5ctl, &cm5data, &clos, &hcube, &cm5};
  return all;
}

const Family& find_family(const std::string& network, const std::string& where) {
  std::string names;
  for (const Family* f : families()) {
    if (f->name() == network) return *f;
    names += (names.empty() ? "" : ", ") + f->name();
  }
  throw ConfigError(where + ": network = \"" + network + "\" is not a network family cmnet knows (families: " +
                    names + "; `cmnet list` describes them)");
}

NetworkConfig load_network(const std::string& path, const Family** family) {
  NetworkConfig cfg = load_config_file(path);
  const Family& f = find_family(cfg.network, cfg.where);
  f.check(cfg);
  if (family) *family = &f;
  return cfg;
}

void reject_option(const Family& f, bool given, const std::string& option) {
  if (given) throw InputError(option + ": not used by the " + f.name() + " family");
}

const TraceWindow& check_trace(const TraceWindow& t, const std::string& engine) {
  if (!t.on()) return t;
  if (engine != "rtl") throw InputError("--trace " + t.file + ": only an RTL run has waveforms (--engine rtl)");
  if (!t.file.ends_with(".fst")) throw InputError("--trace " + t.file + ": the waveform file must end in .fst");
  if (t.from > t.to)
    throw InputError("--trace-from " + std::to_string(t.from) + " is after --trace-to " + std::to_string(t.to));
  return t;
}

}  // namespace cmnet
