package main

import (
	"bufio"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/nodelink"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/ui"
	"github.com/troupe-dev/troupe/internal/textfmt"
)

// stopWait is how long stop waits for the node to record its sessions and exit.
const stopWait = 15 * time.Second

// stopCommand stops the project's node and so all background work: it asks the process to shut
// down the way Ctrl-C does, so every session records itself as interrupted and stays
// resumable, and waits until it is gone. A chat attached to the node is someone at a terminal:
// stop asks first (--force does not).
func (m *Main) stopCommand() *cobra.Command {
	var force bool
	c := &cobra.Command{
		Use:   "stop",
		Short: "Stop the project's node and its background work (sessions stay resumable); asks first if a chat is attached",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			s, err := m.resolve(nil)
			if err != nil {
				return err
			}
			info, err := actors.FindNode(s.root, s.cfg.NATS)
			if err != nil {
				fmt.Fprintf(m.Stdout, "nothing to stop: no troupe node is running in %s\n", s.root)
				return nil
			}
			active, chats := nodelink.RunningSessions(s.root, s.cfg)
			if len(chats) > 0 && !force {
				if err := m.confirmStop(chats); err != nil {
					return err
				}
			}
			if err := syscall.Kill(info.PID, syscall.SIGTERM); err != nil {
				if errors.Is(err, syscall.ESRCH) {
					fmt.Fprintf(m.Stdout, "nothing to stop: no troupe node is running in %s\n", s.root)
					return nil
				}
				return &exitError{Code: exitFailed, Msg: fmt.Sprintf("stop the node (pid %d): %v", info.PID, err)}
			}
			deadline := time.Now().Add(stopWait)
			for actors.ProcessAlive(info.PID) {
				if time.Now().After(deadline) {
					return &exitError{Code: exitFailed, Msg: fmt.Sprintf("the node (pid %d) did not stop within %s; kill -9 %d ends it (its sessions stay resumable)", info.PID, stopWait, info.PID)}
				}
				time.Sleep(20 * time.Millisecond)
			}
			fmt.Fprintf(m.Stdout, "stopped the troupe node (pid %d, %s interrupted; troupe resume ID continues one)\n",
				info.PID, textfmt.Count(active, "session"))
			return nil
		},
	}
	c.Flags().BoolVarP(&force, "force", "f", false, "stop without asking, even with a chat attached")
	return c
}

// confirmStop asks, at a terminal, before a stop interrupts attached chats; elsewhere it
// refuses and says how to stop anyway.
func (m *Main) confirmStop(chats []string) error {
	what := "a chat is attached to session " + chats[0]
	if len(chats) > 1 {
		what = "chats are attached to sessions " + strings.Join(chats, ", ")
	}
	if !ui.OnTerminal(m.Stdin, m.Stdout, m.Getenv("TERM")) {
		return &exitError{Code: exitFailed, Msg: fmt.Sprintf("not stopping: %s; troupe stop --force interrupts it", what)}
	}
	fmt.Fprintf(m.Stdout, "%s: stopping interrupts it. Stop anyway? [y/N] ", what)
	line, _ := bufio.NewReader(m.Stdin).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
		return &exitError{Code: exitFailed, Msg: "not stopped"}
	}
	return nil
}
