# Ground truth for a Tk program of the vision corpus (Tk has no accessibility tree). Sourced into the
# program's own interpreter before the program starts (tkrun.tcl for a Tcl program, tkrun.py for a Python
# tkinter one), it applies the corpus look and answers requests from capture.py through files in
# $CIU_TK_PROBE_DIR: capture.py writes "request", the probe answers with "reply" (written whole, then renamed),
# one line per fact, fields separated by tabs:
#   W path class rootx rooty width height viewable toplevel state text   a widget (text: -text or -label)
#   E menu index type rootx rooty width height state label               an entry of a mapped menu
#   T notebook index rootx rooty width height selected text              a ttk::notebook's tab
#   I widget rootx rooty width height selected text                      a visible row of a list or a tree
#   H widget rootx rooty width height text                               a tree's column heading
#   X toplevel window-id title                                           a mapped toplevel and its X window
#   S toplevel...                                                        the toplevels, lowest first
# The probe only reads the widget tree; it changes nothing but the look it was asked for.
namespace eval ::ciuprobe {
    variable dir $::env(CIU_TK_PROBE_DIR)

    proc clean {text} {
        return [string map [list \t " " \n " " \r " "] $text]
    }

    proc option {w name} {
        if {[catch {$w cget $name} value]} {
            return ""
        }
        return $value
    }

