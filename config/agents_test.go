package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestRoleBuiltins(t *testing.T) {
	roles := BuiltinRoles()
	var names []string
	for _, r := range roles {
		names = append(names, r.Name)
		if len(r.Prompt) == 0 || len(r.Prompt) > 600 {
			t.Errorf("%s: prompt is %d bytes, want 1..600", r.Name, len(r.Prompt))
		}
		if r.Description == "" || r.Source != SourceBuiltin {
			t.Errorf("%s: description %q, source %q", r.Name, r.Description, r.Source)
		}
		if r.Mode != "" && !slices.Contains(Modes(), r.Mode) {
			t.Errorf("%s: mode %q", r.Name, r.Mode)
		}
	}
	if want := []string{"explorer", "planner", "verifier", "worker", "reviewer"}; !slices.Equal(names, want) {
		t.Fatalf("names = %v, want %v", names, want)
	}
	for _, name := range []string{"explorer", "planner", "reviewer"} {
		r, _ := FindRole(roles, name)
		if !slices.Equal(r.Tools, readOnlyTools) || r.Verdict || r.PlanSafeBash {
			t.Errorf("%s is not read-only: %+v", name, r)
		}
	}
	v, _ := FindRole(roles, "verifier")
	if !v.Verdict || !v.PlanSafeBash || !slices.Contains(v.Tools, "bash") || slices.Contains(v.Tools, "write_file") {
		t.Errorf("verifier = %+v", v)
	}
	if !strings.Contains(v.Prompt, "VERDICT: pass") || !strings.Contains(v.Prompt, "VERDICT: fail") {
		t.Errorf("verifier prompt does not name the verdict lines: %q", v.Prompt)
	}
	w, _ := FindRole(roles, "worker")
	if w.Tools != nil || w.Mode != "" {
		t.Errorf("worker should inherit the parent's tools and mode: %+v", w)
	}
	// Callers may modify what they get without touching the next caller's copy.
	roles[0].Tools[0] = "bash"
	if BuiltinRoles()[0].Tools[0] != "read_file" {
		t.Error("BuiltinRoles shares its slices between calls")
	}
}

