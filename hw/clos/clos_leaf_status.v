// The leaf status of one CONNECT hnode (Li and Rishe 1991, "Status of each of the data
// processors"): per leaf a busy bit with the request holding it, and a WaitingQueue of the
// requests (with what each waits to do) that found the leaf busy. One operation per clock with
// op_valid high; decisions are combinational from the state before the clock:
//   TAKE     (a CSR of an up-going request at h_o, a CR at h_d, an ACK of a non-up-going request
//            at h_o): if the leaf is held by another request, res_wait = 1 and {op_req, op_kind}
//            joins the end of its WaitingQueue; otherwise the leaf is busy, held by op_req
//   RELEASE  (ODCR at h_o, DDCR at h_d, a blocked selection): the first request of the
//            WaitingQueue takes the leaf (res_resume = 1, res_req, res_kind), or the leaf is idle
// res_full: the WaitingQueue of op_leaf holds Q requests (a TAKE that must wait then is lost:
// the harness checks it never happens).
`default_nettype none
module clos_leaf_status #(
  parameter integer L = 4,    // leaves of this hnode
  parameter integer LW = 2,   // bits of a leaf number
  parameter integer IDW = 16, // bits of a request number
  parameter integer QW = 4    // WaitingQueue depth Q = 2^QW per leaf
) (
  input  wire clk,
  input  wire rst,
  input  wire op_valid,
  input  wire op_release,     // 0 TAKE, 1 RELEASE
  input  wire [LW-1:0] op_leaf,
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

  wire [LW+QW-1:0] first = {op_leaf, head[op_leaf]};
  wire [QW-1:0] tail = tl[op_leaf];
  wire [LW+QW-1:0] last = {op_leaf, tail};
  wire empty = count[op_leaf] == {(QW+1){1'b0}};
  assign res_full = count[op_leaf][QW];
  assign res_wait = !op_release && busy[op_leaf] && holder[op_leaf] != op_req;
  assign res_resume = op_release && !empty;
  assign res_req = queue[first][IDW+1:2];
  assign res_kind = queue[first][1:0];

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
            queue[last] <= {op_req, op_kind};
            tl[op_leaf] <= tail + 1'b1;
            count[op_leaf] <= count[op_leaf] + 1'b1;
          end
        end else begin
          busy[op_leaf] <= 1'b1;
          holder[op_leaf] <= op_req;
        end
      end else if (empty) begin
        busy[op_leaf] <= 1'b0;
      end else begin
        holder[op_leaf] <= res_req;
        head[op_leaf] <= head[op_leaf] + 1'b1;
        count[op_leaf] <= count[op_leaf] - 1'b1;
      end
    end
  end
endmodule
`default_nettype wire
