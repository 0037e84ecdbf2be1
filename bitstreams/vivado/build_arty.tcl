# Vivado batch build of a cmnet board top for the Digilent Arty A7-35T (non-project flow).
#
#   cmnet build CONFIG --board arty_a7_35t -o BUILD_DIR [--mode network|chip]
#   vivado -mode batch -source bitstreams/vivado/build_arty.tcl -tclargs BUILD_DIR TOP [PART]
#   openFPGALoader -b arty_a7_35t BUILD_DIR/TOP.bit
#
# BUILD_DIR is the output of `cmnet build`: BUILD_DIR/rtl/filelist.f (Verilog files in
# compile order, relative to BUILD_DIR/rtl) and BUILD_DIR/TOP.xdc (the pins of the top only;
# the board's full pin file is constraints/arty_a7_35t.xdc). TOP is cm1_board_top (network
# mode) or cm1_chip_board_top (chip mode). Reports land in BUILD_DIR/vivado_*.txt.
#
# Not run here (no Vivado on this machine): the tests check it with tclsh and stub commands.

if {$argc < 2} {
    puts stderr "usage: vivado -mode batch -source build_arty.tcl -tclargs BUILD_DIR TOP \[PART\]"
    exit 1
}
set build_dir [file normalize [lindex $argv 0]]
set top [lindex $argv 1]
set part xc7a35ticsg324-1L
if {$argc >= 3} {
    set part [lindex $argv 2]
}
set rtl_dir [file join $build_dir rtl]
set filelist [file join $rtl_dir filelist.f]
set xdc [file join $build_dir "${top}.xdc"]
foreach f [list $filelist $xdc] {
    if {![file exists $f]} {
        puts stderr "build_arty.tcl: $f not found (run cmnet build --board arty_a7_35t first)"
        exit 1
    }
}

# Sources, in the filelist's order.
set fh [open $filelist r]
set names [split [string trim [read $fh]] "\n"]
close $fh
foreach name $names {
    set name [string trim $name]
    if {$name ne ""} {
        read_verilog [file join $rtl_dir $name]
    }
}
read_xdc $xdc

# Synthesis, implementation, reports, bitstream.
synth_design -top $top -part $part -verilog_define SYNTHESIS
report_utilization -file [file join $build_dir vivado_utilization_synth.txt]
opt_design
place_design
phys_opt_design
route_design
report_utilization -file [file join $build_dir vivado_utilization.txt]
report_timing_summary -file [file join $build_dir vivado_timing.txt]
write_bitstream -force [file join $build_dir "${top}.bit"]
puts "build_arty.tcl: wrote [file join $build_dir ${top}.bit]"
