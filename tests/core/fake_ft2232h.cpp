#include "tests/core/fake_ft2232h.h"

// umockdev's headers are C with GLib; the kernel's usbdevfs header wants <linux/ioctl.h> first.
#include <umockdev.h>
// clang-format off
#include <linux/ioctl.h>
#include <linux/usbdevice_fs.h>
// clang-format on
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <stdexcept>

#include "host/transport_uri.h"
#include "host/usb_ftdi_transport.h"

namespace cmnet::testing {

namespace {

using Clock = std::chrono::steady_clock;

constexpr uint16_t kPacket = 512;             // high-speed bulk max packet size
constexpr size_t kMaxBuffered = 64 * 1024;    // stop reading the board beyond this (TCP pushes back)
constexpr auto kReapWait = std::chrono::microseconds(1000);  // how long an empty reap waits for news
constexpr uint32_t kCaps = USBDEVFS_CAP_ZERO_PACKET | USBDEVFS_CAP_BULK_CONTINUATION |
                           USBDEVFS_CAP_NO_PACKET_SIZE_LIM | USBDEVFS_CAP_REAP_AFTER_DISCONNECT;

void put16(std::vector<uint8_t>& v, uint16_t x) {
  v.push_back(static_cast<uint8_t>(x & 0xFF));
  v.push_back(static_cast<uint8_t>(x >> 8));
}

std::vector<uint8_t> device_descriptor(const FakeFt2232hOptions& o) {
  std::vector<uint8_t> d = {18, 1};
  put16(d, 0x0200);                       // bcdUSB 2.0
  d.insert(d.end(), {0x00, 0x00, 0x00});  // class/subclass/protocol per interface
  d.push_back(64);                        // bMaxPacketSize0
  put16(d, o.vid);
  put16(d, o.pid);
  put16(d, 0x0700);                       // bcdDevice: FT2232H
  d.push_back(1);                         // iManufacturer
  d.push_back(2);                         // iProduct
  d.push_back(o.serial.empty() ? 0 : 3);  // iSerialNumber
  d.push_back(1);                         // bNumConfigurations
  return d;
}

std::vector<uint8_t> config_descriptor() {
  std::vector<uint8_t> c = {9, 2};
  put16(c, 9 + 2 * (9 + 7 + 7));
  c.insert(c.end(), {2, 1, 0, 0x80, 0x32});  // 2 interfaces, config 1, bus powered, 100 mA
  const uint8_t eps[2][2] = {{0x81, 0x02}, {0x83, 0x04}};
  for (uint8_t i = 0; i < 2; ++i) {
    c.insert(c.end(), {9, 4, i, 0, 2, 0xFF, 0xFF, 0xFF, 2});  // vendor-specific, iInterface 2
    for (uint8_t ep : eps[i]) {
      c.insert(c.end(), {7, 5, ep, 0x02});  // bulk
      put16(c, kPacket);
      c.push_back(0);
    }
  }
  return c;
}

std::vector<uint8_t> string_descriptor(const std::string& s) {
  std::vector<uint8_t> d = {static_cast<uint8_t>(2 + 2 * s.size()), 3};
  for (char ch : s) put16(d, static_cast<uint8_t>(ch));
  return d;
}

std::string hex(const std::vector<uint8_t>& b) {
  std::string s;
  char buf[4];
  for (uint8_t x : b) {
    std::snprintf(buf, sizeof buf, "%02X", x);
    s += buf;
  }
  return s;
}

int iface_of_endpoint(uint8_t ep) {
  switch (ep) {
    case 0x81: case 0x02: return 0;
    case 0x83: case 0x04: return 1;
    default: return -1;
  }
}

struct Urb {
  UMockdevIoctlClient* client = nullptr;  // a reference: the fd the URB was submitted on
  UMockdevIoctlData* data = nullptr;      // a reference: the local copy of struct usbdevfs_urb
  gulong addr = 0;                        // the URB's address in the client (for DISCARDURB)
  Clock::time_point submitted;
  usbdevfs_urb* urb() const { return reinterpret_cast<usbdevfs_urb*>(data->data); }
  // After resolve, urb()->buffer points at the local copy of the client's buffer.
  uint8_t* buffer() const { return static_cast<uint8_t*>(urb()->buffer); }
};

void release(Urb& u) {
  if (u.data) umockdev_ioctl_data_unref(u.data);
  if (u.client) g_object_unref(u.client);
  u.data = nullptr;
  u.client = nullptr;
}

}  // namespace

// umockdev_in_mock_environment() of umockdev 0.17 says false under umockdev-wrapper here, so
// look for the preload library among the process's mappings instead.
bool fake_usb_available() {
  if (umockdev_in_mock_environment()) return true;
  FILE* f = std::fopen("/proc/self/maps", "r");
  if (!f) return false;
  char line[4096];
  bool found = false;
  while (!found && std::fgets(line, sizeof line, f)) found = std::strstr(line, "libumockdev-preload") != nullptr;
  std::fclose(f);
  return found;
}

struct FakeFt2232h::Impl {
  FakeFt2232hOptions opt;
  std::string syspath, devnode;
  UMockdevTestbed* testbed = nullptr;
  UMockdevIoctlBase* handler = nullptr;
  int fifo_if = 0;

