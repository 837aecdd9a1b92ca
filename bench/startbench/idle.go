package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// idleFor is how long a chat sits at its prompt before its memory is read by default: past the
// client's and the node's first release of what they no longer use (internal/idlemem). An idle
// process still allocates a little (a full-screen chat's cursor blink, the node's watch loop),
// so -idlefor 90s shows what a chat left waiting holds, not only what it holds at first.
const idleFor = 4 * time.Second

// idleSample is the private memory (RssAnon, KiB) of an idle chat's client and of its node.
type idleSample struct{ client, node int }

// idleOnce starts `troupe chat` in a fresh project, lets it sit idle for b.idleFor and reads
// RssAnon of the client and of the node it started. On a terminal (tui) the chat is the
// full-screen Bubble Tea UI, driven through a pseudo-terminal of 120×40; otherwise it is the
// line REPL on pipes, stdin held open.
func (b *bench) idleOnce(name, script string, tui bool) (idleSample, error) {
	dir, err := b.project(name)
	if err != nil {
		return idleSample{}, err
	}
	cmd := exec.Command(b.bin, "chat", "--model", "scripted:"+script)
	cmd.Dir = dir
	var hold io.Closer
	if tui {
		pty, tty, err := openPTY(40, 120)
		if err != nil {
			return idleSample{}, err
		}
		defer pty.Close()
		cmd.Env = append(os.Environ(), "TERM=xterm-256color")
		cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
		go io.Copy(io.Discard, pty) //nolint:errcheck // ends when the pty closes
		defer tty.Close()
		hold = tty
	} else {
		stdin, err := cmd.StdinPipe()
		if err != nil {
			return idleSample{}, err
		}
		hold = stdin
	}
	if err := cmd.Start(); err != nil {
		return idleSample{}, err
	}
	time.Sleep(b.idleFor) // the measure itself: memory after the chat sat idle
	m := treeMemory(cmd.Process.Pid)
	client := statusKiB(filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "status"), "RssAnon")["RssAnon"]
	if tui {
		_ = cmd.Process.Signal(syscall.SIGTERM) // a TUI leaves on a key or a signal, not on EOF
	}
	hold.Close()
	_ = cmd.Wait()
	if err := b.stopNode(dir); err != nil {
		return idleSample{}, err
	}
	return idleSample{client: client, node: m.rssAnon - client}, nil
}

// openPTY opens a pseudo-terminal pair of rows×cols: the controller side (read and thrown
// away, so the UI never blocks on output) and the terminal the chat runs on.
func openPTY(rows, cols uint16) (pty, tty *os.File, err error) {
	pty, err = os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("open a pseudo-terminal: %w", err)
	}
	fd := int(pty.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		pty.Close()
		return nil, nil, fmt.Errorf("unlock the pseudo-terminal: %w", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		pty.Close()
		return nil, nil, fmt.Errorf("name the pseudo-terminal: %w", err)
	}
	tty, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		pty.Close()
		return nil, nil, fmt.Errorf("open the pseudo-terminal's terminal: %w", err)
	}
	if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: rows, Col: cols}); err != nil {
		pty.Close()
		tty.Close()
		return nil, nil, fmt.Errorf("size the pseudo-terminal: %w", err)
	}
	return pty, tty, nil
}

// idleTUI prints the row of an idle chat on a terminal, the UI a user at a terminal gets
// (the "chat idle" rows above are the line REPL on pipes).
func (b *bench) idleTUI(script string) error {
	s, err := b.idleOnce("idle-tui", script, true)
	if err != nil {
		return err
	}
	row("chat idle on a terminal (TUI): RssAnon client / node", fmt.Sprintf("%.1f / %.1f MiB", float64(s.client)/1024, float64(s.node)/1024))
	return nil
}

// idleAB measures the idle chat of each binary in turn (A B A B …, so load that comes and goes
// falls on both alike), the line REPL and the TUI, and prints for each the median RssAnon of
// the client, the node and their sum.
func (b *bench) idleAB(bins []string) error {
	script := filepath.Join(b.work, "script.json")
	if err := os.WriteFile(script, []byte(`{"turns":[{"text":"hi"}]}`), 0o644); err != nil {
		return err
	}
	type series struct{ client, node, sum []float64 }
	got := make([][2]series, len(bins)) // [binary][line, tui]
	for r := range b.runs {
		for i, bin := range bins {
			for k, tui := range []bool{false, true} {
				run := &bench{bin: bin, work: b.work, runs: b.runs, idleFor: b.idleFor}
				s, err := run.idleOnce(fmt.Sprintf("idle-%d-%d-%d", r, i, k), script, tui)
				if err != nil {
					return fmt.Errorf("%s: %w", bin, err)
				}
				g := &got[i][k]
				g.client = append(g.client, float64(s.client)/1024)
				g.node = append(g.node, float64(s.node)/1024)
				g.sum = append(g.sum, float64(s.client+s.node)/1024)
			}
		}
	}
	for i, bin := range bins {
		for k, what := range []string{"line REPL", "TUI"} {
			g := got[i][k]
			row(fmt.Sprintf("%s: %s idle, RssAnon client + node", filepath.Base(bin), what),
				fmt.Sprintf("%.1f + %.1f = %.1f MiB (medians of %d)", median(g.client), median(g.node), median(g.sum), len(g.sum)))
		}
	}
	return nil
}
