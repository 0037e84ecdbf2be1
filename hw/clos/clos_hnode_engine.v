// The message engine of one CONNECT hnode (Li and Rishe 1991, "The circuit control algorithm",
// steps 1-10, "Deadlock and its elimination", "Race conditions", "When a connection is
// blocked"): it takes one message at a time from its input queue (messages from the control
// hypercube first, then its leaves' CSR and ODCR), runs the paper's step for it on the switch
// status (clos_hnode: InputVectors, OutputVectors, RelayTables, the ORed free-switch search)
// and the leaf status (clos_leaf_status: busy bit, WaitingQueue), and sends the messages the
// step produces, one per cycle, into the hypercube (or READY to its leaf).
//
// A message (LSB first): iv[M] | blocked | ms[KW] | dest[NW] | orig[NW] | type[4] | to[D].
// Leaves are global numbers (switch * NP + port); switch s belongs to hnode s mod 2^D, middle
// switch k to hnode k mod 2^D. A request is named by its originating leaf (a leaf has one request
// of its own at a time). Per request the engine keeps, where the paper's steps need it: at h_o
// the destination and middle switch of each of its leaves' requests; at h_d the InputVector the
// CR brought, the middle switches CANCELed for it and its CANCEL count.
// Steps (as the set-up model sim/clos/clos_setup_model.cpp does them):
//   CSR    (h_o) an up-going request (orig < dest) takes orig or waits; then CR with InputVector
//   CR     (h_d) take dest or wait; SELECT: CO to h_m, or (none free) RESEND "blocked" to h_o
//                and release dest
//   CO     (h_m) RelayTable free: ACK to h_o, else CANCEL to h_d
//   CANCEL (h_d) OutputVector bit cleared, switch marked tried; more than CANCEL_LIMIT: RESEND,
//                else SELECT again
//   RESEND (h_o) CR again with the current InputVector; "blocked": the CSR again to itself and
//                orig released if the request holds it (up-going)
//   ACK    (h_o) InputVector bit set; take orig or wait (non-up-going); READY
//          (SELECT_PAIR: the search starts at (input switch + output switch) mod M, a Latin
//          square, instead of at h_d's own first middle switch START)
//   ODCR   (h_o) InputVector bit cleared, IDCR to h_m, orig released
//   IDCR   (h_m) RelayTable freed, DDCR to h_d
//   DDCR   (h_d) OutputVector bit cleared, dest released
// A release hands the leaf to the first request of its WaitingQueue, which then continues
// (CR from h_o, SELECT at h_d, or READY). With RESEND_AFTER_WAIT, a CR that waited at h_d is
// answered with RESEND (not "blocked") instead of its SELECT: its InputVector is as old as its
// wait; h_o sends the CR again with its current InputVector, h_d keeps the destination leaf.
// The hardware signals to the switches (the configuration port of clos_network, addressed as
// ClosParams::cfg_* says): h_d sets the output switch's port to ms when it selects and clears it
// on CANCEL and DDCR; h_m sets the middle switch on an accepted CO and clears it on IDCR; h_o
// sets the input switch when it sends READY and clears it on ODCR. A step's write waits for
// cfg_take before the engine goes on (one write per step).
`default_nettype none
module clos_hnode_engine #(
  parameter integer ID = 0,
  parameter integer D = 1,          // hypercube dimensions
  parameter integer M = 3,          // middle switches
  parameter integer R = 4,          // input/output switches
  parameter integer NP = 2,         // ports per switch (n)
  parameter integer KW = 2, RW = 2, NW = 3,  // bits of a middle switch, a switch, a leaf number
  parameter integer RL = 2, KL = 2, SW = 1, LW = 1,  // local switch pairs / middle switches and their bits
  parameter integer LLW = 2,        // bits of a local leaf number
  parameter integer QW = 3,         // WaitingQueue depth 2^QW per leaf
  parameter integer FW = 4,         // input queue depth 2^FW
  parameter integer CANCEL_LIMIT = 3,
  parameter integer START = 0,      // the first middle switch of the search (h_d's own)
  parameter integer SELECT_PAIR = 0, // 1: the search starts at (input switch + output switch) mod M
  parameter integer RESEND_AFTER_WAIT = 0,  // 1: a CR that waited for its destination gets RESEND
  parameter integer CAW = 4,        // configuration address bits
  parameter integer CSW = 2,        // configuration select bits
  parameter integer MW = M + 5 + KW + 2 * NW + D
) (
  input  wire clk,
  input  wire rst,
  input  wire net_valid,            // a message delivered by the hypercube (first)
  input  wire [MW-1:0] net_msg,
  output wire net_take,
  input  wire leaf_valid,           // CSR or ODCR from a leaf of this hnode
  input  wire [MW-1:0] leaf_msg,
  output wire leaf_take,
  output wire out_valid,            // into the hypercube
  output wire [MW-1:0] out_msg,
  input  wire out_ready,
  output wire ready_valid,          // READY to leaf ready_orig
  output wire [NW-1:0] ready_orig,
  output wire handled_valid,        // the message the engine starts handling (trace)
  output wire [MW-1:0] handled_msg,
  output reg  overflow,             // a WaitingQueue was full (a request lost): must never happen
  output reg  cfg_valid,            // a write to the switches' configuration port
  output reg  [CAW-1:0] cfg_addr,
  output reg  [CSW:0] cfg_data,     // {valid, select}
  input  wire cfg_take,
  output wire busy                  // a message queued or being handled
);
  localparam [3:0] T_CSR = 4'd0, T_CR = 4'd1, T_CO = 4'd2, T_ACK = 4'd3, T_READY = 4'd4, T_ODCR = 4'd5,
                   T_IDCR = 4'd6, T_DDCR = 4'd7, T_CANCEL = 4'd8, T_RESEND = 4'd9;
  localparam integer H = 1 << D;
  localparam integer N = NP * R;
  localparam integer L = NP * RL;
  localparam integer CW = 4;
  localparam [CW-1:0] LIMIT = CANCEL_LIMIT[CW-1:0];
  localparam [D-1:0] SELF = ID[D-1:0];
  localparam [KW-1:0] START_MS = START[KW-1:0];

  // ---- input queue: the hypercube's deliveries first, the leaves' messages when it has none
  localparam integer Q = 1 << FW;
  reg [MW-1:0] fifo [0:Q-1];
  reg [FW-1:0] f_head, f_tail;
  reg [FW:0] f_count;
  wire f_full = f_count[FW];
  wire f_empty = f_count == {(FW+1){1'b0}};
  assign net_take = net_valid && !f_full;
  assign leaf_take = leaf_valid && !net_valid && !f_full;
  wire f_push = net_take || leaf_take;
  wire [MW-1:0] f_in = net_valid ? net_msg : leaf_msg;

  // ---- fields and the paper's numbering (32-bit arithmetic, the low bits kept)
  /* verilator lint_off UNUSEDSIGNAL */
  function [RW-1:0] sw_of(input [NW-1:0] x);
    integer t;
    begin
      t = {{(32-NW){1'b0}}, x} / NP;
      sw_of = t[RW-1:0];
    end
  endfunction
  function [D-1:0] hnode_of_leaf(input [NW-1:0] x);
    reg [RW-1:0] s;
    begin
      s = sw_of(x);
      hnode_of_leaf = s[D-1:0];
    end
  endfunction
  function [SW-1:0] local_sw(input [NW-1:0] x);
    reg [RW-1:0] s;
    begin
      s = sw_of(x) >> D;
      local_sw = s[SW-1:0];
    end
  endfunction
  function [LLW-1:0] local_leaf(input [NW-1:0] x);
    integer t;
    begin
      t = ({{(32-RW){1'b0}}, sw_of(x)} >> D) * NP + {{(32-NW){1'b0}}, x} % NP;
      local_leaf = t[LLW-1:0];
    end
  endfunction
  function [D-1:0] hnode_of_ms(input [KW-1:0] k);
    integer t;
    begin
      t = {{(32-KW){1'b0}}, k} % H;
      hnode_of_ms = t[D-1:0];
    end
  endfunction
  function [CAW-1:0] in_addr(input [NW-1:0] o, input [KW-1:0] k);  // input switch of o, output k
    integer t;
    begin
      t = {{(32-RW){1'b0}}, sw_of(o)} * M + {{(32-KW){1'b0}}, k};
      in_addr = t[CAW-1:0];
    end
  endfunction
  function [CAW-1:0] mid_addr(input [KW-1:0] k, input [RW-1:0] o);  // middle switch k, output o
    integer t;
    begin
      t = R * M + {{(32-KW){1'b0}}, k} * R + {{(32-RW){1'b0}}, o};
      mid_addr = t[CAW-1:0];
    end
  endfunction
  function [CAW-1:0] out_addr(input [NW-1:0] d);  // the output switch port of leaf d
    integer t;
    begin
      t = 2 * R * M + {{(32-NW){1'b0}}, d};
      out_addr = t[CAW-1:0];
    end
  endfunction
  function [KW-1:0] pair_start(input [RW-1:0] a, input [RW-1:0] b);  // (a + b) mod M
    integer t;
    begin
      t = ({{(32-RW){1'b0}}, a} + {{(32-RW){1'b0}}, b}) % M;
      pair_start = t[KW-1:0];
    end
  endfunction
  function [N-1:0] onehot(input [NW-1:0] x);
    onehot = {{(N-1){1'b0}}, 1'b1} << x;
  endfunction
  function [CSW:0] sel(input [31:0] x);
    sel = {1'b1, x[CSW-1:0]};
  endfunction
  function [CSW-1:0] port_of(input [NW-1:0] x);
    integer t;
    begin
      t = {{(32-NW){1'b0}}, x} % NP;
      port_of = t[CSW-1:0];
    end
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */
  function [MW-1:0] pack(input [D-1:0] to, input [3:0] ty, input [NW-1:0] o, input [NW-1:0] d, input [KW-1:0] k,
                         input bl, input [M-1:0] v);
    pack = {to, ty, o, d, k, bl, v};
  endfunction
  // ---- per-request state
  reg [NW-1:0] own_dest [0:L-1];    // h_o: the destination of each local leaf's request
  reg [KW-1:0] own_ms [0:L-1];      // h_o: its middle switch (ACK)
  reg [M-1:0] cr_iv [0:N-1];        // h_d: the InputVector of the request's CR
  reg [M-1:0] tried [0:N-1];        // h_d: middle switches CANCELed for it
  reg [CW-1:0] cancels [0:N-1];     // h_d: its CANCEL count

  // ---- the message being handled
  reg [3:0] c_type;
  reg [NW-1:0] c_orig, c_dest;
  reg [KW-1:0] c_ms;
  reg c_blocked;
  reg [M-1:0] c_iv;
  reg [NW-1:0] rel_leaf;            // the leaf being released (S_RELEASE)
  reg [LLW-1:0] lo_r;               // the local number of c_orig, set when it is
  // The local number of the leaf the message's leaf-status operations are on, set when the message
  // is taken (its leaf status is read a cycle ahead): c_dest's at h_d (CR, CANCEL, DDCR: TAKE and
  // the releases of a blocked selection and of DDCR), else c_orig's (CSR, ACK, RESEND, ODCR). A
  // release that resumes a request keeps it: the request's next operation (a blocked selection's
  // release) is on the same leaf. So it is also the leaf S_RELEASE releases.
  reg [LLW-1:0] ls_leaf_r;
  // c_orig one-hot, set with it: the write enables of h_d's per-request tables. Their writes (a
  // CR's DISPATCH, a CANCEL) are in steps never entered with a configuration write pending, so
  // they need not wait for it.
  reg [N-1:0] orig_oh;
  reg [1:0] r_kind;                 // what the request the release hands the leaf to does (S_RESUME)
  // The tables' entries the next step uses, read a cycle ahead (at every clock, at the indices
  // of that clock): h_d's InputVector, tried switches and CANCEL count of c_orig's request, h_o's
  // destination and middle switch of ls_leaf_r's request, whether the middle switch c_ms has
  // the s-links of c_orig and c_dest free. No step writes what the next step reads of them but
  // CANCEL (its tried switch, added to pre_tried beside the table) and the release, which names
  // the resumed request in c_orig before S_RESUME.
  reg [M-1:0] pre_iv, pre_tried;
  reg [CW-1:0] pre_cnt;
  reg [NW-1:0] pre_dest;
  reg [KW-1:0] pre_ms;
  reg pre_acc;

  localparam [4:0] S_IDLE = 5'd0, S_DISPATCH = 5'd1, S_TAKE_O = 5'd2, S_SEND_CR = 5'd3, S_TAKE_D = 5'd4,
                   S_SELECT = 5'd5, S_CO = 5'd6, S_CANCEL = 5'd7, S_ACK = 5'd8, S_TAKE_ACK = 5'd9,
                   S_ODCR = 5'd10, S_IDCR = 5'd11, S_DDCR = 5'd12, S_RELEASE = 5'd13, S_EMIT = 5'd14,
                   S_RESEND_B = 5'd15, S_RESUME = 5'd16;
  // One-hot (yosys would keep the binary code): a state is one flip-flop on every step's path.
  (* fsm_encoding = "one-hot" *) reg [4:0] state;
  reg [MW-1:0] e_msg;
  reg e_ready_msg;                  // the message to send is a READY to a leaf
  reg e_release;                    // after the emission: release rel_leaf (else the next message)

  // The engine waits while its configuration write is not taken.
  wire go = !cfg_valid;

  // ---- the switch status and the leaf status
  wire [KW-1:0] sel_start;          // where the search for a free middle switch starts
  reg hs_valid;
  reg [2:0] hs_code;
  reg [SW-1:0] hs_sw;
  reg [LW-1:0] hs_k;
  reg [KW-1:0] hs_ms;
  reg [RW-1:0] hs_in, hs_out;
  reg [M-1:0] hs_iv, hs_tried;
  wire hs_found, hs_accept;
  wire [KW-1:0] hs_res_ms;
  wire [M-1:0] hs_res_iv;
  clos_hnode #(.M(M), .R(R), .RL(RL), .KL(KL), .KW(KW), .RW(RW), .SW(SW), .LW(LW)) status (
    .clk(clk), .rst(rst), .op_valid(hs_valid && go), .op_code(hs_code), .op_sw(hs_sw), .op_k(hs_k), .op_ms(hs_ms),
    .op_in_sw(hs_in), .op_out_sw(hs_out), .op_start(sel_start), .op_iv(hs_iv), .op_tried(hs_tried), .op_accept(pre_acc),
    .res_found(hs_found), .res_ms(hs_res_ms), .res_accept(hs_accept), .res_iv(hs_res_iv));

  reg ls_valid, ls_release;
  reg [NW-1:0] ls_req;
  reg [1:0] ls_kind;
  wire ls_wait, ls_resume, ls_full;
  wire [NW-1:0] ls_res_req;
  wire [1:0] ls_res_kind;
  clos_leaf_status #(.L(L), .LW(LLW), .IDW(NW), .QW(QW)) leaves (
    .clk(clk), .rst(rst), .pre_leaf(ls_leaf_r), .pre_req(c_orig), .op_valid(ls_valid && go), .op_release(ls_release), .op_req(ls_req),
    .op_kind(ls_kind), .res_wait(ls_wait), .res_resume(ls_resume), .res_req(ls_res_req), .res_kind(ls_res_kind),
    .res_full(ls_full));

  wire [RW-1:0] sw_o = sw_of(c_orig), sw_d = sw_of(c_dest);
  wire [D-1:0] h_o = hnode_of_leaf(c_orig), h_d = hnode_of_leaf(c_dest);
  /* verilator lint_off UNUSEDSIGNAL */
  wire [KW-1:0] k_local_full = c_ms >> D;  // the local middle switch: its low LW bits
  wire [MW-1:0] head = fifo[f_head];        // its destination bits are this hnode
  /* verilator lint_on UNUSEDSIGNAL */
  assign sel_start = SELECT_PAIR != 0 ? pair_start(sw_o, sw_d) : START_MS;
  wire [LLW-1:0] lo = lo_r, lr = ls_leaf_r;
  wire [NW-1:0] head_orig = head[M + 1 + KW + NW +: NW], head_dest = head[M + 1 + KW +: NW];
  wire [3:0] head_type = head[M + 1 + KW + 2 * NW +: 4];
  wire head_at_d = head_type == T_CR || head_type == T_CANCEL || head_type == T_DDCR;
  wire [CW-1:0] cancels_next = pre_cnt + 1'b1;
  // cancels_next > LIMIT, compared without the adder (the count wraps at 2^CW as cancels_next does)
  wire cancel_over = pre_cnt >= LIMIT && pre_cnt != {CW{1'b1}};

  // The operations of the current state (the switch status decides in the same cycle, the leaf
  // status on what it read a cycle ahead).
  always @* begin
    hs_valid = 1'b0;
    hs_code = 3'd0;
    hs_sw = {SW{1'b0}};
    hs_k = k_local_full[LW-1:0];
    hs_ms = c_ms;
    hs_in = sw_o;
    hs_out = sw_d;
    hs_iv = pre_iv;
    hs_tried = pre_tried;
    ls_valid = 1'b0;
    ls_release = 1'b0;
    ls_req = c_orig;
    ls_kind = 2'd0;
    case (state)
      S_TAKE_O: begin ls_valid = 1'b1; ls_kind = 2'd0; end
      S_SEND_CR: begin hs_valid = 1'b1; hs_code = 3'd6; hs_sw = local_sw(c_orig); end
      S_TAKE_D: begin ls_valid = 1'b1; ls_kind = 2'd1; end
      S_SELECT: begin hs_valid = 1'b1; hs_code = 3'd0; hs_sw = local_sw(c_dest); end
      S_CO: begin hs_valid = 1'b1; hs_code = 3'd1; end
      S_CANCEL: begin hs_valid = 1'b1; hs_code = 3'd5; hs_sw = local_sw(c_dest); end
      S_ACK: begin hs_valid = 1'b1; hs_code = 3'd2; hs_sw = local_sw(c_orig); end
      S_TAKE_ACK: begin ls_valid = 1'b1; ls_kind = 2'd2; end
      S_ODCR: begin hs_valid = 1'b1; hs_code = 3'd3; hs_sw = local_sw(c_orig); hs_ms = pre_ms; end
      S_IDCR: begin hs_valid = 1'b1; hs_code = 3'd4; end
      S_DDCR: begin hs_valid = 1'b1; hs_code = 3'd5; hs_sw = local_sw(c_dest); end
      S_RELEASE: begin ls_valid = 1'b1; ls_release = 1'b1; end
      default: ;
    endcase
  end

  assign out_valid = go && state == S_EMIT && !e_ready_msg;
  assign out_msg = e_msg;
  assign ready_valid = go && state == S_EMIT && e_ready_msg;
  assign ready_orig = e_msg[M + 1 + KW + NW +: NW];
  assign handled_valid = go && state == S_IDLE && !f_empty;
  assign busy = !f_empty || state != S_IDLE || cfg_valid;
  assign handled_msg = fifo[f_head];
  wire emitted = go && state == S_EMIT && (e_ready_msg || out_ready);

  integer j;
  always @(posedge clk) begin
    if (rst) begin
      f_head <= {FW{1'b0}};
      f_tail <= {FW{1'b0}};
      f_count <= {(FW+1){1'b0}};
      state <= S_IDLE;
      overflow <= 1'b0;
      cfg_valid <= 1'b0;
      cfg_addr <= {CAW{1'b0}};
      cfg_data <= {(CSW+1){1'b0}};
      e_msg <= {MW{1'b0}};
      e_ready_msg <= 1'b0;
      e_release <= 1'b0;
      c_type <= 4'd0;
      c_orig <= {NW{1'b0}};
      c_dest <= {NW{1'b0}};
      c_ms <= {KW{1'b0}};
      c_blocked <= 1'b0;
      c_iv <= {M{1'b0}};
      rel_leaf <= {NW{1'b0}};
      ls_leaf_r <= {LLW{1'b0}};
      lo_r <= {LLW{1'b0}};
      r_kind <= 2'd0;
      orig_oh <= {N{1'b0}};
      for (j = 0; j < N; j = j + 1) begin
        cr_iv[j] <= {M{1'b0}};
        tried[j] <= {M{1'b0}};
        cancels[j] <= {CW{1'b0}};
      end
      for (j = 0; j < L; j = j + 1) begin
        own_dest[j] <= {NW{1'b0}};
        own_ms[j] <= {KW{1'b0}};
      end
    end else begin
      if (f_push) begin
        fifo[f_tail] <= f_in;
        f_tail <= f_tail + 1'b1;
      end
      f_count <= f_count + {{FW{1'b0}}, f_push} - {{FW{1'b0}}, handled_valid};
      if (ls_valid && go && !ls_release && ls_wait && ls_full) overflow <= 1'b1;
      if (cfg_take) cfg_valid <= 1'b0;
      pre_iv <= cr_iv[c_orig];
      pre_tried <= tried[c_orig];
      pre_cnt <= cancels[c_orig];
      pre_dest <= own_dest[lr];
      pre_ms <= own_ms[lr];
      pre_acc <= hs_accept;
      // h_o's table, likewise off the wait (a CSR's DISPATCH, S_ACK start with no write pending).
      if (state == S_DISPATCH && c_type == T_CSR) own_dest[lo] <= c_dest;
      if (state == S_ACK) own_ms[lo] <= c_ms;
      for (j = 0; j < N; j = j + 1)
        if (orig_oh[j]) begin
          if (state == S_DISPATCH && c_type == T_CR) begin
            cr_iv[j] <= c_iv;
            tried[j] <= {M{1'b0}};
            cancels[j] <= {CW{1'b0}};
          end
          if (state == S_CANCEL) begin
            tried[j][c_ms] <= 1'b1;
            cancels[j] <= cancels_next;
          end
        end
      if (go) case (state)
        S_IDLE: if (!f_empty) begin
          f_head <= f_head + 1'b1;
          {c_type, c_orig, c_dest, c_ms, c_blocked, c_iv} <= head[MW-D-1:0];
          lo_r <= local_leaf(head_orig);
          orig_oh <= onehot(head_orig);
          ls_leaf_r <= head_at_d ? local_leaf(head_dest) : local_leaf(head_orig);
          state <= S_DISPATCH;
        end
        S_DISPATCH: begin
          case (c_type)
            T_CSR: begin
              state <= c_orig < c_dest ? S_TAKE_O : S_SEND_CR;
            end
            T_CR: begin
              state <= S_TAKE_D;
            end
            T_CO: state <= S_CO;
            T_CANCEL: state <= S_CANCEL;
            T_RESEND: state <= c_blocked ? S_RESEND_B : S_SEND_CR;
            T_ACK: state <= S_ACK;
            T_ODCR: state <= S_ODCR;
            T_IDCR: state <= S_IDCR;
            T_DDCR: state <= S_DDCR;
            default: state <= S_IDLE;  // READY is a leaf's message: never sent to an hnode
          endcase
        end
        S_TAKE_O: state <= ls_wait ? S_IDLE : S_SEND_CR;
        S_SEND_CR: begin
          e_msg <= pack(h_d, T_CR, c_orig, c_dest, {KW{1'b0}}, 1'b0, hs_res_iv);
          e_ready_msg <= 1'b0;
          e_release <= 1'b0;
          state <= S_EMIT;
        end
        S_TAKE_D: state <= ls_wait ? S_IDLE : S_SELECT;
        S_SELECT: begin
          e_ready_msg <= 1'b0;
          // The write's address and data and the released leaf are set whatever the search finds
          // (they count only with cfg_valid, e_release): the search is not their enable.
          cfg_addr <= out_addr(c_dest);  // the output switch: dest's port from middle switch ms
          cfg_data <= sel({{(32-KW){1'b0}}, hs_res_ms});
          rel_leaf <= c_dest;
          if (hs_found) begin
            e_msg <= pack(hnode_of_ms(hs_res_ms), T_CO, c_orig, c_dest, hs_res_ms, 1'b0, {M{1'b0}});
            e_release <= 1'b0;
            cfg_valid <= 1'b1;
          end else begin
            // Blocked: RESEND "blocked" to h_o, then the destination leaf is released.
            e_msg <= pack(h_o, T_RESEND, c_orig, c_dest, {KW{1'b0}}, 1'b1, {M{1'b0}});
            e_release <= 1'b1;
          end
          state <= S_EMIT;
        end
        S_CO: begin
          cfg_valid <= pre_acc;  // the middle switch: output to dest's switch from orig's
          cfg_addr <= mid_addr(c_ms, sw_d);
          cfg_data <= sel({{(32-RW){1'b0}}, sw_o});
          e_msg <= pre_acc ? pack(h_o, T_ACK, c_orig, c_dest, c_ms, 1'b0, {M{1'b0}})
                             : pack(h_d, T_CANCEL, c_orig, c_dest, c_ms, 1'b0, {M{1'b0}});
          e_ready_msg <= 1'b0;
          e_release <= 1'b0;
          state <= S_EMIT;
        end
        S_CANCEL: begin
          cfg_valid <= 1'b1;
          cfg_addr <= out_addr(c_dest);
          cfg_data <= {(CSW+1){1'b0}};
          pre_tried[c_ms] <= 1'b1;
          if (cancel_over) begin
            e_msg <= pack(h_o, T_RESEND, c_orig, c_dest, {KW{1'b0}}, 1'b0, {M{1'b0}});
            e_ready_msg <= 1'b0;
            e_release <= 1'b0;
            state <= S_EMIT;
          end else begin
            state <= S_SELECT;
          end
        end
        S_RESEND_B: begin
          // The timed re-try: the CSR again, to this hnode; an up-going request frees orig.
          e_msg <= pack(SELF, T_CSR, c_orig, c_dest, {KW{1'b0}}, 1'b0, {M{1'b0}});
          e_ready_msg <= 1'b0;
          e_release <= c_orig < c_dest;
          rel_leaf <= c_orig;
          state <= S_EMIT;
        end
        S_ACK: begin
          state <= S_TAKE_ACK;
        end
        S_TAKE_ACK: begin
          cfg_addr <= in_addr(c_orig, c_ms);  // the input switch: output ms from orig's port
          cfg_data <= sel({{(32-CSW){1'b0}}, port_of(c_orig)});
          if (ls_wait) begin
            state <= S_IDLE;
          end else begin
            e_msg <= pack(SELF, T_READY, c_orig, c_dest, c_ms, 1'b0, {M{1'b0}});
            cfg_valid <= 1'b1;
            e_ready_msg <= 1'b1;
            e_release <= 1'b0;
            state <= S_EMIT;
          end
        end
        S_ODCR: begin
          cfg_valid <= 1'b1;
          cfg_addr <= in_addr(c_orig, pre_ms);
          cfg_data <= {(CSW+1){1'b0}};
          e_msg <= pack(hnode_of_ms(pre_ms), T_IDCR, c_orig, pre_dest, pre_ms, 1'b0, {M{1'b0}});
          e_ready_msg <= 1'b0;
          e_release <= 1'b1;
          rel_leaf <= c_orig;
          state <= S_EMIT;
        end
        S_IDCR: begin
          cfg_valid <= 1'b1;
          cfg_addr <= mid_addr(c_ms, sw_d);
          cfg_data <= {(CSW+1){1'b0}};
          e_msg <= pack(h_d, T_DDCR, c_orig, c_dest, c_ms, 1'b0, {M{1'b0}});
          e_ready_msg <= 1'b0;
          e_release <= 1'b0;
          state <= S_EMIT;
        end
        S_DDCR: begin
          cfg_valid <= 1'b1;
          cfg_addr <= out_addr(c_dest);
          cfg_data <= {(CSW+1){1'b0}};
          rel_leaf <= c_dest;
          state <= S_RELEASE;
        end
        S_EMIT: if (emitted) state <= e_release ? S_RELEASE : S_IDLE;
        S_RELEASE: begin
          // The leaf goes to the first waiting request, which continues where it waited (the
          // next cycle: the WaitingQueue's read is a path of its own).
          c_orig <= ls_res_req;
          lo_r <= local_leaf(ls_res_req);
          orig_oh <= onehot(ls_res_req);
          r_kind <= ls_res_kind;
          state <= ls_resume ? S_RESUME : S_IDLE;
        end
        S_RESUME: begin
          // c_orig is the resumed request (S_RELEASE). Its CR and its READY: the released leaf is
          // its originator, so pre_dest and pre_ms are its own.
          case (r_kind)
            2'd0: begin  // its CR, from h_o
              c_dest <= pre_dest;
              state <= S_SEND_CR;
            end
            2'd1: begin  // its selection at h_d: the released leaf is its destination
              c_dest <= rel_leaf;
              if (RESEND_AFTER_WAIT != 0) begin
                // Its InputVector aged in the queue: RESEND to h_o for a current one.
                e_msg <= pack(h_o, T_RESEND, c_orig, rel_leaf, {KW{1'b0}}, 1'b0, {M{1'b0}});
                e_ready_msg <= 1'b0;
                e_release <= 1'b0;
                state <= S_EMIT;
              end else begin
                state <= S_SELECT;
              end
            end
            default: begin  // READY: the released leaf is its originator
              e_msg <= pack(SELF, T_READY, c_orig, pre_dest, pre_ms, 1'b0, {M{1'b0}});
              cfg_valid <= 1'b1;
              cfg_addr <= in_addr(c_orig, pre_ms);
              cfg_data <= sel({{(32-CSW){1'b0}}, port_of(c_orig)});
              e_ready_msg <= 1'b1;
              e_release <= 1'b0;
              state <= S_EMIT;
            end
          endcase
        end
        default: state <= S_IDLE;
      endcase
    end
  end
endmodule
`default_nettype wire
