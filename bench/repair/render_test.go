package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/actors/turn"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/tools"
	"github.com/troupe-dev/troupe/tools/textcall"
)

// suiteSteps are the steps of the bench's task suite, each once.
func suiteSteps(t *testing.T) []Step {
	t.Helper()
	tasks, err := loadSuite("../../examples/repair/tasks.json")
	if err != nil {
		t.Fatal(err)
	}
	var steps []Step
	seen := map[string]bool{}
	for _, task := range tasks {
		for _, s := range task.Steps {
			if key := s.Name + string(s.Args); !seen[key] {
				seen[key] = true
				steps = append(steps, s)
			}
		}
	}
	return steps
}

var ourTools = map[string]bool{"read_file": true, "edit_file": true, "write_file": true, "bash": true, "list_dir": true, "grep": true}

// sameValues compares parsed arguments with the intended ones, each value passed through
// norm first.
func sameValues(got, want map[string]any, norm func(any) any) bool {
	if len(got) != len(want) {
		return false
	}
	for k, w := range want {
		g, ok := got[k]
		if !ok || !reflect.DeepEqual(norm(g), norm(w)) {
			return false
		}
	}
	return true
}

func same(v any) any { return v }

// expressible is want without the numbers and booleans got lacks: another harness's tool may
// have no such option (Gemini CLI's shell has no timeout, Claude Code's LS no depth). Every
// string argument must come through.
func expressible(want, got map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range want {
		if _, isString := v.(string); isString || got[k] != nil {
			out[k] = v
		}
	}
	return out
}

// asText is how a tag format (Qwen3-Coder, GLM) carries a value: every value as text (argument
// repair in tools/ coerces numbers and booleans by the schema).
func asText(v any) any {
	if _, ok := v.(string); ok {
		return v
	}
	return fmt.Sprint(v)
}

// glmText is a GLM value as parsed: as text, and with one trailing newline trimmed. GLM's
// template writes <arg_value>v</arg_value> with nothing around v, so a trailing newline is
// the value's own, but its parsers (tools/textcall's, like vLLM's glm4_moe) trim it.
func glmText(v any) any {
	return strings.TrimSuffix(asText(v).(string), "\n")
}

// inWorkspace maps an absolute path under the rendering root /ws to the relative one, and a
// command run in /ws (Codex's workdir) to the command.
func inWorkspace(v any) any {
	if s, ok := v.(string); ok && strings.HasPrefix(s, "cd /ws && ") {
		return strings.TrimPrefix(s, "cd /ws && ")
	}
	if s, ok := v.(string); ok && strings.HasPrefix(s, "/ws") {
		if rel := strings.TrimPrefix(strings.TrimPrefix(s, "/ws"), "/"); rel != "" {
			return rel
		}
		return "."
	}
	return v
}

// Every step of the suite written in every text format parses with tools/textcall to the
// intended call, in that format.
func TestTextFormatsParseToTheIntendedCall(t *testing.T) {
	wantFormat := map[string]textcall.Format{"fenced_json": textcall.FormatFenced, "bare_json": textcall.FormatJSON, "qwen3_coder": textcall.FormatQwen3Coder}
	known := func(name string) bool { return ourTools[name] }
	for _, format := range textFormats {
		for _, s := range suiteSteps(t) {
			args := decodeArgs(s)
			text := callText(format, s.Name, args)
			r := textcall.Parse(text, textcall.Options{Known: known})
			if len(r.Calls) != 1 {
				t.Errorf("%s %s: %d calls parsed from\n%s", format, s.Name, len(r.Calls), text)
				continue
			}
			c := r.Calls[0]
			var got map[string]any
			_ = json.Unmarshal(c.Args, &got)
			want := wantFormat[format]
			if want == "" {
				want = textcall.Format(format)
			}
			norm := same
			switch format {
			case "qwen3_coder":
				norm = asText
			case "glm":
				norm = glmText
			}
			if c.Name != s.Name || c.Format != want || !sameValues(got, args, norm) {
				t.Errorf("%s: parsed %s %s (%s), want %s %s\n%s", format, c.Name, c.Args, c.Format, s.Name, s.Args, text)
			}
		}
	}
}

// Each rendered mistake goes through the session's classifier and the real tool admission
// (name repair, argument repair, schema) to the intended call with repair on, and is not run
// with repair off. Another harness's calls troupe cannot map are the bench's real misses:
// they are logged, not asserted.
func TestRenderedMistakesAdmitToTheIntendedCall(t *testing.T) {
	reg, err := tools.NewRegistry(tools.Builtins()...)
	if err != nil {
		t.Fatal(err)
	}
	admitted := func(r *llm.Reply, repair bool) (tools.Admission, bool) {
		steer := turn.NewSteering(repair, turn.Textcall(""), reg.Knows)
		d := steer.Classifier.Classify(r, 1)
		if len(d.Calls) != 1 {
			return tools.Admission{}, false
		}
		a := reg.Admit(&tools.Env{Root: "/ws", NoRepair: !repair}, tools.Call{ID: "1", Name: d.Calls[0].Name, Args: d.Calls[0].Args})
		return a, a.Refusal == ""
	}
	var all []mistake
	for _, f := range []string{"text", "reasoning_call", "args", "tool_name"} {
		vs := variants[f]
		if len(vs) == 0 {
			vs = []string{""}
		}
		for _, v := range vs {
			all = append(all, mistake{f, v})
		}
	}
	for _, mk := range all {
		for _, s := range suiteSteps(t) {
			c := contextOf(s)
			if !mk.fits(c) {
				continue
			}
			r := render(s, mk, "c1", "/ws")
			a, ok := admitted(r, true)
			norm := same
			if mk == (mistake{"text", "glm"}) {
				norm = glmText
			}
			if mk.family == "tool_name" {
				switch {
				case a.Name == "bash" && s.Name != "bash":
					continue // Codex and OpenHands do it in the shell: a bash call, its command theirs
				case !ok || a.Name != s.Name:
					t.Logf("real miss: %s's %s for %s: %s %s %s", mk.variant, r.ToolCalls[0].Name, s.Name, a.Name, a.Args, firstLine(a.Refusal))
					continue
				}
				norm = inWorkspace
			}
			var got map[string]any
			_ = json.Unmarshal(a.Args, &got)
			want := c.args
			if mk.family == "tool_name" {
				want = expressible(c.args, got)
				if mk.variant == "codex" && s.Name == "edit_file" {
					want = hunkText(want)
				}
				for k := range got {
					if _, ok := want[k]; !ok && k == "offset" { // OpenHands' view_range [1, n]
						delete(got, k)
					}
				}
			}
			if !ok || a.Name != s.Name || !sameValues(got, want, norm) {
				t.Errorf("%s %s: admitted %v %s %s (%s), want %s", mk.key(), s.Name, ok, a.Name, a.Args, a.Refusal, s.Args)
			}
			if _, ok := admitted(render(s, mk, "c1", "/ws"), false); ok && mk.variant != "coercion" {
				t.Errorf("%s %s was run with repair off", mk.key(), s.Name)
			}
		}
	}
}

// hunkText is an edit as an apply_patch hunk maps to edit_file: whole lines joined without the
// final line break (tools/aliases_patch.go), the same edit as old and new with theirs.
func hunkText(args map[string]any) map[string]any {
	out := maps.Clone(args)
	for _, k := range []string{"old_string", "new_string"} {
		if v, ok := out[k].(string); ok {
			out[k] = strings.TrimSuffix(v, "\n")
		}
	}
	return out
}