func TestRoleParse(t *testing.T) {
	const path = ".troupe/agents/x.md"
	tests := []struct {
		name, file, content string
		want                Role   // compared when wantErr is empty
		wantErr             string // substrings, separated by "|"
	}{
		{
			name: "full", file: "docs-writer",
			content: "---\ndescription: Writes  docs\ntools: [read_file, write_file, read_file]\nmodel: openai/gpt-4o-mini\nmode: auto-edit\nmax_turns: 12\n---\n\nYou write docs.\n\n",
			want: Role{Name: "docs-writer", Description: "Writes docs", Tools: []string{"read_file", "write_file"},
				Model: "openai/gpt-4o-mini", Mode: "auto-edit", MaxTurns: 12, Prompt: "You write docs.", Source: path},
		},
		{
			name: "comma-separated tools", file: "a",
			content: "---\ntools: read_file, grep ,glob\n---\nbody",
			want:    Role{Name: "a", Tools: []string{"read_file", "grep", "glob"}, Prompt: "body", Source: path},
		},
		{
			name: "empty front matter inherits everything", file: "b_2",
			content: "---\n---\nJust a prompt.",
			want:    Role{Name: "b_2", Prompt: "Just a prompt.", Source: path},
		},
		{
			name: "null values inherit", file: "c",
			content: "---\ntools:\nmodel:\nmode:\n---\n",
			want:    Role{Name: "c", Source: path},
		},
		{
			name: "CRLF and BOM", file: "d",
			content: "\ufeff---\r\ndescription: win\r\nmcp: x\r\n---\r\nbody\r\n",
			wantErr: `line 3: unknown key "mcp"`,
		},
		{
			name: "mcp tool names", file: "e",
			content: "---\ntools:\n  - mcp__github__search\n  - grep\n---\n",
			want:    Role{Name: "e", Tools: []string{"mcp__github__search", "grep"}, Source: path},
		},
		{name: "missing front matter", file: "f", content: "You are a helper.\n", wantErr: path + ": missing front matter|---"},
		{name: "empty file", file: "f", content: "", wantErr: "missing front matter"},
		{name: "unclosed front matter", file: "f", content: "---\ndescription: x\nbody", wantErr: "not closed"},
		{
			name: "unknown key lists the known ones", file: "f",
			content: "---\ndescription: x\nmax_turn: 3\n---\n",
			wantErr: `line 3: unknown key "max_turn" (did you mean max_turns?)|known keys: description, tools, model, mode, max_turns`,
		},
		{name: "swapped letters suggest the right key", file: "f", content: "---\nmodle: a/b\n---\n", wantErr: `"modle" (did you mean model?)`},
		{name: "bad mode", file: "f", content: "---\nmode: careful\n---\n", wantErr: `line 2: mode "careful" is not a mode|plan, ask, auto-edit, yolo`},
		{
			name: "placement pins the role", file: "far",
			content: "---\nplacement: workers\n---\nbody",
			want:    Role{Name: "far", Placement: "workers", Prompt: "body", Source: path},
		},
		{name: "bad placement", file: "f", content: "---\nplacement: cloud\n---\n", wantErr: `line 2: placement "cloud" is not a placement|local, workers, auto`},
		{name: "negative max_turns", file: "f", content: "---\nmax_turns: -1\n---\n", wantErr: "line 2: max_turns is -1"},
		{name: "max_turns not a number", file: "f", content: "---\nmax_turns: lots\n---\n", wantErr: `max_turns must be a whole number, not "lots"`},
		{name: "bad name", file: "Bad Name", content: "---\n---\n", wantErr: `role name "Bad Name"|a-z, 0-9, _ and -`},
		{name: "name too long", file: strings.Repeat("a", 65), content: "---\n---\n", wantErr: "role name"},
		{name: "yaml syntax error has the file line", file: "f", content: "---\ndescription: x\ntools: [a, b\n---\n", wantErr: path + ": front matter:|line 3"},
		{name: "yaml tab indent error", file: "f", content: "---\ndescription: ok\n\tmode: ask\n---\n", wantErr: "line 3: found a tab"},
		{name: "not a mapping", file: "f", content: "---\n- a\n- b\n---\n", wantErr: "line 2: front matter must be key: value pairs"},
		{name: "duplicate key", file: "f", content: "---\nmode: ask\nmode: plan\n---\n", wantErr: "mode"},
		{name: "empty tools list", file: "f", content: "---\ntools: []\n---\n", wantErr: "tools is empty"},
		{name: "bad tool name", file: "f", content: "---\ntools: [read file]\n---\n", wantErr: `"read file", which is not a tool name`},
		{name: "nested tools", file: "f", content: "---\ntools: [[a]]\n---\n", wantErr: "tools must list tool names"},
		{name: "tools as a map", file: "f", content: "---\ntools: {a: b}\n---\n", wantErr: "tools must be a list"},
		{name: "bad model", file: "f", content: "---\nmodel: gpt-4o\n---\n", wantErr: `line 2: model "gpt-4o" must be provider/model`},
		{name: "description as a list", file: "f", content: "---\ndescription: [a]\n---\n", wantErr: "description must be a single value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseRole(tt.file, path, []byte(tt.content))
			if tt.wantErr != "" {
				if err == nil {
					t.Fatalf("no error; got %+v", got)
				}
				for _, want := range strings.Split(tt.wantErr, "|") {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("error %q does not contain %q", err, want)
					}
				}
				if !strings.HasPrefix(err.Error(), path+": ") {
					t.Errorf("error %q does not start with the file", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Name != tt.want.Name || got.Description != tt.want.Description || !slices.Equal(got.Tools, tt.want.Tools) ||
				(got.Tools == nil) != (tt.want.Tools == nil) || got.Model != tt.want.Model || got.Mode != tt.want.Mode ||
				got.MaxTurns != tt.want.MaxTurns || got.Prompt != tt.want.Prompt || got.Source != tt.want.Source ||
				got.Verdict || got.PlanSafeBash {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// writeRoles writes files under <root>/.troupe/agents and returns root.
func writeRoles(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, AgentsDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestRoleLoad(t *testing.T) {
	builtins := []string{"explorer", "planner", "verifier", "worker", "reviewer"}
	tests := []struct {
		name      string
		files     map[string]string // nil: no .troupe/agents at all
		wantNames []string
		wantErr   []string
	}{
		{name: "no directory", wantNames: builtins},
		{name: "empty directory", files: map[string]string{}, wantNames: builtins},
		{
			name: "custom roles after the builtins, sorted",
			files: map[string]string{
				"zeta.md": "---\ndescription: z\n---\nz", "alpha.md": "---\ndescription: a\n---\na",
				"notes.txt": "ignored", ".#alpha.md": "editor lock", "README": "ignored",
			},
			wantNames: append(slices.Clone(builtins), "alpha", "zeta"),
		},
		{
			name:      "override keeps the builtin's place",
			files:     map[string]string{"planner.md": "---\nmodel: openai/gpt-4o-mini\n---\nMy planner."},
			wantNames: builtins,
		},
		{
			name: "every bad file is reported; good ones still load",
			files: map[string]string{
				"good.md": "---\n---\nok", "bad1.md": "no front matter", "bad2.md": "---\nmode: nope\n---\n",
			},
			wantNames: append(slices.Clone(builtins), "good"),
			wantErr:   []string{"bad1.md: missing front matter", "bad2.md: line 2: mode"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			if tt.files != nil {
				root = writeRoles(t, tt.files)
			}
			roles, err := LoadRoles(root)
			var names []string
			for _, r := range roles {
				names = append(names, r.Name)
			}
			if !slices.Equal(names, tt.wantNames) {
				t.Errorf("names = %v, want %v", names, tt.wantNames)
			}
			if len(tt.wantErr) == 0 && err != nil {
				t.Fatal(err)
			}
			for _, want := range tt.wantErr {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("error %v does not contain %q", err, want)
				}
			}
		})
	}

	t.Run("override replaces the builtin entirely", func(t *testing.T) {
		root := writeRoles(t, map[string]string{"verifier.md": "---\ndescription: mine\ntools: read_file\n---\nMy verifier."})
		roles, err := LoadRoles(root)
		if err != nil {
			t.Fatal(err)
		}
		v, err := FindRole(roles, "verifier")
		if err != nil {
			t.Fatal(err)
		}
		wantSource := filepath.Join(root, AgentsDir, "verifier.md")
		if v.Prompt != "My verifier." || v.Description != "mine" || v.Verdict || v.PlanSafeBash ||
			!slices.Equal(v.Tools, []string{"read_file"}) || v.Source != wantSource {
			t.Errorf("verifier = %+v", v)
		}
	})
}

func TestRoleFind(t *testing.T) {
	roles := BuiltinRoles()
	if r, err := FindRole(roles, "reviewer"); err != nil || r.Name != "reviewer" {
		t.Fatalf("FindRole(reviewer) = %+v, %v", r, err)
	}
	_, err := FindRole(roles, "explorr")
	if err == nil {
		t.Fatal("no error for an unknown role")
	}
	for _, want := range []string{`unknown agent type "explorr"`, `did you mean "explorer"`, "explorer, planner, verifier, worker, reviewer"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
	if _, err := FindRole(roles, "gardener"); err == nil || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("unrelated name: %v", err)
	}
}

func TestRoleStricterMode(t *testing.T) {
	tests := []struct{ a, b, want string }{
		{"", "", ""},
		{"", "ask", "ask"},
		{"yolo", "", "yolo"},
		{"yolo", "plan", "plan"},
		{"auto-edit", "ask", "ask"},
		{"ask", "auto-edit", "ask"},
		{"yolo", "yolo", "yolo"},
		{"bogus", "yolo", "plan"},
	}
	for _, tt := range tests {
		if got := StricterMode(tt.a, tt.b); got != tt.want {
			t.Errorf("StricterMode(%q, %q) = %q, want %q", tt.a, tt.b, got, tt.want)
		}
	}
}
