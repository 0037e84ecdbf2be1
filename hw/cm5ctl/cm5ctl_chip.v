// A CM-5 control network chip (paper, section 5: "Three binary-tree nodes are packaged on each
// chip", with 4 child links and 1 parent link): a top node T over two nodes L and R, L's
// children are child links 0 and 1, R's 2 and 3. The links between T and L, R stay inside the
// chip. Each node's role is a strap (ROLE_*: 0 not in use, 1 a node, 2 a partition's root,
// then the nodes above it in the chip are not in use); USE says which child links lead to a
// subtree in use (the others are mapped out: ignored, sent idle packets). The nodes are
// cm5ctl_node / cm5ctl_root, so a tree of chips behaves exactly as a tree of nodes.
`default_nettype none
module cm5ctl_chip #(
  parameter integer W = 32,
  parameter integer PB = W + 15,
  parameter integer C = 0,
  parameter integer F = 0,
  parameter integer WU = 6,
  parameter integer WD = 5,
  parameter integer TU = 8,
  parameter integer TD = 10,
  parameter integer QD = 5,
  parameter integer QCW = 3,
  parameter integer STOP_AT = 2,
  parameter integer AD_T = 8,     // put-aside depth of the top node
  parameter integer ACW_T = 4,
  parameter integer AD_C = 8,     // and of the two lower nodes
  parameter integer ACW_C = 4,
  parameter integer BW = 4,
  parameter integer BCW = 3,
  parameter integer RQ = 2,
  parameter integer RCW = 2,
  parameter integer ROLE_T = 1,
  parameter integer ROLE_L = 1,
  parameter integer ROLE_R = 1,
  parameter [3:0] USE = 4'b1111,
  parameter integer ALIGN = 0,
  parameter integer L = 40,
  parameter integer LPW = 6,
  parameter integer QRAM = 0      // 1: the nodes' child queues in block RAM
) (
  input  wire clk,
  input  wire rst,
  input  wire [4*WU-1:0] up_c,    // from child k at [k*WU +: WU]
  output wire [4*WD-1:0] down_c,  // to child k at [k*WD +: WD]
  output wire [WU-1:0] up_out,    // to the parent chip
  input  wire [WD-1:0] down_in,   // from the parent chip
  output wire fault,
  output wire bcast_drop,
  output wire link_error
);
  wire [2*WU-1:0] to_top;        // L, R -> T
  wire [WU-1:0] up_l = to_top[0 +: WU];
  wire [WU-1:0] up_r = to_top[WU +: WU];
  wire [WD-1:0] down_l, down_r;  // T -> L, R
  wire [2:0] f, le, bd;
  assign fault = |f;
  assign link_error = |le;
  assign bcast_drop = |bd;
  generate
    // The top node.
    if (ROLE_T == 2) begin : g_t_root
      cm5ctl_root #(.W(W), .PB(PB), .C(C), .F(F), .WU(WU), .WD(WD), .TU(TU), .TD(TD), .QD(QD), .QCW(QCW),
                    .STOP_AT(STOP_AT), .BW(BW), .BCW(BCW), .RQ(RQ), .RCW(RCW),
                    .OUT_L(ROLE_L == 0 ? 1 : 0), .OUT_R(ROLE_R == 0 ? 1 : 0), .ALIGN(ALIGN), .L(L), .LPW(LPW), .QRAM(QRAM)) t (
        .clk(clk), .rst(rst), .up_l(up_l), .up_r(up_r), .down_l(down_l), .down_r(down_r), .fault(f[0]),
        .bcast_drop(bd[0]), .link_error(le[0]));
      assign up_out = {WU{1'b0}};
    end else if (ROLE_T == 1) begin : g_t_node
      cm5ctl_node #(.W(W), .PB(PB), .C(C), .F(F), .WU(WU), .WD(WD), .TU(TU), .TD(TD), .QD(QD), .QCW(QCW),
                    .STOP_AT(STOP_AT), .AD(AD_T), .ACW(ACW_T),
                    .OUT_L(ROLE_L == 0 ? 1 : 0), .OUT_R(ROLE_R == 0 ? 1 : 0), .ALIGN(ALIGN), .L(L), .LPW(LPW), .QRAM(QRAM)) t (
        .clk(clk), .rst(rst), .up_l(up_l), .up_r(up_r), .up_out(up_out), .down_in(down_in), .down_l(down_l),
        .down_r(down_r), .fault(f[0]), .link_error(le[0]));
      assign bd[0] = 1'b0;
    end else begin : g_t_none
      assign up_out = {WU{1'b0}};
      assign down_l = {WD{1'b0}};
      assign down_r = {WD{1'b0}};
      assign f[0] = 1'b0;
      assign le[0] = 1'b0;
      assign bd[0] = 1'b0;
    end
    // The two lower nodes: side 0 is L (children 0, 1), side 1 is R (children 2, 3).
    genvar s;
    for (s = 0; s < 2; s = s + 1) begin : g_side
      localparam integer ROLE = s == 0 ? ROLE_L : ROLE_R;
      wire [WD-1:0] from_top = s == 0 ? down_l : down_r;
      if (ROLE == 2) begin : g_root
        cm5ctl_root #(.W(W), .PB(PB), .C(C), .F(F), .WU(WU), .WD(WD), .TU(TU), .TD(TD), .QD(QD), .QCW(QCW),
                      .STOP_AT(STOP_AT), .BW(BW), .BCW(BCW), .RQ(RQ), .RCW(RCW),
                      .OUT_L(USE[2*s] ? 0 : 1), .OUT_R(USE[2*s+1] ? 0 : 1), .ALIGN(ALIGN), .L(L), .LPW(LPW), .QRAM(QRAM)) n (
          .clk(clk), .rst(rst), .up_l(up_c[(2*s)*WU +: WU]), .up_r(up_c[(2*s+1)*WU +: WU]),
          .down_l(down_c[(2*s)*WD +: WD]), .down_r(down_c[(2*s+1)*WD +: WD]), .fault(f[1+s]),
          .bcast_drop(bd[1+s]), .link_error(le[1+s]));
        assign to_top[s*WU +: WU] = {WU{1'b0}};
        wire unused_top = &{1'b0, from_top};
      end else if (ROLE == 1) begin : g_node
        cm5ctl_node #(.W(W), .PB(PB), .C(C), .F(F), .WU(WU), .WD(WD), .TU(TU), .TD(TD), .QD(QD), .QCW(QCW),
                      .STOP_AT(STOP_AT), .AD(AD_C), .ACW(ACW_C),
                      .OUT_L(USE[2*s] ? 0 : 1), .OUT_R(USE[2*s+1] ? 0 : 1), .ALIGN(ALIGN), .L(L), .LPW(LPW), .QRAM(QRAM)) n (
          .clk(clk), .rst(rst), .up_l(up_c[(2*s)*WU +: WU]), .up_r(up_c[(2*s+1)*WU +: WU]), .up_out(to_top[s*WU +: WU]),
          .down_in(from_top), .down_l(down_c[(2*s)*WD +: WD]), .down_r(down_c[(2*s+1)*WD +: WD]),
          .fault(f[1+s]), .link_error(le[1+s]));
        assign bd[1+s] = 1'b0;
      end else begin : g_none
        assign to_top[s*WU +: WU] = {WU{1'b0}};
        wire unused_top = &{1'b0, from_top};
        assign down_c[(2*s)*WD +: 2*WD] = {(2*WD){1'b0}};
        assign f[1+s] = 1'b0;
        assign le[1+s] = 1'b0;
        assign bd[1+s] = 1'b0;
      end
    end
  endgenerate
  wire unused = &{1'b0, clk, rst, up_c, down_in, up_l, up_r, down_l, down_r};
endmodule
`default_nettype wire