    proc textOf {w} {
        set text [option $w -text]
        if {$text eq ""} {
            set var [option $w -textvariable]
            if {$var ne "" && ![catch {uplevel #0 [list set $var]} value]} {
                set text $value
            }
        }
        return [clean $text]
    }

    # Checked, for a check button or a radio button whose variable holds its on value.
    proc checked {w} {
        set var [option $w -variable]
        if {$var eq "" || [catch {uplevel #0 [list set $var]} value]} {
            return 0
        }
        set on [option $w -onvalue]
        if {[winfo class $w] in {Radiobutton TRadiobutton}} {
            set on [option $w -value]
        }
        return [expr {$value eq $on}]
    }

    proc line {out args} {
        puts $out [join $args \t]
    }

    proc widget {out w} {
        set state [option $w -state]
        if {[string match T* [winfo class $w]] && ![catch {$w instate disabled} off] && [string is true -strict $off]} {
            set state disabled
        }
        if {[winfo class $w] eq "Menubutton" && [string is true -strict [option $w -indicatoron]]} {
            append state ",indicator"
        }
        if {[winfo class $w] in {Checkbutton Radiobutton TCheckbutton TRadiobutton} && [checked $w]} {
            append state ",checked"
        }
        line $out W $w [winfo class $w] [winfo rootx $w] [winfo rooty $w] [winfo width $w] \
            [winfo height $w] [winfo viewable $w] [winfo toplevel $w] $state [textOf $w]
    }

    # A mapped menu's entries. A menu bar lays its entries out in a row: an entry ends where the next
    # begins, the last where its label and the padding of the others end.
    proc menu {out m} {
        set last [$m index end]
        if {$last eq "none"} {
            return
        }
        set bar [expr {[option $m -type] eq "menubar"}]
        set border [expr {[option $m -borderwidth] + [option $m -activeborderwidth]}]
        set x0 [winfo rootx $m]
        set y0 [winfo rooty $m]
        set pad 0
        for {set i 0} {$i <= $last} {incr i} {
            set type [$m type $i]
            if {$type in {tearoff separator}} {
                continue
            }
            set label ""
            catch {set label [clean [$m entrycget $i -label]]}
            if {$bar} {
                set x [$m xposition $i]
                if {$i < $last} {
                    set w [expr {[$m xposition [expr {$i + 1}]] - $x}]
                    set pad [expr {$w - [font measure [$m cget -font] $label]}]
                } else {
                    set w [expr {[font measure [$m cget -font] $label] + $pad}]
                }
                set y $border
                set h [expr {[winfo height $m] - 2 * $border}]
            } else {
                set x $border
                set w [expr {[winfo width $m] - 2 * $border}]
                set y [$m yposition $i]
                set next [expr {$i < $last ? [$m yposition [expr {$i + 1}]] : [winfo height $m] - $border}]
                set h [expr {$next - $y}]
            }
            set state [$m entrycget $i -state]
            line $out E $m $i $type [expr {$x0 + $x}] [expr {$y0 + $y}] $w $h $state $label
        }
    }

    # A ttk::notebook's tabs: each tab's extent as the notebook identifies it, over its tab strip.
    proc tabs {out nb} {
        array set left {}
        set height [winfo height $nb]
        set width [winfo width $nb]
        for {set y 0} {$y < $height && $y < 80} {incr y} {
            for {set x 0} {$x < $width} {incr x} {
                set t [$nb identify tab $x $y]
                if {$t eq ""} {
                    continue
                }
                if {![info exists left($t)]} {
                    set left($t) $x
                    set right($t) $x
                    set top($t) $y
                }
                set left($t) [expr {min($left($t), $x)}]
                set right($t) [expr {max($right($t), $x)}]
                set bottom($t) $y
            }
        }
        set current [$nb index current]
        foreach t [array names left] {
            line $out T $nb $t [expr {[winfo rootx $nb] + $left($t)}] [expr {[winfo rooty $nb] + $top($t)}] \
                [expr {$right($t) - $left($t) + 1}] [expr {$bottom($t) - $top($t) + 1}] \
                [expr {$t == $current}] [clean [$nb tab $t -text]]
        }
    }

    proc listbox {out lb} {
        set inset [expr {[option $lb -borderwidth] + [option $lb -highlightthickness]}]
        set first [$lb nearest 0]
        set last [$lb nearest [winfo height $lb]]
        for {set i $first} {$i <= $last && $i < [$lb size]} {incr i} {
            set box [$lb bbox $i]
            if {$box eq ""} {
                continue
            }
            lassign $box x y w h
            line $out I $lb [expr {[winfo rootx $lb] + $inset}] [expr {[winfo rooty $lb] + $y}] \
                [expr {[winfo width $lb] - 2 * $inset}] $h [$lb selection includes $i] [clean [$lb get $i]]
        }
    }

    proc treeItems {out tv parent firstY} {
        foreach item [$tv children $parent] {
            set box [$tv bbox $item]
            if {$box ne ""} {
                lassign $box x y w h
                set text [$tv item $item -text]
                if {$text eq "" || "tree" ni [$tv cget -show]} {
                    set text [lindex [$tv item $item -values] 0]
                }
                line $out I $tv [expr {[winfo rootx $tv] + $x}] [expr {[winfo rooty $tv] + $y}] $w $h \
                    [expr {$item in [$tv selection]}] [clean $text]
                upvar 1 $firstY top
                if {$top eq "" || $y < $top} {
                    set top $y
                }
            }
            if {[$tv item $item -open]} {
                treeItems $out $tv $item top
            }
        }
    }

    # A tree's rows, and its headings above the first row when it shows them.
    proc tree {out tv} {
        set top ""
        treeItems $out $tv {} top
        if {"headings" ni [$tv cget -show] || $top eq ""} {
            return
        }
        set columns [$tv cget -displaycolumns]
        if {$columns eq "#all"} {
            set columns [$tv cget -columns]
        }
        if {"tree" in [$tv cget -show]} {
            set columns [linsert $columns 0 #0]
        }
        set x [expr {[winfo rootx $tv] + 1}]
        foreach c $columns {
            set w [$tv column $c -width]
            line $out H $tv $x [expr {[winfo rooty $tv] + 1}] $w [expr {$top - 1}] [clean [$tv heading $c -text]]
            incr x $w
        }
    }

    proc walk {out w} {
        foreach c [winfo children $w] {
            if {![winfo ismapped $c]} {
                continue
            }
            # A widget whose command a program has wrapped (IDLE's text) may answer oddly: it is left out,
            # not the whole tree.
            catch {widget $out $c}
            # A part the probe cannot read (a tab strip of no tabs) is left out, not the whole tree.
            switch -- [winfo class $c] {
                Menu {catch {menu $out $c}}
                TNotebook {catch {tabs $out $c}}
                Listbox {catch {listbox $out $c}}
                Treeview {catch {tree $out $c}}
            }
            walk $out $c
        }
    }

    proc toplevels {w} {
        set result {}
        foreach c [winfo children $w] {
            if {[winfo toplevel $c] eq $c && [winfo class $c] ne "Menu"} {
                lappend result $c
            }
            lappend result {*}[toplevels $c]
        }
        return $result
    }

    proc dump {out} {
        widget $out .
        foreach top [linsert [toplevels .] 0 .] {
            if {[winfo ismapped $top]} {
                line $out X $top [winfo id $top] [clean [wm title $top]]
            }
        }
        line $out S {*}[wm stackorder .]
        walk $out .
    }

    proc poll {} {
        variable dir
        if {[catch {winfo exists .} alive] || !$alive} {
            return ;# its program destroyed it (a program may make a first Tk to probe the platform)
        }
        set request [file join $dir request]
        if {[file exists $request]} {
            file delete $request
            set partial [file join $dir reply.part]
            set out [open $partial w]
            fconfigure $out -encoding utf-8
            if {[catch {dump $out} error]} {
                puts $out "error\t[clean $error]"
            }
            close $out
            file rename -force $partial [file join $dir reply]
        }
        after 100 ::ciuprobe::poll
    }

    # The look: a ttk theme, and for the classic widgets a palette (tk_setPalette recolours what exists and
    # sets the option database for what the program creates next).
    proc look {name} {
        switch -- $name {
            tk-clam {ttk::style theme use clam}
            tk-dark {
                tk_setPalette background #2e3436 foreground #eeeeec selectBackground #4a6984 \
                    selectForeground #ffffff activeBackground #555753 insertBackground #eeeeec
                ttk::style theme use clam
                ttk::style configure . -background #2e3436 -foreground #eeeeec -fieldbackground #1e1e1e \
                    -selectbackground #4a6984 -insertcolor #eeeeec
                ttk::style map . -background [list active #555753 disabled #2e3436]
            }
        }
    }
}

if {[info exists ::env(CIU_TK_LOOK)]} {
    ::ciuprobe::look $::env(CIU_TK_LOOK)
}
after 100 ::ciuprobe::poll
