package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/llm/llmtest"
)

// systemAndRest splits an OpenAI Chat Completions request body into its system prompt and the
// rest of its messages, as JSON text.
func systemAndRest(t *testing.T, body []byte) (system, rest string) {
	t.Helper()
	var req struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("unparsable request: %v", err)
	}
	var others []string
	for _, raw := range req.Messages {
		var m struct {
			Role string `json:"role"`
		}
		json.Unmarshal(raw, &m)
		if m.Role == "system" || m.Role == "developer" {
			system += string(raw)
			continue
		}
		others = append(others, string(raw))
	}
	return system, strings.Join(others, "\n")
}

// The real binary, run from pkg/ of a git repository: the root's and pkg's AGENTS.md are in the
// stable prefix; reading pkg/x/file.go brings pkg/x/AGENTS.md into the next request once, and
// the request after carries it where it was logged, not a second time.
func TestNestedInstructionsEndToEnd(t *testing.T) {
	repo := newRepo(t, map[string]string{
		"AGENTS.md":       "ROOT-RULES: be brief.",
		"pkg/AGENTS.md":   "PKG-RULES: keep pkg free of cgo.",
		"pkg/x/AGENTS.md": "X-RULES: run go test ./pkg/x after edits.",
		"pkg/x/file.go":   "package x\n",
		"pkg/y/AGENTS.md": "Y-RULES: never needed here.",
	})
	srv := llmtest.NewOpenAI(func(n int, body map[string]any) llmtest.Reply {
		switch n {
		case 0:
			return llmtest.Reply{Calls: []llmtest.Call{{Name: "read_file", Args: `{"path":"pkg/x/file.go"}`}}}
		case 1:
			return llmtest.Reply{Calls: []llmtest.Call{{Name: "list_dir", Args: `{"path":"pkg/x"}`}}}
		}
		return llmtest.Reply{Text: "FINISHED"}
	})
	defer srv.Close()
	r := troupe(t, filepath.Join(repo, "pkg"), testEnv(t, "OPENAI_API_KEY=sk-test"),
		"run", "--json", "--model", "openai/fake", "--base-url", srv.URL(), "--mode", "yolo", "read pkg/x/file.go")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if fin := finished(t, envelopes(t, r.stdout)); fin.Final != "FINISHED" {
		t.Fatalf("final = %q", fin.Final)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	firstSystem, _ := systemAndRest(t, reqs[0].Body)
	if !strings.Contains(firstSystem, "ROOT-RULES") || !strings.Contains(firstSystem, "PKG-RULES") || strings.Contains(firstSystem, "X-RULES") {
		t.Errorf("the stable prefix of a run from pkg/ must hold the root's and pkg's instructions only:\n%s", firstSystem)
	}
	wantX := []int{0, 1, 1}
	for i, req := range reqs {
		system, rest := systemAndRest(t, req.Body)
		if system != firstSystem {
			t.Errorf("request %d: the stable prefix changed", i+1)
		}
		if n := strings.Count(rest, "X-RULES"); n != wantX[i] {
			t.Errorf("request %d carries pkg/x/AGENTS.md %d times, want %d", i+1, n, wantX[i])
		}
		if strings.Contains(rest, "PKG-RULES") || strings.Contains(string(req.Body), "Y-RULES") {
			t.Errorf("request %d repeats pkg's instructions or brings an untouched directory's", i+1)
		}
	}
}
