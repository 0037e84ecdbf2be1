// The one exception type the host driver throws. Every message names what failed and where
// (the transport URI, the command, the address, the sequence number) so a log line is enough.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace cmnet {

enum class HostErrorKind {
  BadUri,             // a malformed transport URI
  NoDevice,           // the device named by the URI does not exist
  ConnectionRefused,  // nothing listens at the address (board server not running)
  Timeout,            // no (complete) reply before the deadline, after all retries
  CrcError,           // replies kept failing their CRC, after all retries
  SequenceMismatch,   // a reply carried a sequence number the client never asked for
  ErrorReply,         // the board answered with an error status (see status())
  ConnectionClosed,   // the peer closed or reset the connection: the device vanished
  ProtocolError,      // a well-formed frame that makes no sense as the reply
  NotImplemented,     // a transport this build cannot drive yet
  Io,                 // any other operating-system error
};

inline const char* host_error_kind_name(HostErrorKind k) {
  switch (k) {
    case HostErrorKind::BadUri: return "bad URI";
    case HostErrorKind::NoDevice: return "no device";
    case HostErrorKind::ConnectionRefused: return "connection refused";
    case HostErrorKind::Timeout: return "timeout";
    case HostErrorKind::CrcError: return "CRC failure";
    case HostErrorKind::SequenceMismatch: return "sequence mismatch";
    case HostErrorKind::ErrorReply: return "error reply";
    case HostErrorKind::ConnectionClosed: return "connection closed";
    case HostErrorKind::ProtocolError: return "protocol error";
    case HostErrorKind::NotImplemented: return "not implemented";
    case HostErrorKind::Io: return "I/O error";
  }
  return "unknown";
}

class HostError : public std::runtime_error {
 public:
  HostError(HostErrorKind kind, const std::string& what, uint8_t status = 0)
      : std::runtime_error(what), kind_(kind), status_(status) {}
  HostErrorKind kind() const noexcept { return kind_; }
  // For ErrorReply: the protocol status code the board sent (protocol.h Status); 0 otherwise.
  uint8_t status() const noexcept { return status_; }

 private:
  HostErrorKind kind_;
  uint8_t status_;
};

}  // namespace cmnet