  mutable std::mutex mu;
  std::condition_variable cv;  // push_in / unplug
  std::deque<uint8_t> rx;      // bytes from the board not yet sent to the host
  std::vector<uint8_t> captured;
  std::vector<Urb> pending_in;  // bulk IN URBs waiting for the chip to send
  std::deque<Urb> done;         // completed URBs waiting to be reaped
  std::vector<FtdiVendorRequest> vendor;
  bool claimed[2] = {false, false};
  bool bound[2] = {true, true};
  int latency[2] = {16, 16};
  bool gone = false;     // unplugged
  bool closing = false;  // being destroyed
  FakeFt2232hStats stats;

  int tcp = -1;  // the bridge to the board; used on the handler thread only
  bool board_gone = false;

  explicit Impl(FakeFt2232hOptions o) : opt(std::move(o)) {
    fifo_if = opt.fifo_interface == 'B' ? 1 : 0;
    bound[0] = bound[1] = opt.driver_bound;
    char node[64];
    std::snprintf(node, sizeof node, "/dev/bus/usb/%03d/%03d", opt.bus, opt.address);
    devnode = node;
    char sys[96];
    std::snprintf(sys, sizeof sys, "/sys/devices/pci0000:00/0000:00:14.0/usb%d/%d-1", opt.bus, opt.bus);
    syspath = sys;
    if (!opt.bridge.empty()) connect_bridge();

    testbed = umockdev_testbed_new();
    handler = umockdev_ioctl_base_new();
    g_signal_connect(handler, "handle-ioctl", G_CALLBACK(&Impl::on_ioctl), this);
    GError* err = nullptr;
    // The ioctl socket must exist before the node appears (libusb may open it at once).
    if (!umockdev_testbed_attach_ioctl(testbed, devnode.c_str(), handler, &err)) {
      const std::string why = err ? err->message : "unknown error";
      if (err) g_error_free(err);
      cleanup();
      throw std::runtime_error("fake FT2232H: cannot attach the ioctl handler: " + why);
    }
    char vidpid[32];
    std::snprintf(vidpid, sizeof vidpid, "%04x", opt.vid);
    const std::string vid = vidpid;
    std::snprintf(vidpid, sizeof vidpid, "%04x", opt.pid);
    const std::string pid = vidpid;
    std::vector<uint8_t> desc = device_descriptor(opt);
    const std::vector<uint8_t> cfg = config_descriptor();
    desc.insert(desc.end(), cfg.begin(), cfg.end());
    char num[32];
    std::snprintf(num, sizeof num, "%03d", opt.bus);
    const std::string bus3 = num;
    std::snprintf(num, sizeof num, "%03d", opt.address);
    const std::string dev3 = num;
    // Attribute values end in a newline, as sysfs has them ("\\n" is the record format's escape).
    std::string rec = "P: " + syspath.substr(4) + "\n" +                       //
                      "N: " + devnode.substr(5) + "\n" +                       //
                      "E: SUBSYSTEM=usb\n" "E: DEVTYPE=usb_device\n" "E: DRIVER=usb\n" +
                      "E: BUSNUM=" + bus3 + "\n" + "E: DEVNUM=" + dev3 + "\n" +  //
                      "E: DEVNAME=" + devnode + "\n" +                           //
                      "E: PRODUCT=" + std::to_string(opt.vid) + "/" + std::to_string(opt.pid) + "/700\n" +
                      "A: busnum=" + std::to_string(opt.bus) + "\\n\n" +
                      "A: devnum=" + std::to_string(opt.address) + "\\n\n" +
                      "A: speed=480\\n\n" "A: bConfigurationValue=1\\n\n" "A: bNumConfigurations=1\\n\n"
                      "A: bNumInterfaces= 2\\n\n" +
                      "A: idVendor=" + vid + "\\n\n" + "A: idProduct=" + pid + "\\n\n" +
                      "A: manufacturer=FTDI\\n\n" "A: product=Dual RS232-HS\\n\n" +
                      (opt.serial.empty() ? std::string() : "A: serial=" + opt.serial + "\\n\n") +
                      "H: descriptors=" + hex(desc) + "\n";
    if (!umockdev_testbed_add_from_string(testbed, rec.c_str(), &err)) {
      const std::string why = err ? err->message : "unknown error";
      if (err) g_error_free(err);
      cleanup();
      throw std::runtime_error("fake FT2232H: cannot add the device: " + why);
    }
  }

