package main

import (
	"errors"
	"fmt"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/nodelink"
	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/troupe-dev/troupe/messages"
)

// stopWait is how long stop waits for the node to record its sessions and exit.
const stopWait = 15 * time.Second

// stopCommand stops the project's Node (a background one from run --detach or serve): it asks
// the process to shut down the way Ctrl-C does, so every session records itself as
// interrupted and stays resumable, and waits until it is gone.
func (m *Main) stopCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "stop",
		Short: "Stop the project's running node (its sessions stay resumable)",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			s, err := m.resolve(nil)
			if err != nil {
				return err
			}
			info, err := actors.FindNode(s.root, s.cfg.NATS)
			if err != nil {
				fmt.Fprintf(m.Stdout, "no troupe node is running in %s\n", s.root)
				return nil
			}
			active := 0
			if client, err := nodelink.Attach(s.root); err == nil {
				if metas, err := client.Sessions(); err == nil {
					for _, meta := range metas {
						if meta.Status == string(messages.StatusRunning) && meta.Parent == "" {
							active++
						}
					}
				}
				client.Close()
			}
			if err := syscall.Kill(info.PID, syscall.SIGTERM); err != nil {
				if errors.Is(err, syscall.ESRCH) {
					fmt.Fprintf(m.Stdout, "no troupe node is running in %s\n", s.root)
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
}
