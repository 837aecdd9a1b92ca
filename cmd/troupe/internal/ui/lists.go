package ui

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/troupe-dev/troupe/actors/turn"
	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/internal/textfmt"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

// The listings of troupe sessions, log and agents.

// SessionList prints a project's sessions: one JSON object per session with asJSON, else the
// table, or a line on errw saying how to start one when there are none.
func SessionList(w, errw io.Writer, metas []messages.SessionInfo, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		for i := range metas {
			if err := enc.Encode(&metas[i]); err != nil {
				return err
			}
		}
		return nil
	}
	if len(metas) == 0 {
		fmt.Fprintln(errw, "no sessions yet: start one with troupe run \"task\" or troupe chat")
		return nil
	}
	return SessionTable(w, metas)
}

// SessionTable writes the project's sessions, one line each, newest first as given.
func SessionTable(w io.Writer, metas []messages.SessionInfo) error {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATUS\tTURNS\tMODEL\tUPDATED\tTASK")
	for _, meta := range metas {
		task := textfmt.ClipLine(meta.Task, 60)
		if meta.Error != "" { // why it failed, stopped or was cancelled, without opening its log
			task += " — " + textfmt.ClipLine(meta.Error, 80)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", meta.ID, meta.Status, meta.Turns, meta.Model,
			meta.Updated.Local().Format("2006-01-02 15:04"), task)
	}
	return tw.Flush()
}

// LogEntry is one log entry for people: seq, time, kind, and its content.
func LogEntry(e messages.LogEntry) string {
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
			fmt.Fprintf(&b, "\n      call %s %s(%s)", c.ID, c.Name, textfmt.ClipLine(c.Args, 200))
		}
	case messages.LogToolResult:
		mark := "ok"
		if e.IsError {
			mark = "error"
		}
		fmt.Fprintf(&b, " %s %s %s: %s", e.CallID, e.ToolName, mark, indent(textfmt.Clip(e.Text, 800)))
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

// auditDetail renders a decision or mode entry: "allowed (mode yolo)", "denied by user: …".
func auditDetail(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var d struct {
		Decision, Reason, By, Mode string
		Status, Error              string // session.finished: why the session ended
	}
	if json.Unmarshal(raw, &d) != nil {
		return ""
	}
	switch {
	case d.Error != "":
		return fmt.Sprintf("%s: %s", d.Status, d.Error)
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

// PendingApprovals writes the calls waiting for an approval answer in the running sessions,
// each with its session and reason, and how to answer.
func PendingApprovals(w io.Writer, src SessionSource) error {
	metas, err := src.Sessions()
	if err != nil {
		return err
	}
	n := 0
	for _, meta := range metas {
		if meta.Status != string(messages.StatusRunning) {
			continue
		}
		st, err := src.Status(meta.ID)
		if err != nil {
			continue // it ended meanwhile
		}
		for _, ask := range st.Pending {
			n++
			fmt.Fprintf(w, "%s  session %s  %s\n", ask.CallID, meta.ID, ApprovalLine(ask.Summary))
			if ask.Reason != "" {
				fmt.Fprintf(w, "    %s\n", ask.Reason)
			}
		}
	}
	if n == 0 {
		fmt.Fprintln(w, "no tool call is waiting for approval")
		return nil
	}
	fmt.Fprintln(w, "answer with: troupe approve CALL_ID allow|deny|allow-session")
	return nil
}

// SessionLog writes a stored session for people: a header, then one entry per line.
func SessionLog(w io.Writer, meta *messages.SessionInfo, entries []messages.LogEntry) {
	fmt.Fprintf(w, "session %s · %s · %s · %s · %d in / %d out tokens\n", meta.ID, meta.Status, meta.Model,
		textfmt.Count(meta.Turns, "turn"), meta.InputTokens, meta.OutputTokens)
	for _, e := range entries {
		fmt.Fprintln(w, LogEntry(e))
	}
}

// RepairStats writes, per model, what troupe repaired in its tool calls: one JSON object a
// model with asJSON, else one line a model (and a hint on stderr when nothing was counted).
func RepairStats(stdout, stderr io.Writer, stats []messages.RepairCounts, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(stdout)
		for _, r := range stats {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		return nil
	}
	if len(stats) == 0 {
		fmt.Fprintln(stderr, "no tool calls counted yet: run a session with troupe run \"task\" or troupe chat")
		return nil
	}
	for _, r := range stats {
		if r.Calls > 0 || len(r.ByKind) > 0 {
			fmt.Fprintln(stdout, turn.RepairLine(store.RepairStats(r)))
		}
		if line := WireLine(r.Model, r.Wire); line != "" {
			fmt.Fprintln(stdout, line)
		}
	}
	return nil
}

// RepairReport writes what doctor --repair kept and lost of the store at dir.
func RepairReport(w io.Writer, rep *store.RepairReport, dir string) {
	fmt.Fprintf(w, "backed up the store to %s\n", rep.Backup)
	fmt.Fprintf(w, "salvaged %d keys; %d values failed verification and were left out", rep.Kept, rep.Lost)
	if len(rep.BadTables) > 0 {
		fmt.Fprintf(w, "; %d damaged table files were skipped (%v)", len(rep.BadTables), rep.BadTables)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "the store at %s is rebuilt; troupe sessions lists what it holds\n", dir)
}
