// Host-link frame engine: the board's end of protocol v1 (host/PROTOCOL.md). It takes the
// bytes a PHY receives (cmnet_uart_rx, cmnet_fifo_phy, or a simulator feeding bytes directly),
// decodes request frames exactly as proto::FrameDecoder (gen/core/protocol.cpp) does, executes them
// as the master of a register bus, and hands the reply frames to the PHY byte by byte.
//
// It also executes LiteX UARTBone commands (PROTOCOL.md, "UARTBone"), so litex_server --uart
// works with every board top: a byte 0x01..0x04 where a frame's sync byte 0xA5 could start
// begins one (command, length, word address big-endian, write data big-endian; reads answer
// the words big-endian, writes nothing). Bytes rescanned after a failed frame are searched for
// SYNC only (hwm), so a corrupted frame never turns into UARTBone writes. Like a frame, a
// command runs only once complete; one stalled FRAME_TIMEOUT cycles is dropped, and the bytes
// after its command byte are rescanned.
//
// Register bus (this engine is the master; a target is e.g. cmnet_regfile_demo):
//   bus_valid  a request: held high, with bus_write, bus_addr and bus_wdata stable, until the
//              target answers; after every access it is low for at least one cycle
//   bus_write  1: write bus_wdata to bus_addr; 0: read bus_addr
//   bus_addr   byte address, always 4-byte aligned (the registers are 32-bit words)
//   bus_wdata  write data
//   bus_ready  the target's answer: the access completes at the rising edge where bus_valid
//              and bus_ready are both high. A target usually answers one cycle after
//              bus_valid rises (bus_ready <= bus_valid && !bus_ready), or any number of cycles
//              later; a combinational answer in the first cycle works too.
//   bus_rdata  read data, valid with bus_ready
//   bus_err    valid with bus_ready: the address is not decoded and the access had no effect;
//              the request is answered BAD_ADDRESS (a burst stops at that word)
// An access not answered within BUS_TIMEOUT cycles is abandoned and answered INTERNAL.
//
// Why a receive ring instead of processing the stream on the fly. PROTOCOL.md requires that
// (a) a request whose frame CRC fails executes nothing (BAD_CRC: "Nothing was executed"), so a
// burst write cannot start before its last byte has been checked, and (b) after a header CRC
// failure, a frame CRC failure or a stalled partial frame, the receiver skips only the sync
// byte and rescans the bytes after it (a frame whose length field swallowed the start of the
// next frame is found again). Both need the raw bytes of the current frame, up to 1040 of
// them. So every received byte goes into a ring of 2048 bytes (four iCE40
// SB_RAM40_4K, one write and one synchronous read port); the decoder walks the ring, and
// rewinds to the byte after the sync when the software decoder would. A good frame is then
// executed straight from the ring, word by word: no second copy of the payload.
// A burst read can fail on any word (bus_err), and an error reply carries no payload, so the
// status is known only after the last read: read data is collected in a 256 x 32 buffer (two
// SB_RAM40_4K) and sent after the header. The CRC unit, the counters and the header registers
// are shared by the decoder, the executor and the reply serializer, which run one after the
// other; bytes arriving meanwhile wait in the ring.
//
// Speed, with a target that answers in one cycle: about one received byte decoded per cycle;
// a burst write takes about 6 cycles per word (4 to fetch it from the ring, 2 on the bus), a
// burst read 3 per word, the reply one byte per cycle plus one cycle per payload word.
// Limits: over a UART (no flow control) the ring absorbs about 1000 bytes beyond a whole frame
// while a reply goes out; a host that waits for each reply (BoardClient) never fills it, one
// that pipelines requests whose replies are longer than they are can (bytes are dropped,
// `overrun`; the host's CRC check and retry recover). On iCE40 (yosys synth_ice40 + nextpnr)
// with a UART: about 830 LUTs (UARTBone: about 105 of them), 360 flip-flops and 6 of the
// UP5K's 30 RAM blocks; 33 MHz on a UP5K (measured before UARTBone), 76 MHz on an HX8K (83
// without UARTBone), so the FT2232H sync FIFO's 60 MHz works on HX parts.
module cmnet_frame_engine #(
    parameter integer FRAME_TIMEOUT = 4000000,  // cycles a partial frame may stall; 0: forever
    parameter integer BUS_TIMEOUT = 1023        // cycles a bus access may take; 0: forever
) (
    input  wire        clk,
    input  wire        rst,
    // received bytes (host -> board); a PHY without flow control (UART) may ignore in_ready:
    // a byte offered while the ring is full is dropped and `overrun` strobes
    input  wire        in_valid,
    output wire        in_ready,
    input  wire [7:0]  in_data,
    // a stall timeout measured outside the engine (a simulated board's wall-time timeout,
    // sim/core/board_rtl_bridge.h): while high, a stalled partial frame or command is dropped
    // as after FRAME_TIMEOUT. Hardware ties it to 0.
    input  wire        stall_expired,
    // reply bytes (board -> host)
    output reg         out_valid,
    input  wire        out_ready,
    output reg  [7:0]  out_data,
    // register bus master (see above)
    output reg         bus_valid,
    output reg         bus_write,
    output wire [31:0] bus_addr,
    output wire [31:0] bus_wdata,
    input  wire        bus_ready,
    input  wire [31:0] bus_rdata,
    input  wire        bus_err,
    // status
    output wire        idle,      // nothing buffered, nothing in progress
    output wire        stalled,   // a partial frame waits for its next byte (none in the ring)
    output wire        overrun    // one cycle: a byte was dropped (ring full)
);
  // ------------------------------------------------------------------ constants
  // The ring: the longest frame (1040 bytes) and up to 1007 bytes that arrive behind it.
  localparam integer RING_AW = 11;
  localparam [7:0] SYNC = 8'hA5;
  localparam [7:0] VERSION = 8'h01;
  localparam [2:0] ST_OK = 3'd0, ST_BAD_CRC = 3'd1, ST_BAD_LENGTH = 3'd2, ST_UNKNOWN = 3'd3,
                   ST_BAD_ADDRESS = 3'd4, ST_BAD_VERSION = 3'd6, ST_INTERNAL = 3'd7;

  localparam [3:0] S_HUNT = 4'd0,    // skip bytes until a sync byte
                   S_HDR = 4'd1,     // header bytes 1..13
                   S_BODY = 4'd2,    // payload
                   S_FCRC = 4'd3,    // frame CRC (2 bytes)
                   S_EXEC = 4'd4,    // decide what a good frame asks for
                   S_WFETCH = 4'd5,  // assemble a write word from the ring
                   S_WBUS = 4'd6,    // bus write
                   S_RBUS = 4'd7,    // bus read
                   S_TXH = 4'd8,     // reply header
                   S_TXF = 4'd9,     // fetch a reply payload word
                   S_TXP = 4'd10,    // reply payload
                   S_TXC = 4'd11,    // reply frame CRC
                   S_SKIP = 4'd12,   // drop the request's bytes from the ring, back to S_HUNT
                   S_UHDR = 4'd13;   // UARTBone: length and address bytes

  // How far the ring's start moves after a reply: past the sync byte only (rescan), past the
  // header (BAD_VERSION, BAD_LENGTH: the payload is scanned as garbage), past the frame, past
  // a UARTBone command.
  localparam [1:0] SK_ONE = 2'd0, SK_HDR = 2'd1, SK_FRAME = 2'd2, SK_UB = 2'd3;

  localparam integer TMAX = (FRAME_TIMEOUT > BUS_TIMEOUT) ? FRAME_TIMEOUT : BUS_TIMEOUT;
  localparam integer TW = (TMAX < 2) ? 1 : $clog2(TMAX + 1);
  localparam [TW-1:0] FRAME_TMO = FRAME_TIMEOUT[TW-1:0];
  localparam [TW-1:0] BUS_TMO = BUS_TIMEOUT[TW-1:0];

  // CRC-16/CCITT-FALSE, one byte: polynomial 0x1021, MSB first, no reflection.
  function [15:0] crc16;
    input [15:0] c;
    input [7:0] d;
    integer k;
    reg [15:0] x;
    begin
      x = c ^ {d, 8'h00};
      for (k = 0; k < 8; k = k + 1) x = x[15] ? ((x << 1) ^ 16'h1021) : (x << 1);
      crc16 = x;
    end
  endfunction

  // ------------------------------------------------------------------ state
  reg [3:0]         st;
  reg [RING_AW-1:0] wr;       // next byte from the PHY goes here
  reg [RING_AW-1:0] wr_d;     // wr one cycle ago: bytes before it can be read (see rbyte)
  reg [RING_AW-1:0] beg;      // first byte still needed (the current frame's sync byte)
  reg [RING_AW-1:0] rd;       // next byte to decode or execute
  reg [RING_AW-1:0] rd_nx;
  reg [7:0]         rbyte;    // ring[rd]
  reg [RING_AW-1:0] hwm;      // first byte never decoded; bytes before it are rescanned for SYNC only
  reg               ub;       // the current request is a UARTBone command, not a frame

  // Header of the current frame.
  reg        h_ver_ok;
  reg [7:0]  h_type, h_seq, h_flags;
  reg [31:0] h_addr;
  reg [8:0]  h_len;       // len, when not h_len_big
  reg        h_len_big;   // len >= 512
  reg [8:0]  h_cnt;       // payload word 0, bits 8:0 (BURST_READ's word count)
  reg        h_cnt_big;   // payload word 0 >= 512

  reg [15:0] crc;
  reg [7:0]  crc_hi;      // header CRC high byte, kept while the CRC runs on over the header CRC
  reg        lo_ok;       // the low byte of a received CRC matched
  reg [10:0] cnt;         // byte index in the header, payload, frame CRC or reply header
  reg [8:0]  wi;          // word index of a burst and of the reply payload
  reg [1:0]  bi;          // byte in word
  reg [8:0]  n;           // words to move
  reg        op_read, op_ping;
  reg [2:0]  status;
  reg [1:0]  skip_sel;
  reg        flush;       // dropping stalled partial frames until the rescanned bytes are scanned
  reg [TW-1:0] tmo;
  reg [31:0] wdata;
  reg [31:0] rbq;         // rbuf[wi]

  // no_rw_check: neither RAM is ever read at an address written in the same cycle (see rbyte;
  // rbuf is written while executing and read while replying), so yosys need not add
  // read-during-write bypass logic (about 100 flip-flops and 50 LUTs).
  (* no_rw_check *) reg [7:0]  ring [0:(1 << RING_AW) - 1];
  (* no_rw_check *) reg [31:0] rbuf [0:255];

  // ------------------------------------------------------------------ ring
  assign in_ready = (wr + 1'b1 != beg);
  assign overrun = in_valid && !in_ready;
  always @(posedge clk) begin
    if (in_valid && in_ready) ring[wr] <= in_data;
  end
  // rbyte is read at the edge before it is used, from the address rd will have. A byte is
  // decoded only if it was written at an earlier edge than that read (rd != wr_d), so the
  // RAM never has to forward a write to the read port.
  always @(posedge clk) rbyte <= ring[rd_nx];
  wire avail = (rd != wr_d);

  // ------------------------------------------------------------------ decoding conditions
  wire decoding = (st == S_HDR) || (st == S_BODY) || (st == S_FCRC) || (st == S_UHDR);
  wire take = avail && (decoding || st == S_HUNT);
  // A UARTBone command byte (0x01..0x04) starts a command only where no decode has been before:
  // the bytes of a failed frame, rescanned after its sync byte, never turn into bus writes.
  wire ub_start = (st == S_HUNT) && take && (rd == hwm) && (rbyte[7:3] == 5'd0) &&
                  (rbyte[2:0] != 3'd0) && !(rbyte[2] && rbyte[1:0] != 2'd0);
  wire hdr_last = (st == S_HDR) && take && (cnt[3:0] == 4'd13);
  wire hcrc_ok = lo_ok && (rbyte == crc_hi);
  wire len_bad = h_len_big || (h_len[8] && (h_len[7:0] != 8'd0));   // len > 256
  wire [10:0] plen = {h_len, 2'b00};
  wire tmo_frame = (FRAME_TIMEOUT != 0) && (tmo == FRAME_TMO);
  wire tmo_bus = (BUS_TIMEOUT != 0) && (tmo == BUS_TMO);
  wire drop = decoding && !avail && (flush || tmo_frame || stall_expired);   // give up on a stalled partial frame

  // The ring's start moves (and decoding restarts there) on: a garbage byte in S_HUNT, a
  // header CRC failure, a dropped partial frame, and the end of a reply (by skip_sel).
  wire resync = (st == S_HUNT && take && rbyte != SYNC && !ub_start) || (hdr_last && !hcrc_ok) || drop ||
                (st == S_SKIP);
  reg [10:0] skip_amt;
  always @(*) begin
    if (st == S_EXEC) skip_amt = ub ? 11'd6 : 11'd14;   // rd to the first payload byte
    else if (st != S_SKIP || skip_sel == SK_ONE) skip_amt = 11'd1;
    else if (skip_sel == SK_HDR) skip_amt = 11'd14;
    else skip_amt = plen + 11'd16;
  end
  // After a UARTBone command rd is at its end (every write word was fetched, reads have no data).
  wire [RING_AW-1:0] beg_plus = (st == S_SKIP && skip_sel == SK_UB) ? rd : beg + skip_amt;

  wire [RING_AW-1:0] rd_inc = rd + 1'b1;   // shared with hwm
  always @(*) begin
    if (resync || st == S_EXEC) rd_nx = beg_plus;
    else if (take || st == S_WFETCH) rd_nx = rd_inc;
    else rd_nx = rd;
  end

  // ------------------------------------------------------------------ execution
  wire aligned = (h_addr[1:0] == 2'b00);
  wire noinc = h_flags[0];
  wire cnt_ok = !h_cnt_big && (h_cnt != 9'd0) && !(h_cnt[8] && (h_cnt[7:0] != 8'd0));
  // The word count, registered while the frame CRC arrives (it is 1..256 where it matters).
  wire [8:0] n_req = (h_type == 8'h05) ? h_cnt : (h_type == 8'h04 || ub) ? h_len : 9'd1;
  // A burst runs past 0xFFFFFFFF when the last word address (addr/4 + n - 1) overflows 30
  // bits: only possible when addr/4 is within 255 of the top, and then addr[9:2] + n > 256.
  wire [9:0] end_sum = {2'b00, h_addr[9:2]} + {1'b0, n};
  wire wraps = !noinc && (&h_addr[31:10]) && (end_sum[9] || (end_sum[8] && end_sum[7:0] != 8'd0));
  // bus_addr is a register, one cycle behind wi: wi is 0 from the frame CRC on and changes only
  // when an access completes, at least one cycle before bus_valid rises again. (A registered
  // address keeps the adder out of the target's decode path.)
  reg [29:0] word_addr;
  always @(posedge clk) word_addr <= h_addr[31:2] + (noinc ? 30'd0 : {21'd0, wi});
  assign bus_addr = {word_addr, 2'b00};
  assign bus_wdata = wdata;
  wire bus_done = bus_valid && bus_ready;
  wire [8:0] wi_next = wi + 1'b1;

  // A failed read (bus_err, or the bus timeout) stores all ones: a UARTBone read answers them
  // for that word only, as LiteX does (a frame's reply has no payload after a failure).
  always @(posedge clk) begin
    if (st == S_RBUS && (bus_done || (bus_valid && tmo_bus)))
      rbuf[wi[7:0]] <= (bus_done && !bus_err) ? bus_rdata : 32'hFFFFFFFF;
    rbq <= rbuf[wi[7:0]];
  end

  // ------------------------------------------------------------------ reply bytes
  // A UARTBone read answers every word it was asked for, whatever happened on the bus.
  wire [8:0] rlen = (status != ST_OK && !ub) ? 9'd0 : op_ping ? 9'd1 : op_read ? n : 9'd0;
  reg [7:0] hbyte;
  always @(*) begin
    case (cnt[3:0])
      4'd0: hbyte = SYNC;
      4'd1: hbyte = VERSION;
      4'd2: hbyte = {1'b1, h_type[6:0]};
      4'd3: hbyte = h_seq;
      4'd4: hbyte = h_addr[7:0];
      4'd5: hbyte = h_addr[15:8];
      4'd6: hbyte = h_addr[23:16];
      4'd7: hbyte = h_addr[31:24];
      4'd8: hbyte = rlen[7:0];
      4'd9: hbyte = {7'd0, rlen[8]};
      4'd10: hbyte = {5'd0, status};
      4'd11: hbyte = h_flags;
      4'd12: hbyte = crc[7:0];
      default: hbyte = crc_hi;
    endcase
  end
  // PING's word: protocol version | 256 << 16 = 0x01000001, little-endian. UARTBone words are
  // big-endian; a failed word of a UARTBone read was stored as all ones (what LiteX's bus
  // timeout answers), the other words answer their data.
  wire [1:0] bsel = bi ^ {2{ub}};
  wire [7:0] pbyte = op_ping ? ((bi == 2'd0 || bi == 2'd3) ? 8'h01 : 8'h00) : rbq[8 * bsel +: 8];
  wire       txing = (st == S_TXH) || (st == S_TXP);
  wire [7:0] tx_byte = (st == S_TXP) ? pbyte : hbyte;
  wire       tx_take = !out_valid || out_ready;
  wire [15:0] crc_nx = crc16(crc, txing ? tx_byte : rbyte);

  assign idle = (st == S_HUNT) && (beg == wr) && !out_valid;
  // Stalled: a partial frame or command waits for bytes the ring does not hold (a byte written
  // in the last cycle is not yet `avail`, but is not waited for), and is not about to be dropped
  // (flush). A simulated board stops its clock while stalled (sim/core/board_rtl_bridge.h).
  assign stalled = decoding && (rd == wr) && !flush;

  // ------------------------------------------------------------------ the sequencer
  always @(posedge clk) begin
    if (rst) begin
      st <= S_HUNT;
      wr <= {RING_AW{1'b0}};
      wr_d <= {RING_AW{1'b0}};
      beg <= {RING_AW{1'b0}};
      rd <= {RING_AW{1'b0}};
      out_valid <= 1'b0;
      out_data <= 8'd0;
      bus_valid <= 1'b0;
      bus_write <= 1'b0;
      hwm <= {RING_AW{1'b0}};
      ub <= 1'b0;
      h_ver_ok <= 1'b0;
      h_type <= 8'd0;
      h_seq <= 8'd0;
      h_flags <= 8'd0;
      h_addr <= 32'd0;
      h_len <= 9'd0;
      h_len_big <= 1'b0;
      h_cnt <= 9'd0;
      h_cnt_big <= 1'b0;
      crc <= 16'hFFFF;
      crc_hi <= 8'd0;
      lo_ok <= 1'b0;
      cnt <= 11'd0;
      wi <= 9'd0;
      bi <= 2'd0;
      n <= 9'd0;
      op_read <= 1'b0;
      op_ping <= 1'b0;
      status <= ST_OK;
      skip_sel <= SK_ONE;
      flush <= 1'b0;
      tmo <= {TW{1'b0}};
      wdata <= 32'd0;
    end else begin
      if (in_valid && in_ready) wr <= wr + 1'b1;
      wr_d <= wr;
      rd <= rd_nx;
      if (resync) beg <= beg_plus;
      if (take && rd == hwm) hwm <= rd_inc;
      if (out_valid && out_ready) out_valid <= 1'b0;
      // One timer: for a partial frame waiting for bytes, or for a bus access.
      if ((decoding && !avail) || (bus_valid && !bus_ready)) tmo <= tmo + 1'b1;
      else tmo <= {TW{1'b0}};

      case (st)
        S_HUNT: begin
          // The rescan is over where the ring ends or where bytes never decoded begin: a frame
          // or command starting there is new (its bytes may still be arriving) and must wait.
          if (!avail || rd == hwm) flush <= 1'b0;
          if (take && rbyte == SYNC) begin
            st <= S_HDR;
            ub <= 1'b0;
            cnt <= 11'd1;
            crc <= crc16(16'hFFFF, SYNC);
          end else if (ub_start) begin
            st <= S_UHDR;
            ub <= 1'b1;
            h_type <= rbyte;                                  // bit 0: write
            h_flags[0] <= rbyte[2] || (rbyte[1] && rbyte[0]); // 3, 4: fixed address
            cnt <= 11'd1;
          end
        end

        // UARTBone: length, then the word address big-endian. The byte address (word << 2) is
        // assembled as the bytes come: each byte but the first fills a byte of h_addr with the
        // previous byte's low 6 bits (kept in h_seq) and its own top 2.
        S_UHDR: begin
          if (drop) begin
            st <= S_HUNT;
            flush <= 1'b1;
          end else if (take) begin
            cnt <= cnt + 1'b1;
            h_seq <= rbyte;
            case (cnt[2:0])
              3'd1: h_len <= {1'b0, rbyte};
              3'd3: h_addr[31:24] <= {h_seq[5:0], rbyte[7:6]};
              3'd4: h_addr[23:16] <= {h_seq[5:0], rbyte[7:6]};
              3'd5: begin
                h_addr[15:8] <= {h_seq[5:0], rbyte[7:6]};
                h_addr[7:0] <= {rbyte[5:0], 2'b00};
              end
              default: ;
            endcase
            if (cnt[2:0] == 3'd5) begin
              n <= n_req;
              wi <= 9'd0;
              cnt <= 11'd0;
              skip_sel <= SK_UB;
              // Writes execute only once all their data is in the ring, like frames. Length 0
              // does nothing (LiteX never sends it).
              st <= (h_len[7:0] == 8'd0) ? S_SKIP : h_type[0] ? S_BODY : S_EXEC;
            end
          end
        end

        S_HDR: begin
          if (drop) begin
            st <= S_HUNT;
            flush <= 1'b1;
          end else if (take) begin
            crc <= crc_nx;
            cnt <= cnt + 1'b1;
            case (cnt[3:0])
              4'd1: h_ver_ok <= (rbyte == VERSION);
              4'd2: h_type <= rbyte;
              4'd3: h_seq <= rbyte;
              4'd4: h_addr[7:0] <= rbyte;
              4'd5: h_addr[15:8] <= rbyte;
              4'd6: h_addr[23:16] <= rbyte;
              4'd7: h_addr[31:24] <= rbyte;
              4'd8: h_len[7:0] <= rbyte;
              4'd9: begin
                h_len[8] <= rbyte[0];
                h_len_big <= (rbyte[7:1] != 7'd0);
              end
              // 10: status; requests carry 0, and the software decoder does not check it
              4'd11: h_flags <= rbyte;
              4'd12: begin
                lo_ok <= (rbyte == crc[7:0]);
                crc_hi <= crc[15:8];
              end
              default: ;
            endcase
            if (hdr_last) begin
              cnt <= 11'd0;
              h_cnt <= 9'd0;
              h_cnt_big <= 1'b0;
              if (!hcrc_ok) begin
                st <= S_HUNT;            // a stray sync byte: rescan from the byte after it
              end else if (!h_ver_ok) begin
                status <= ST_BAD_VERSION;
                skip_sel <= SK_HDR;      // a foreign version's length means nothing
                st <= S_TXH;
                crc <= 16'hFFFF;
              end else if (len_bad) begin
                status <= ST_BAD_LENGTH;
                skip_sel <= SK_HDR;      // the payload is scanned as garbage
                st <= S_TXH;
                crc <= 16'hFFFF;
              end else begin
                st <= (h_len == 9'd0) ? S_FCRC : S_BODY;
              end
            end
          end
        end

        S_BODY: begin
          if (drop) begin
            st <= S_HUNT;
            flush <= 1'b1;
          end else if (take) begin
            crc <= crc_nx;
            cnt <= cnt + 1'b1;
            if (cnt[10:2] == 9'd0) begin
              case (cnt[1:0])
                2'd0: h_cnt[7:0] <= rbyte;
                2'd1: begin
                  h_cnt[8] <= rbyte[0];
                  h_cnt_big <= (rbyte[7:1] != 7'd0);
                end
                default: if (rbyte != 8'd0) h_cnt_big <= 1'b1;
              endcase
            end
            if (cnt + 1'b1 == plen) begin
              cnt <= 11'd0;
              st <= ub ? S_EXEC : S_FCRC;
            end
          end
        end

        S_FCRC: begin
          if (drop) begin
            st <= S_HUNT;
            flush <= 1'b1;
          end else if (take) begin
            cnt <= 11'd1;
            if (!cnt[0]) begin
              lo_ok <= (rbyte == crc[7:0]);
              n <= n_req;   // for S_EXEC, off its critical path
              wi <= 9'd0;   // the first word's bus_addr is ready in S_EXEC
            end else if (lo_ok && rbyte == crc[15:8]) begin
              skip_sel <= SK_FRAME;
              st <= S_EXEC;
            end else begin
              // Nothing is executed; the length may be what got corrupted, so the bytes
              // after the sync are rescanned once the reply is out.
              status <= ST_BAD_CRC;
              skip_sel <= SK_ONE;
              st <= S_TXH;
              cnt <= 11'd0;
              crc <= 16'hFFFF;
            end
          end
        end

        S_EXEC: begin
          // Checks in the order of execute_request() in sim/board_server.cpp.
          wi <= 9'd0;
          bi <= 2'd0;
          op_read <= 1'b0;
          op_ping <= 1'b0;
          status <= ST_OK;
          cnt <= 11'd0;
          crc <= 16'hFFFF;
          st <= S_TXH;
          if (ub) begin
            if (h_type[0]) st <= S_WFETCH;
            else begin
              op_read <= 1'b1;
              bus_valid <= 1'b1;
              bus_write <= 1'b0;
              st <= S_RBUS;
            end
          end else case (h_type)
            8'h01:  // PING
              if (h_len != 9'd0) status <= ST_BAD_LENGTH;
              else op_ping <= 1'b1;
            8'h02:  // READ
              if (h_len != 9'd0) status <= ST_BAD_LENGTH;
              else if (!aligned) status <= ST_BAD_ADDRESS;
              else begin
                op_read <= 1'b1;
                bus_valid <= 1'b1;
                bus_write <= 1'b0;
                st <= S_RBUS;
              end
            8'h03:  // WRITE
              if (h_len != 9'd1) status <= ST_BAD_LENGTH;
              else if (!aligned) status <= ST_BAD_ADDRESS;
              else st <= S_WFETCH;
            8'h04:  // BURST_WRITE
              if (h_len == 9'd0) status <= ST_BAD_LENGTH;
              else if (!aligned || wraps) status <= ST_BAD_ADDRESS;
              else st <= S_WFETCH;
            8'h05:  // BURST_READ
              if (h_len != 9'd1 || !cnt_ok) status <= ST_BAD_LENGTH;
              else if (!aligned || wraps) status <= ST_BAD_ADDRESS;
              else begin
                op_read <= 1'b1;
                bus_valid <= 1'b1;
                bus_write <= 1'b0;
                st <= S_RBUS;
              end
            default: status <= ST_UNKNOWN;   // also a reply type (bit 7) sent to the board
          endcase
        end

        S_WFETCH: begin
          case (bsel)                      // frames little-endian, UARTBone big-endian
            2'd0: wdata[7:0] <= rbyte;
            2'd1: wdata[15:8] <= rbyte;
            2'd2: wdata[23:16] <= rbyte;
            default: wdata[31:24] <= rbyte;
          endcase
          bi <= bi + 1'b1;
          if (bi == 2'd3) begin
            bus_valid <= 1'b1;
            bus_write <= 1'b1;
            st <= S_WBUS;
          end
        end

        S_WBUS, S_RBUS: begin
          // A frame stops at a failed access (the words before it stay done); a UARTBone
          // command has no way to say so and goes on, as LiteX's does (status marks the failure).
          if (bus_done || (bus_valid && tmo_bus)) begin
            bus_valid <= 1'b0;
            wi <= wi_next;
            if (!bus_done) status <= ST_INTERNAL;
            else if (bus_err) status <= ST_BAD_ADDRESS;
            if ((!bus_done || bus_err) && !ub) st <= S_TXH;
            else if (wi_next == n) st <= S_TXH;
            else if (st == S_WBUS) st <= S_WFETCH;
            // else: the next read, after one idle cycle (below)
          end else if (!bus_valid) begin
            bus_valid <= 1'b1;              // the read after the idle cycle
          end
        end

        S_TXH: begin
          if (ub) begin   // no header: the read data alone, or nothing for a write
            wi <= 9'd0;
            bi <= 2'd0;
            st <= (rlen != 9'd0) ? S_TXF : S_SKIP;
          end else if (tx_take) begin
            out_valid <= 1'b1;
            out_data <= hbyte;
            crc <= crc_nx;
            cnt <= cnt + 1'b1;
            if (cnt[3:0] == 4'd12) crc_hi <= crc[15:8];
            if (cnt[3:0] == 4'd13) begin
              wi <= 9'd0;
              bi <= 2'd0;
              cnt <= 11'd0;
              st <= (rlen != 9'd0) ? S_TXF : S_TXC;
            end
          end
        end

        S_TXF: st <= S_TXP;   // rbq <= rbuf[wi] this cycle

        S_TXP: begin
          if (tx_take) begin
            out_valid <= 1'b1;
            out_data <= pbyte;
            crc <= crc_nx;
            bi <= bi + 1'b1;
            if (bi == 2'd3) begin
              wi <= wi_next;
              st <= (wi_next == rlen) ? (ub ? S_SKIP : S_TXC) : S_TXF;
            end
          end
        end

        S_TXC: begin
          if (tx_take) begin
            out_valid <= 1'b1;
            out_data <= cnt[0] ? crc[15:8] : crc[7:0];
            cnt <= 11'd1;
            if (cnt[0]) st <= S_SKIP;
          end
        end

        default: st <= S_HUNT;   // S_SKIP: resync moved beg and rd
      endcase
    end
  end
endmodule
