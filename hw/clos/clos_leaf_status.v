// The leaf status of one CONNECT hnode (Li and Rishe 1991, "Status of each of the data
// processors"): per leaf a busy bit with the request holding it, and a WaitingQueue of the
// requests (with what each waits to do) that found the leaf busy. One operation per clock with
// op_valid high, on the leaf pre_leaf named at the clock before (the status is read a cycle
// ahead: at every clock, pre_leaf's busy bit, whether pre_req holds it, its queue pointers and its
// WaitingQueue's first request are read into registers, and an operation decides on those). So an
// operation needs pre_leaf and pre_req set to its leaf and request at the clock before it and no
// operation at that clock. Decisions are
// combinational from those registers:
//   TAKE     (a CSR of an up-going request at h_o, a CR at h_d, an ACK of a non-up-going request
//            at h_o): if the leaf is held by another request, res_wait = 1 and {op_req, op_kind}
//            joins the end of its WaitingQueue; otherwise the leaf is busy, held by op_req
//   RELEASE  (ODCR at h_o, DDCR at h_d, a blocked selection): the first request of the
//            WaitingQueue takes the leaf (res_resume = 1, res_req, res_kind), or the leaf is idle
// res_full: the WaitingQueue of the leaf holds Q requests (a TAKE that must wait then is lost:
// the harness checks it never happens). The WaitingQueues are one memory read at one address a
// clock (a block RAM on the iCE40).
`default_nettype none
module clos_leaf_status #(
  parameter integer L = 4,    // leaves of this hnode
  parameter integer LW = 2,   // bits of a leaf number
  parameter integer IDW = 16, // bits of a request number
  parameter integer QW = 4    // WaitingQueue depth Q = 2^QW per leaf
) (
  input  wire clk,
  input  wire rst,
  input  wire [LW-1:0] pre_leaf,  // the leaf of the next operation (read at this clock)
  input  wire [IDW-1:0] pre_req,  // and its request
  input  wire op_valid,
  input  wire op_release,     // 0 TAKE, 1 RELEASE
  input  wire [IDW-1:0] op_req,
  input  wire [1:0] op_kind,  // what the request does when it gets the leaf (kept, returned on resume)
  output wire res_wait,
  output wire res_resume,
  output wire [IDW-1:0] res_req,
  output wire [1:0] res_kind,
  output wire res_full
);
  localparam integer Q = 1 << QW;
  reg busy [0:L-1];
  reg [IDW-1:0] holder [0:L-1];
  reg [QW-1:0] head [0:L-1];
  reg [QW-1:0] tl [0:L-1];   // head + count, kept (no adder before the queue's write address)
  reg [QW:0] count [0:L-1];
  reg [IDW+1:0] queue [0:(1<<LW)*Q-1];  // leaf l's WaitingQueue at {l, position}

  // pre_leaf's status, read at the clock before the operation.
  reg [LW-1:0] r_leaf;
  reg r_busy, r_mine;              // busy; held by pre_req
  reg [QW-1:0] r_head, r_tail;
  reg [QW:0] r_count;
  reg [IDW+1:0] r_first;
  wire r_empty = r_count == {(QW+1){1'b0}};
  assign res_full = r_count[QW];
  assign res_wait = !op_release && r_busy && !r_mine;
  assign res_resume = op_release && !r_empty;
  assign res_req = r_first[IDW+1:2];
  assign res_kind = r_first[1:0];

  always @(posedge clk) begin
    r_leaf <= pre_leaf;
    r_busy <= busy[pre_leaf];
    r_mine <= holder[pre_leaf] == pre_req;
    r_head <= head[pre_leaf];
    r_tail <= tl[pre_leaf];
    r_count <= count[pre_leaf];
    r_first <= queue[{pre_leaf, head[pre_leaf]}];
  end
  always @(posedge clk)
    if (op_valid && !op_release && res_wait && !res_full) queue[{r_leaf, r_tail}] <= {op_req, op_kind};

  integer j;
  always @(posedge clk) begin
    if (rst) begin
      for (j = 0; j < L; j = j + 1) begin
        busy[j] <= 1'b0;
        holder[j] <= {IDW{1'b0}};
        head[j] <= {QW{1'b0}};
        tl[j] <= {QW{1'b0}};
        count[j] <= {(QW+1){1'b0}};
      end
    end else if (op_valid) begin
      if (!op_release) begin
        if (res_wait) begin
          if (!res_full) begin
            tl[r_leaf] <= r_tail + 1'b1;
            count[r_leaf] <= r_count + 1'b1;
          end
        end else begin
          busy[r_leaf] <= 1'b1;
          holder[r_leaf] <= op_req;
        end
      end else if (r_empty) begin
        busy[r_leaf] <= 1'b0;
      end else begin
        holder[r_leaf] <= res_req;
        head[r_leaf] <= r_head + 1'b1;
        count[r_leaf] <= r_count - 1'b1;
      end
    end
  end
endmodule
`default_nettype wire
