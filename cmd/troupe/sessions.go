package main

import (
	"encoding/json"
	"fmt"
	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/internal/textfmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/troupe-dev/troupe/messages"
)

func (m *Main) sessionsCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "sessions",
		Short: "List this project's sessions, newest first",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return m.withNode(func(client *actors.Client) error {
				metas, err := client.Sessions()
				if err != nil {
					return err
				}
				if len(metas) == 0 {
					fmt.Fprintln(m.Stderr, "no sessions yet: start one with troupe run \"task\" or troupe chat")
					return nil
				}
				tw := tabwriter.NewWriter(m.Stdout, 2, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "ID\tSTATUS\tTURNS\tMODEL\tUPDATED\tTASK")
				for _, meta := range metas {
					fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", meta.ID, meta.Status, meta.Turns, meta.Model,
						meta.Updated.Local().Format("2006-01-02 15:04"), clipLine(meta.Task, 60))
				}
				return tw.Flush()
			})
		},
	}
}

func (m *Main) logCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "log ID",
		Short: "Show a session's stored log: every message, tool call and result",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return m.withNode(func(client *actors.Client) error {
				id, err := sessionByID(client, args[0])
				if err != nil {
					return err
				}
				meta, entries, err := client.Log(id)
				if err != nil {
					return usageErr("log %s: %v (see 'troupe sessions')", args[0], err)
				}
				fmt.Fprintf(m.Stdout, "session %s · %s · %s · %s · %d in / %d out tokens\n", meta.ID, meta.Status, meta.Model,
					textfmt.Count(meta.Turns, "turn"), meta.InputTokens, meta.OutputTokens)
				for _, e := range entries {
					fmt.Fprintln(m.Stdout, formatEntry(e))
				}
				return nil
			})
		},
	}
}

// formatEntry is one log entry for people: seq, time, kind, and its content.
func formatEntry(e messages.LogEntry) string {
	head := fmt.Sprintf("#%-4d %s %-11s", e.Seq, e.Time.Local().Format("15:04:05"), e.Kind)
	var b strings.Builder
	b.WriteString(head)
	switch e.Kind {
	case messages.LogAssistant:
		fmt.Fprintf(&b, " [%s]", e.Model)
		if e.Text != "" {
			b.WriteString(" " + indent(e.Text))
		}
		for _, c := range e.Calls {
			fmt.Fprintf(&b, "\n      call %s %s(%s)", c.ID, c.Name, clipLine(c.Args, 200))
		}
	case messages.LogToolResult:
		mark := "ok"
		if e.IsError {
			mark = "error"
		}
		fmt.Fprintf(&b, " %s %s %s: %s", e.CallID, e.ToolName, mark, indent(clip(e.Text, 800)))
	case messages.LogSystem:
		fmt.Fprintf(&b, " %s", e.Event)
		if e.CallID != "" {
			fmt.Fprintf(&b, " %s %s", e.CallID, e.ToolName)
		}
		if d := auditDetail(e.Data); d != "" {
			b.WriteString(" " + d)
		}
		if e.Text != "" {
			b.WriteString(" " + indent(e.Text))
		}
	default:
		b.WriteString(" " + indent(e.Text))
	}
	return b.String()
}

func indent(s string) string { return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n      ") }

func clipLine(s string, n int) string { return textfmt.ClipLine(s, n) }

func clip(s string, n int) string { return textfmt.Clip(s, n) }

// auditDetail renders a decision or mode entry: "allowed (mode yolo)", "denied by user: …".
func auditDetail(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var d struct {
		Decision, Reason, By, Mode string
	}
	if json.Unmarshal(raw, &d) != nil {
		return ""
	}
	switch {
	case d.Decision != "" && d.By != "":
		return fmt.Sprintf("%s by %s: %s", d.Decision, d.By, d.Reason)
	case d.Decision != "":
		return fmt.Sprintf("%s: %s", d.Decision, clipLine(d.Reason, 300))
	case d.Mode != "":
		return "mode " + d.Mode
	}
	return ""
}
