package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/nodelink"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/ui"
	"github.com/troupe-dev/troupe/messages"
)

// approveCommand answers a pending approval request from another terminal (or a script):
// troupe approve [--session S] CALL_ID allow|deny|allow-session.
func (m *Main) approveCommand() *cobra.Command {
	var session string
	c := &cobra.Command{
		Use:   "approve [--session S] CALL_ID allow|deny|allow-session",
		Short: "Answer a tool call waiting for approval in a running session",
		Long: "Answer a tool call waiting for approval. The call id is in the tool.approval_requested event\n" +
			"(troupe watch shows it). allow-session also allows calls like it for the rest of the session.",
		Args: cobra.ExactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			callID, answer := args[0], messages.Answer(strings.ToLower(args[1]))
			switch answer {
			case messages.AnswerAllow, messages.AnswerDeny, messages.AnswerAllowSession:
			default:
				return usageErr("answer %q: use allow, deny or allow-session", args[1])
			}
			s, err := m.resolve(nil)
			if err != nil {
				return err
			}
			client, err := nodelink.Attach(s.root, s.cfg)
			if err != nil {
				return clierr.Failf("no troupe node is running in %s, so no session waits for approval (troupe sessions lists the ended ones)", s.root)
			}
			defer client.Close()
			return nodelink.Approve(m.Stdout, client, session, callID, answer)
		},
	}
	c.Flags().StringVar(&session, "session", "", "the session the call belongs to (default: whichever running session has it pending)")
	return c
}

// approvalsCommand lists the calls waiting for an approval answer in the running sessions.
func (m *Main) approvalsCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "approvals",
		Short: "List the tool calls waiting for approval in this project's running sessions",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			s, err := m.resolve(nil)
			if err != nil {
				return err
			}
			client, err := nodelink.AttachIfRunning(s.root, s.cfg)
			if err != nil {
				return err
			}
			if client == nil { // no node: nothing waits, an empty list and not a failure
				fmt.Fprintf(m.Stdout, "no tool call is waiting for approval (no troupe node is running in %s)\n", s.root)
				return nil
			}
			defer client.Close()
			return ui.PendingApprovals(m.Stdout, client)
		},
	}
}

// modeCommand switches the permission mode of a running session over the bus.
func (m *Main) modeCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "mode SESSION plan|ask|auto-edit|yolo",
		Short: "Switch the permission mode of a running session",
		Args:  cobra.ExactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			mode := strings.ToLower(args[1])
			if _, err := messages.ParseMode(mode); err != nil || mode == "" {
				return usageErr("mode %q: use plan, ask, auto-edit or yolo (see 'troupe mode --help')", args[1])
			}
			s, err := m.resolve(nil)
			if err != nil {
				return err
			}
			client, err := nodelink.Attach(s.root, s.cfg) // the running Node, never a new one
			if err != nil {
				return err
			}
			defer client.Close()
			id, err := nodelink.SessionByID(client, args[0])
			if err != nil {
				return err
			}
			if err := client.Attach(id); err != nil { // only an attached client may steer it
				return &exitError{Code: exitFailed, Msg: err.Error()}
			}
			st, err := client.SetMode(id, mode)
			if err != nil {
				return &exitError{Code: exitFailed, Msg: err.Error()}
			}
			fmt.Fprintf(m.Stdout, "session %s: mode %s\n", st.Session, st.Mode)
			return nil
		},
	}
}