  ~Impl() { cleanup(); }

  void cleanup() {
    {
      std::lock_guard<std::mutex> lk(mu);
      closing = true;
    }
    if (testbed && handler) umockdev_testbed_detach_ioctl(testbed, devnode.c_str(), nullptr);
    {
      std::lock_guard<std::mutex> lk(mu);
      for (Urb& u : pending_in) release(u);
      for (Urb& u : done) release(u);
      pending_in.clear();
      done.clear();
    }
    if (handler) g_object_unref(handler);
    if (testbed) g_object_unref(testbed);
    handler = nullptr;
    testbed = nullptr;
    if (tcp >= 0) ::close(tcp);
    tcp = -1;
  }

  void connect_bridge() {
    const TransportUri u = parse_transport_uri(opt.bridge);
    if (u.scheme != UriScheme::Sim) throw std::runtime_error("fake FT2232H: bridge must be sim://127.0.0.1:PORT");
    tcp = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(u.port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (tcp < 0 || ::connect(tcp, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
      const std::string why = std::strerror(errno);
      if (tcp >= 0) ::close(tcp);
      tcp = -1;
      throw std::runtime_error("fake FT2232H: cannot connect to " + opt.bridge + ": " + why);
    }
    int one = 1;
    ::setsockopt(tcp, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }

  // ---------------------------------------------------------------- the byte stream

  // Handler thread: moves what the board sent into rx (called with mu held).
  void pump_board() {
    if (tcp < 0 || board_gone) return;
    uint8_t buf[8192];
    while (rx.size() < kMaxBuffered) {
      const ssize_t n = ::recv(tcp, buf, sizeof buf, MSG_DONTWAIT);
      if (n > 0) {
        rx.insert(rx.end(), buf, buf + n);
        continue;
      }
      if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) board_gone = true;
      break;
    }
  }

  // Handler thread, without mu: bytes the host wrote go to the board.
  void to_board(const uint8_t* p, size_t n) {
    if (tcp < 0) {
      std::lock_guard<std::mutex> lk(mu);
      captured.insert(captured.end(), p, p + n);
      return;
    }
    while (n > 0 && !board_gone) {
      const ssize_t w = ::send(tcp, p, n, MSG_NOSIGNAL);
      if (w < 0) {
        if (errno == EINTR) continue;
        board_gone = true;  // the board is gone: its bytes go nowhere, as on a dead FPGA
        break;
      }
      p += w;
      n -= static_cast<size_t>(w);
    }
  }

  // Completes IN URBs whose time has come (mu held). The chip sends full packets (two status
  // bytes + 510 data bytes) while it has that much; a short packet (possibly status only) ends
  // the transfer when the latency timer runs out.
  void service_in(Clock::time_point now) {
    bool head_seen[2] = {false, false};
    for (auto it = pending_in.begin(); it != pending_in.end();) {
      const int ifn = iface_of_endpoint(it->urb()->endpoint);
      if (ifn < 0 || head_seen[ifn]) {  // later URBs on an endpoint wait for the first
        ++it;
        continue;
      }
      head_seen[ifn] = true;
      const int len = it->urb()->buffer_length;
      const size_t pkt = std::min<size_t>(kPacket, static_cast<size_t>(len));
      const size_t cap = pkt > 2 ? pkt - 2 : 0;
      const size_t npk = pkt ? static_cast<size_t>(len) / pkt : 0;
      const bool data_if = ifn == fifo_if;
      const size_t avail = data_if ? rx.size() : 0;
      const bool latency_up = now - it->submitted >= std::chrono::milliseconds(latency[ifn]);
      const size_t full = cap ? avail / cap : 0;
      if (npk == 0 || cap == 0 || it->buffer() == nullptr) {
        it->urb()->status = -EOVERFLOW;
        it->urb()->actual_length = 0;
      } else if (full >= npk || latency_up) {
        uint8_t* b = it->buffer();
        size_t off = 0;
        size_t packets = 0;
        const size_t nfull = std::min(full, npk);
        auto emit = [&](size_t ndata) {
          b[off] = opt.modem_status;
          b[off + 1] = opt.line_status;
          std::copy_n(rx.begin(), ndata, b + off + 2);
          rx.erase(rx.begin(), rx.begin() + static_cast<std::ptrdiff_t>(ndata));
          off += 2 + ndata;
          ++packets;
          stats.bytes_to_host += ndata;
          if (ndata == 0) ++stats.status_only_packets;
        };
        for (size_t p = 0; p < nfull; ++p) emit(cap);
        if (nfull < npk) emit(data_if ? std::min(rx.size(), cap - 1) : 0);  // the short packet
        it->urb()->status = 0;
        it->urb()->actual_length = static_cast<int>(off);
        stats.in_packets += packets;
        ++stats.in_urbs;
        if (packets > 1) ++stats.multi_packet_urbs;
      } else {
        ++it;
        continue;
      }
      done.push_back(*it);
      it = pending_in.erase(it);
    }
  }

  // The first completed URB of this client (mu held), or false.
  bool take_done(UMockdevIoctlClient* client, Urb& out) {
    for (auto it = done.begin(); it != done.end(); ++it)
      if (it->client == client) {
        out = *it;
        done.erase(it);
        return true;
      }
    return false;
  }

  // ---------------------------------------------------------------- control requests

  void control(Urb& u) {
    usbdevfs_urb* urb = u.urb();
    uint8_t* b = u.buffer();
    urb->actual_length = 0;
    urb->status = 0;
    if (!b || urb->buffer_length < 8) {
      urb->status = -EINVAL;
      return;
    }
    const uint8_t type = b[0], req = b[1];
    const uint16_t value = static_cast<uint16_t>(b[2] | b[3] << 8);
    const uint16_t index = static_cast<uint16_t>(b[4] | b[5] << 8);
    const uint16_t length = static_cast<uint16_t>(b[6] | b[7] << 8);
    uint8_t* data = b + 8;
    const size_t room = std::min<size_t>(length, static_cast<size_t>(urb->buffer_length - 8));
    auto reply = [&](const std::vector<uint8_t>& r) {
      const size_t n = std::min(room, r.size());
      std::memcpy(data, r.data(), n);
      urb->actual_length = static_cast<int>(n);
    };
    ++stats.control_urbs;
    if (type == 0x80 && req == 0x06) {  // GET_DESCRIPTOR
      const uint8_t dtype = value >> 8, di = value & 0xFF;
      if (dtype == 1) reply(device_descriptor(opt));
      else if (dtype == 2) reply(config_descriptor());
      else if (dtype == 3 && di == 0) reply({4, 3, 0x09, 0x04});
      else if (dtype == 3 && di == 1) reply(string_descriptor("FTDI"));
      else if (dtype == 3 && di == 2) reply(string_descriptor("Dual RS232-HS"));
      else if (dtype == 3 && di == 3 && !opt.serial.empty()) reply(string_descriptor(opt.serial));
      else urb->status = -EPIPE;
      return;
    }
    if (type == 0x00 && req == 0x09) return;  // SET_CONFIGURATION
    if (type != ftdi::kRequestOut && type != ftdi::kRequestIn) {
      urb->status = -EPIPE;
      return;
    }
    vendor.push_back({type, req, value, index, length});
    const int ch = (index & 0xFF) == 2 ? 1 : 0;  // channel 1 (or 0, legacy) = A, 2 = B
    if (type == ftdi::kRequestIn) {
      if (req == ftdi::kSioGetLatencyTimer) reply({static_cast<uint8_t>(latency[ch])});
      else if (req == ftdi::kSioPollModemStatus) reply({opt.modem_status, opt.line_status});
      else urb->status = -EPIPE;
      return;
    }
    switch (req) {
      case ftdi::kSioReset:
        if ((value == ftdi::kResetSio || value == ftdi::kResetPurgeRx) && ch == fifo_if) rx.clear();
        break;
      case ftdi::kSioSetLatencyTimer:
        if ((value & 0xFF) == 0) urb->status = -EPIPE;
        else latency[ch] = value & 0xFF;
        break;
      default:
        break;  // baud, data format, flow control, bit mode: recorded only
    }
  }

  // ---------------------------------------------------------------- the ioctl handler

  static gboolean on_ioctl(UMockdevIoctlBase*, UMockdevIoctlClient* client, gpointer self) {
    return static_cast<Impl*>(self)->handle(client) ? TRUE : FALSE;
  }

  static void complete(UMockdevIoctlClient* client, long res, int err) {
    umockdev_ioctl_client_complete(client, res, err);
  }
  static bool reply(UMockdevIoctlClient* client, long res, int err) {
    complete(client, res, err);
    return true;
  }

  // Resolves the ioctl argument as a pointer to `len` bytes; nullptr if it is a null pointer.
  static UMockdevIoctlData* arg_struct(UMockdevIoctlClient* client, size_t len) {
    return umockdev_ioctl_data_resolve(umockdev_ioctl_client_get_arg(client), 0, len, nullptr);
  }

  bool handle(UMockdevIoctlClient* client) {
    const gulong request = umockdev_ioctl_client_get_request(client);
    std::unique_lock<std::mutex> lk(mu);
    if (closing) {
      complete(client, -1, ENODEV);
      return true;
    }
    const bool dead = gone;
    switch (request) {
      case USBDEVFS_GET_CAPABILITIES: {
        if (dead) return reply(client, -1, ENODEV);
        UMockdevIoctlData* d = arg_struct(client, sizeof(uint32_t));
        if (!d) return reply(client, -1, EFAULT);
        *reinterpret_cast<uint32_t*>(d->data) = kCaps;
        umockdev_ioctl_data_unref(d);
        complete(client, 0, 0);
        return true;
      }
      case USBDEVFS_CLAIMINTERFACE:
      case USBDEVFS_RELEASEINTERFACE: {
        if (dead) return reply(client, -1, ENODEV);
        UMockdevIoctlData* d = arg_struct(client, sizeof(unsigned int));
        if (!d) return reply(client, -1, EFAULT);
        const unsigned ifn = *reinterpret_cast<unsigned int*>(d->data);
        umockdev_ioctl_data_unref(d);
        if (ifn > 1) return reply(client, -1, EINVAL);
        if (request == USBDEVFS_CLAIMINTERFACE) {
          if (bound[ifn]) return reply(client, -1, EBUSY);  // ftdi_sio holds it
          claimed[ifn] = true;
        } else {
          claimed[ifn] = false;
        }
        complete(client, 0, 0);
        return true;
      }
      case USBDEVFS_GETDRIVER: {
        if (dead) return reply(client, -1, ENODEV);
        UMockdevIoctlData* d = arg_struct(client, sizeof(usbdevfs_getdriver));
        if (!d) return reply(client, -1, EFAULT);
        auto* g = reinterpret_cast<usbdevfs_getdriver*>(d->data);
        const unsigned ifn = g->interface;
        int err = 0;
        if (ifn > 1) err = EINVAL;
        else if (claimed[ifn]) std::snprintf(g->driver, sizeof g->driver, "usbfs");
        else if (!bound[ifn]) err = ENODATA;
        else std::snprintf(g->driver, sizeof g->driver, "ftdi_sio");
        umockdev_ioctl_data_unref(d);
        complete(client, err ? -1 : 0, err);
        return true;
      }
      case USBDEVFS_IOCTL: {  // DISCONNECT (detach the kernel driver) / CONNECT (re-attach)
        if (dead) return reply(client, -1, ENODEV);
        UMockdevIoctlData* d = arg_struct(client, sizeof(usbdevfs_ioctl));
        if (!d) return reply(client, -1, EFAULT);
        const auto* c = reinterpret_cast<usbdevfs_ioctl*>(d->data);
        const int ifn = c->ifno;
        const auto code = static_cast<unsigned long>(static_cast<unsigned int>(c->ioctl_code));
        umockdev_ioctl_data_unref(d);
        int err = 0;
        if (ifn < 0 || ifn > 1) err = EINVAL;
        else if (code == USBDEVFS_DISCONNECT) {
          if (!bound[ifn]) err = ENODATA;
          bound[ifn] = false;
        } else if (code == USBDEVFS_CONNECT) {
          if (claimed[ifn]) err = EBUSY;
          else bound[ifn] = true;
        } else {
          err = ENOTTY;
        }
        complete(client, err ? -1 : 0, err);
        return true;
      }
      case USBDEVFS_DISCONNECT_CLAIM: {
        if (dead) return reply(client, -1, ENODEV);
        UMockdevIoctlData* d = arg_struct(client, sizeof(usbdevfs_disconnect_claim));
        if (!d) return reply(client, -1, EFAULT);
        const unsigned ifn = reinterpret_cast<usbdevfs_disconnect_claim*>(d->data)->interface;
        umockdev_ioctl_data_unref(d);
        if (ifn > 1) return reply(client, -1, EINVAL);
        bound[ifn] = false;
        claimed[ifn] = true;
        complete(client, 0, 0);
        return true;
      }
      case USBDEVFS_SETINTERFACE:
      case USBDEVFS_SETCONFIGURATION:
      case USBDEVFS_CLEAR_HALT:
      case USBDEVFS_RESETEP:
      case USBDEVFS_RESET:
        complete(client, dead ? -1 : 0, dead ? ENODEV : 0);
        return true;
      case USBDEVFS_SUBMITURB:
        return submit(client, lk);
      case USBDEVFS_REAPURB:
      case USBDEVFS_REAPURBNDELAY:
        return reap(client, lk);
      case USBDEVFS_DISCARDURB: {
        const UMockdevIoctlData* a = umockdev_ioctl_client_get_arg(client);
        const gulong addr = *reinterpret_cast<const gulong*>(a->data);
        for (auto it = pending_in.begin(); it != pending_in.end(); ++it)
          if (it->addr == addr && it->client == client) {
            it->urb()->status = -ENOENT;  // as the kernel reports a cancelled URB
            it->urb()->actual_length = 0;
            ++stats.discarded_urbs;
            done.push_back(*it);
            pending_in.erase(it);
            complete(client, 0, 0);
            return true;
          }
        complete(client, -1, EINVAL);  // already completed
        return true;
      }
      default:
        complete(client, -1, ENOTTY);
        return true;
    }
  }

  bool submit(UMockdevIoctlClient* client, std::unique_lock<std::mutex>& lk) {
    if (gone) return reply(client, -1, ENODEV);
    UMockdevIoctlData* d = arg_struct(client, sizeof(usbdevfs_urb));
    if (!d) return reply(client, -1, EFAULT);
    auto* urb = reinterpret_cast<usbdevfs_urb*>(d->data);
    if (urb->buffer && urb->buffer_length > 0) {
      UMockdevIoctlData* b =
          umockdev_ioctl_data_resolve(d, offsetof(usbdevfs_urb, buffer), static_cast<gsize>(urb->buffer_length), nullptr);
      if (b) umockdev_ioctl_data_unref(b);  // it stays a child of d
    }
    Urb u;
    u.client = client;
    g_object_ref(client);
    u.data = d;
    u.addr = d->client_addr;
    u.submitted = Clock::now();
    const int ifn = iface_of_endpoint(urb->endpoint);
    if (urb->type == USBDEVFS_URB_TYPE_CONTROL) {
      control(u);
      done.push_back(u);
    } else if (urb->type == USBDEVFS_URB_TYPE_BULK && ifn >= 0 && (urb->endpoint & 0x80)) {
      pending_in.push_back(u);
    } else if (urb->type == USBDEVFS_URB_TYPE_BULK && ifn >= 0) {
      const size_t n = urb->buffer_length > 0 && u.buffer() ? static_cast<size_t>(urb->buffer_length) : 0;
      urb->status = 0;
      urb->actual_length = static_cast<int>(n);
      ++stats.out_urbs;
      stats.bytes_from_host += n;
      if (ifn == fifo_if && n > 0) {
        std::vector<uint8_t> bytes(u.buffer(), u.buffer() + n);
        lk.unlock();
        to_board(bytes.data(), bytes.size());
        lk.lock();
      }
      done.push_back(u);
    } else {
      release(u);
      complete(client, -1, ENOENT);
      return true;
    }
    complete(client, 0, 0);
    return true;
  }

  bool reap(UMockdevIoctlClient* client, std::unique_lock<std::mutex>& lk) {
    Urb u;
    for (int round = 0; round < 2; ++round) {
      pump_board();
      service_in(Clock::now());
      if (take_done(client, u)) break;
      if (round == 1 || gone) break;
      // Nothing yet: wait a little for the board, a push_in or the latency timer, rather than
      // have libusb spin (the emulated node is a plain file, so its poll() never blocks).
      if (tcp >= 0 && !board_gone) {
        lk.unlock();
        pollfd p{tcp, POLLIN, 0};
        ::poll(&p, 1, static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(kReapWait).count()));
        lk.lock();
      } else {
        cv.wait_for(lk, kReapWait);
      }
    }
    if (!u.data) {
      complete(client, -1, gone ? ENODEV : EAGAIN);
      return true;
    }
    UMockdevIoctlData* slot = arg_struct(client, sizeof(void*));
    if (!slot) {
      release(u);
      complete(client, -1, EFAULT);
      return true;
    }
    umockdev_ioctl_data_set_ptr(slot, 0, u.data);
    umockdev_ioctl_data_unref(slot);
    release(u);
    complete(client, 0, 0);
    return true;
  }
};

FakeFt2232h::FakeFt2232h(FakeFt2232hOptions opt) : impl_(std::make_unique<Impl>(std::move(opt))) {}
FakeFt2232h::~FakeFt2232h() = default;

const FakeFt2232hOptions& FakeFt2232h::options() const { return impl_->opt; }
std::string FakeFt2232h::syspath() const { return impl_->syspath; }
std::string FakeFt2232h::devnode() const { return impl_->devnode; }

void FakeFt2232h::push_in(std::span<const uint8_t> bytes) {
  std::lock_guard<std::mutex> lk(impl_->mu);
  impl_->rx.insert(impl_->rx.end(), bytes.begin(), bytes.end());
  impl_->cv.notify_all();
}

std::vector<uint8_t> FakeFt2232h::take_out() {
  std::lock_guard<std::mutex> lk(impl_->mu);
  std::vector<uint8_t> out;
  out.swap(impl_->captured);
  return out;
}

std::vector<FtdiVendorRequest> FakeFt2232h::vendor_requests() const {
  std::lock_guard<std::mutex> lk(impl_->mu);
  return impl_->vendor;
}

void FakeFt2232h::clear_vendor_requests() {
  std::lock_guard<std::mutex> lk(impl_->mu);
  impl_->vendor.clear();
}

bool FakeFt2232h::claimed(int ifnum) const {
  std::lock_guard<std::mutex> lk(impl_->mu);
  return ifnum >= 0 && ifnum < 2 && impl_->claimed[ifnum];
}

bool FakeFt2232h::driver_bound(int ifnum) const {
  std::lock_guard<std::mutex> lk(impl_->mu);
  return ifnum >= 0 && ifnum < 2 && impl_->bound[ifnum];
}

int FakeFt2232h::latency_ms(int ifnum) const {
  std::lock_guard<std::mutex> lk(impl_->mu);
  return ifnum >= 0 && ifnum < 2 ? impl_->latency[ifnum] : -1;
}

FakeFt2232hStats FakeFt2232h::stats() const {
  std::lock_guard<std::mutex> lk(impl_->mu);
  return impl_->stats;
}

void FakeFt2232h::unplug() {
  {
    std::lock_guard<std::mutex> lk(impl_->mu);
    if (impl_->gone) return;
    impl_->gone = true;
    // The host controller flushes the endpoints: URBs in flight end with -ESHUTDOWN.
    for (Urb& u : impl_->pending_in) {
      u.urb()->status = -ESHUTDOWN;
      u.urb()->actual_length = 0;
      impl_->done.push_back(u);
    }
    impl_->pending_in.clear();
    impl_->cv.notify_all();
  }
  umockdev_testbed_uevent(impl_->testbed, impl_->syspath.c_str(), "remove");
  umockdev_testbed_remove_device(impl_->testbed, impl_->syspath.c_str());
}

bool FakeFt2232h::unplugged() const {
  std::lock_guard<std::mutex> lk(impl_->mu);
  return impl_->gone;
}

}  // namespace cmnet::testing
