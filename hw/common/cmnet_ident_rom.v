// LiteX's identifier_mem, shared by every register block that answers at 0x400: character
// `index` of IDENT (its first character is in its top byte), 0 from IDENT_LEN on, so a reader
// that stops at the first 0 (litex_client --ident) gets exactly IDENT.
`default_nettype none
module cmnet_ident_rom #(
    parameter integer IDENT_LEN = 5,                 // characters of IDENT, 1..255
    parameter [8*IDENT_LEN-1:0] IDENT = "cmnet"
) (
    input  wire [7:0] index,
    output reg  [7:0] char
);
  integer ik;
  always @* begin
    char = 8'd0;
    for (ik = 0; ik < IDENT_LEN; ik = ik + 1)
      if (index == ik[7:0]) char = IDENT[8 * (IDENT_LEN - 1 - ik) +: 8];
  end
endmodule
`default_nettype wire
