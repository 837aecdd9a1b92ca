package tools

import (
	"encoding/json"
	"errors"
	"io/fs"
	"net/url"
	"os"
	"strings"

	"github.com/aymanbagabas/go-udiff"
)

// approvalSummaryMax bounds what a human is shown for one call.
const approvalSummaryMax = 2 << 10

// ApprovalSummary is the bounded description of a call a human approves: what it touches and
// how. Its JSON matches messages.ApprovalSummary.
type ApprovalSummary struct {
	Tool      string `json:"tool"`
	Path      string `json:"path,omitempty"`
	Operation string `json:"operation,omitempty"` // create, overwrite, edit, run, run in background, or the risk
	Size      int    `json:"size,omitempty"`      // bytes written, for writes
	Diff      string `json:"diff,omitempty"`      // a bounded diff preview, for edits and overwrites
	Command   string `json:"command,omitempty"`   // for bash
	// Pattern is what "allow for this session" adds to the session allowlist.
	Pattern string `json:"pattern,omitempty"`
}

// Summary describes a validated call for an approval request, within 2 KiB. root is the
// workspace root, for the diff of an edit or an overwrite.
func Summary(spec Spec, args json.RawMessage, root string) ApprovalSummary {
	s := ApprovalSummary{Tool: spec.Name, Operation: string(spec.Risk), Pattern: SessionPattern(spec, args)}
	switch spec.Name {
	case "bash":
		var a bashArgs
		_ = json.Unmarshal(args, &a)
		s.Operation, s.Command = "run", a.Command
		if a.Background {
			s.Operation = "run in background"
		}
	case "write_file":
		var a writeFileArgs
		_ = json.Unmarshal(args, &a)
		s.Path, s.Size, s.Operation = a.Path, len(a.Content), "create"
		if old, ok := currentText(root, a.Path); ok {
			s.Operation = "overwrite"
			s.Diff = udiff.Unified("a/"+a.Path, "b/"+a.Path, old, a.Content)
		}
	case "edit_file":
		var a editFileArgs
		_ = json.Unmarshal(args, &a)
		s.Path, s.Operation = a.Path, "edit"
		if old, ok := currentText(root, a.Path); ok {
			e := planEdit(old, a)
			s.Size = len(e.after)
			s.Diff = udiff.Unified("a/"+a.Path, "b/"+a.Path, e.before, e.after)
		}
	default:
		if subject, ok := mainArg(spec, args); ok && len(spec.PathArgs) > 0 {
			s.Path = subject
		}
	}
	return s.bounded()
}

// currentText reads a workspace file for a preview; ok is false when it does not exist or
// cannot be read (the tool will say why when it runs).
func currentText(root, p string) (string, bool) {
	abs, _, err := ResolvePath(root, p)
	if err != nil {
		return "", false
	}
	info, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) || err != nil || !info.Mode().IsRegular() || info.Size() > fileBaselineMax {
		return "", err == nil
	}
	data, err := os.ReadFile(abs)
	return string(data), err == nil
}

// bounded cuts the long fields so the whole summary stays within approvalSummaryMax.
func (s ApprovalSummary) bounded() ApprovalSummary {
	s.Command, _ = boundText(s.Command, approvalSummaryMax/2)
	s.Path, _ = boundText(s.Path, 256)
	s.Pattern, _ = boundText(s.Pattern, 256)
	room := approvalSummaryMax - len(s.Tool) - len(s.Path) - len(s.Operation) - len(s.Command) - len(s.Pattern) - 64
	s.Diff, _ = boundText(s.Diff, max(room, 2*markerReserve))
	return s
}

// SessionPattern is the pattern an "allow for this session" answer adds: the exact command
// for bash, the exact path for tools with a path, else the bare tool name.
func SessionPattern(spec Spec, args json.RawMessage) string {
	subject, ok := mainArg(spec, args)
	switch {
	case !ok:
		return spec.Name
	case spec.Name == "bash":
		return "bash(" + escapeCommandGlob(normalizeCommand(subject)) + ")"
	case len(spec.PathArgs) > 0:
		return spec.Name + "(" + escapePathGlob(subject) + ")"
	case spec.Risk == RiskNetwork:
		// A network tool is approved per host: the ask covers the host, not one URL.
		if u, err := url.Parse(subject); err == nil && u.Hostname() != "" {
			return spec.Name + "(domain:" + strings.ToLower(u.Hostname()) + ")"
		}
	}
	return spec.Name
}
