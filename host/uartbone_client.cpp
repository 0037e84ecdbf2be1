#include "host/uartbone_client.h"

#include <algorithm>
#include <cstdio>

#include "host/errors.h"
#include "gen/core/protocol.h"

namespace cmnet {

namespace ub = proto::uartbone;

uint32_t UartBoneClient::read32(uint32_t addr) { return burst_read(addr, 1)[0]; }

void UartBoneClient::write32(uint32_t addr, uint32_t value) { burst_write(addr, std::span(&value, 1)); }

std::vector<uint32_t> UartBoneClient::burst_read(uint32_t addr, size_t count, bool fixed) {
  std::vector<uint32_t> out;
  out.reserve(count);
  std::vector<uint8_t> rx;
  while (out.size() < count) {
    const size_t n = std::min(count - out.size(), ub::kMaxWords);
    const auto deadline = Transport::Clock::now() + timeout_;
    t_.write_all(ub::encode_read(addr, n, fixed), deadline);
    rx.assign(4 * n, 0);
    size_t got = 0;
    while (got < rx.size()) {
      const size_t k = t_.read_some(std::span(rx).subspan(got), deadline);
      if (k == 0) {
        char b[160];
        std::snprintf(b, sizeof b, "%s: UARTBone read of %zu words at 0x%08x: %zu of %zu bytes within %lld ms",
                      t_.name().c_str(), n, addr, got, rx.size(), static_cast<long long>(timeout_.count()));
        throw HostError(HostErrorKind::Timeout, b);
      }
      got += k;
    }
    for (size_t i = 0; i < n; ++i)
      out.push_back((uint32_t{rx[4 * i]} << 24) | (uint32_t{rx[4 * i + 1]} << 16) | (uint32_t{rx[4 * i + 2]} << 8) |
                    rx[4 * i + 3]);
    if (!fixed) addr += static_cast<uint32_t>(4 * n);
  }
  return out;
}

void UartBoneClient::burst_write(uint32_t addr, std::span<const uint32_t> words, bool fixed) {
  const size_t chunk = std::clamp<size_t>(max_write_words_, 1, ub::kMaxWords);
  while (!words.empty()) {
    const size_t n = std::min(words.size(), chunk);
    t_.write_all(ub::encode_write(addr, words.first(n), fixed), Transport::Clock::now() + timeout_);
    words = words.subspan(n);
    if (!fixed) addr += static_cast<uint32_t>(4 * n);
  }
}

}  // namespace cmnet
