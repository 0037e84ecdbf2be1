// The switch status of one CONNECT hnode (Li and Rishe 1991, "The status data and its
// representations"): an InputVector per input switch and an OutputVector per output switch it
// controls (bit k: the s-link to middle switch k is occupied), and a RelayTable per middle
// switch it controls (which input and output s-links of that middle switch are connected).
// One operation (a message the hnode handles) per clock with op_valid high; the decision is
// combinational from the state before the clock, the state changes at the clock:
//   SELECT  (h_d, step 3)  V = op_iv | OutputVector[op_sw] | op_tried; res_found, res_ms: the
//                          first 0 bit of V from op_start upwards (wrapping); its OutputVector
//                          bit is set
//   CO      (h_m, step 4)  res_accept: input s-link op_in_sw and output s-link op_out_sw of local
//                          middle switch op_k are both free; if so (op_accept: res_accept, or
//                          the same read a cycle ahead by the user) both are taken, else CANCEL
//   ACK     (h_o, step 5)  InputVector[op_sw] bit op_ms set
//   ODCR    (h_o, step 8)  InputVector[op_sw] bit op_ms cleared
//   IDCR    (h_m, step 9)  RelayTable of op_k: op_in_sw and op_out_sw freed
//   DDCR    (h_d, step 10) and CANCEL (at h_d): OutputVector[op_sw] bit op_ms cleared
//   CR      (h_o, step 2)  res_iv: InputVector[op_sw], which the CR carries to h_d
// Switch numbers op_sw and op_k are local (global number / number of hnodes).
`default_nettype none
module clos_hnode #(
  parameter integer M = 3,    // middle switches (vector width)
  parameter integer R = 4,    // input/output switches (RelayTable width)
  parameter integer RL = 1,   // input/output switches this hnode controls
  parameter integer KL = 1,   // middle switches this hnode controls
  parameter integer KW = 2,   // bits of a middle switch number
  parameter integer RW = 2,   // bits of an input/output switch number
  parameter integer SW = 1,   // bits of a local input/output switch number
  parameter integer LW = 1    // bits of a local middle switch number
) (
  input  wire clk,
  input  wire rst,
  input  wire op_valid,
  input  wire [2:0] op_code,   // 0 SELECT, 1 CO, 2 ACK, 3 ODCR, 4 IDCR, 5 DDCR or CANCEL, 6 CR
  input  wire [SW-1:0] op_sw,
  input  wire [LW-1:0] op_k,
  input  wire [KW-1:0] op_ms,
  input  wire [RW-1:0] op_in_sw,
  input  wire [RW-1:0] op_out_sw,
  input  wire [KW-1:0] op_start,
  input  wire [M-1:0] op_iv,
  input  wire [M-1:0] op_tried,
  input  wire op_accept,       // CO: take the s-links (res_accept, or its value read a cycle ahead)
  output reg  res_found,
  output reg  [KW-1:0] res_ms,
  output wire res_accept,
  output wire [M-1:0] res_iv
);
  localparam [2:0] OP_SELECT = 3'd0, OP_CO = 3'd1, OP_ACK = 3'd2, OP_ODCR = 3'd3, OP_IDCR = 3'd4,
                   OP_CLEAR_OV = 3'd5;
  reg [M-1:0] input_vector [0:RL-1];
  reg [M-1:0] output_vector [0:RL-1];
  reg [R-1:0] relay_in [0:KL-1];   // input s-links of the local middle switch in use
  reg [R-1:0] relay_out [0:KL-1];  // its output s-links in use

  wire [M-1:0] v = op_iv | output_vector[op_sw] | op_tried;
  // The first free middle switch from op_start upwards.
  integer i;
  reg [KW:0] k;
  always @* begin
    res_found = 1'b0;
    res_ms = {KW{1'b0}};
    for (i = M - 1; i >= 0; i = i - 1) begin
      k = {1'b0, op_start} + i[KW:0];
      if (k >= M[KW:0]) k = k - M[KW:0];
      if (!v[k[KW-1:0]]) begin
        res_found = 1'b1;
        res_ms = k[KW-1:0];
      end
    end
  end
  assign res_iv = input_vector[op_sw];
  assign res_accept = !relay_in[op_k][op_in_sw] && !relay_out[op_k][op_out_sw];

  integer j;
  always @(posedge clk) begin
    if (rst) begin
      for (j = 0; j < RL; j = j + 1) begin
        input_vector[j] <= {M{1'b0}};
        output_vector[j] <= {M{1'b0}};
      end
      for (j = 0; j < KL; j = j + 1) begin
        relay_in[j] <= {R{1'b0}};
        relay_out[j] <= {R{1'b0}};
      end
    end else if (op_valid) begin
      case (op_code)
        OP_SELECT: if (res_found) output_vector[op_sw][res_ms] <= 1'b1;
        OP_CO: if (op_accept) begin
          relay_in[op_k][op_in_sw] <= 1'b1;
          relay_out[op_k][op_out_sw] <= 1'b1;
        end
        OP_ACK: input_vector[op_sw][op_ms] <= 1'b1;
        OP_ODCR: input_vector[op_sw][op_ms] <= 1'b0;
        OP_IDCR: begin
          relay_in[op_k][op_in_sw] <= 1'b0;
          relay_out[op_k][op_out_sw] <= 1'b0;
        end
        OP_CLEAR_OV: output_vector[op_sw][op_ms] <= 1'b0;
        default: ;
      endcase
    end
  end
endmodule
`default_nettype wire
