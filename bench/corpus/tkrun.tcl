# Runs a Tcl/Tk program with the vision corpus's probe (tkprobe.tcl) in its interpreter:
#   wish tkrun.tcl PROGRAM-SCRIPT [ARG...]
# The program sees its own script name and arguments, as if wish had been started on it.
set ::argv0 [lindex $::argv 0]
set ::argv [lrange $::argv 1 end]
set ::argc [llength $::argv]
# The title and the application name the program gets when wish runs it (not this file's name).
tk appname [file tail $::argv0]
wm title . [file tail $::argv0]
source [file join [file dirname [info script]] tkprobe.tcl]
source $::argv0
