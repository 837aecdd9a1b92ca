package ui

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/troupe-dev/troupe/messages"
)

// The listings of troupe sessions, log and agents.

// SessionTable writes the project's sessions, one line each, newest first as given.
func SessionTable(w io.Writer, metas []messages.SessionInfo) error {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATUS\tTURNS\tMODEL\tUPDATED\tTASK")
	for _, meta := range metas {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", meta.ID, meta.Status, meta.Turns, meta.Model,
			meta.Updated.Local().Format("2006-01-02 15:04"), textfmt.ClipLine(meta.Task, 60))
	}
	return tw.Flush()
}

// LogEntry is one log entry for people: seq, time, kind, and its content.
func LogEntry(e messages.LogEntry) string {
	head := fmt.Sprintf("#%-4d %s %-11s", e.Seq, e.Time.Local().Format("15:04:05"), e.Kind)
	var b strings.Builder
	b.WriteString(head)
	switch e.Kind {
	case "assistant":
		fmt.Fprintf(&b, " [%s]", e.Model)
		if e.Text != "" {
			b.WriteString(" " + indent(e.Text))
		}
		for _, c := range e.Calls {
			fmt.Fprintf(&b, "\n      call %s %s(%s)", c.ID, c.Name, textfmt.ClipLine(c.Args, 200))
		}
	case "tool_result":
		mark := "ok"
		if e.IsError {
			mark = "error"
		}
		fmt.Fprintf(&b, " %s %s %s: %s", e.CallID, e.ToolName, mark, indent(textfmt.Clip(e.Text, 800)))
	case "system":
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
		return fmt.Sprintf("%s: %s", d.Decision, textfmt.ClipLine(d.Reason, 300))
	case d.Mode != "":
		return "mode " + d.Mode
	}
	return ""
}

// Roles writes one line per role: what a user needs to pick one or to check an override.
func Roles(w io.Writer, root string, roles []config.Role) error {
	builtins := map[string]bool{}
	for _, r := range config.BuiltinRoles() {
		builtins[r.Name] = true
	}
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSOURCE\tMODEL\tTOOLS\tDESCRIPTION")
	for _, r := range roles {
		source := r.Source
		if source != config.SourceBuiltin {
			if rel, err := filepath.Rel(root, source); err == nil && !strings.HasPrefix(rel, "..") {
				source = rel
			}
			if builtins[r.Name] {
				source += " (overrides builtin)"
			}
		}
		model := r.Model
		if model == "" {
			model = "parent's"
		}
		tools := "parent's tools"
		if r.Tools != nil {
			list := slices.Clone(r.Tools)
			if i := slices.Index(list, "bash"); i >= 0 && r.PlanSafeBash {
				list[i] = "bash (plan-safe)"
			}
			tools = strings.Join(list, ", ")
		}
		desc := r.Description
		if desc == "" {
			desc = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Name, source, model, tools, desc)
	}
	return tw.Flush()
}
