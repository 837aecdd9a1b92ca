package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/llm/llmtest"
	"github.com/troupe-dev/troupe/messages"
)

// A call written as text runs, is announced as a repair, and is counted in troupe stats; with
// --no-repair the same reply is just the final answer.
func TestTextCallIsRepairedAndCountedInStats(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	model := writeScript(t, repo, `{"turns": [
		{"text": "<tool_call>{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.txt\"}}</tool_call>"},
		{"expect": "alpha", "tool_calls": [{"name": "read_file", "args": {"path": "a.txt"}}]},
		{"text": "it says alpha"}]}`)
	r := troupe(t, repo, testEnv(t), "run", "--json", "--model", model, "go")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	envs := envelopes(t, r.stdout)
	if !strings.Contains(strings.Join(types(envs), " "), string(messages.EventToolRepaired)) {
		t.Fatalf("no tool.repaired event in %v", types(envs))
	}
	st := troupe(t, repo, testEnv(t), "stats")
	if st.code != 0 || !strings.Contains(st.stdout, "50% of 2 calls repaired: 1 text format") {
		t.Fatalf("stats: exit %d\n%s%s", st.code, st.stdout, st.stderr)
	}
	js := troupe(t, repo, testEnv(t), "stats", "--json")
	var rec struct {
		Calls, Repaired int
		ByKind          map[string]int `json:"by_kind"`
	}
	if err := json.Unmarshal([]byte(js.stdout), &rec); err != nil || rec.Calls != 2 || rec.Repaired != 1 || rec.ByKind["text_format"] != 1 {
		t.Fatalf("stats --json: %q (%v)", js.stdout, err)
	}

	off := troupe(t, repo, testEnv(t), "run", "--json", "--no-repair", "--model", model, "go")
	if off.code != 0 {
		t.Fatalf("--no-repair: exit %d: %s", off.code, off.stderr)
	}
	if fin := finished(t, envelopes(t, off.stdout)); !strings.Contains(fin.Final, "<tool_call>") {
		t.Fatalf("--no-repair ran the text call: %+v", fin)
	}
}

func TestStatsOnAFreshProjectSaysHowToGetSome(t *testing.T) {
	repo := newRepo(t, nil)
	r := troupe(t, repo, testEnv(t), "stats")
	if r.code != 0 || !strings.Contains(r.stderr, "no tool calls counted yet") {
		t.Fatalf("exit %d: %q %q", r.code, r.stdout, r.stderr)
	}
}

// People see the prose and the repaired call, not the call's raw markup streamed before it;
// with repair off the same markup is the answer, and prints whole.
func TestHumanOutputShowsTheRepair(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	model := writeScript(t, repo, `{"turns": [
		{"text": "Let me read it.\n<tool_call>{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.txt\"}}</tool_call>"},
		{"expect": "alpha", "text": "it says alpha"}]}`)
	r := troupe(t, repo, testEnv(t), "run", "--model", model, "go")
	if r.code != 0 || !strings.Contains(r.stdout, "↻ repaired text format:") || !strings.Contains(r.stdout, `read_file {"path":"a.txt"}`) ||
		!strings.Contains(r.stdout, "Let me read it.") || strings.Contains(r.stdout, "<tool_call>{") {
		t.Fatalf("want the prose and the repair line, not the raw markup: exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	off := troupe(t, repo, testEnv(t), "run", "--no-repair", "--model", model, "go")
	if off.code != 0 || !strings.Contains(off.stdout, "Let me read it.\n<tool_call>{") {
		t.Fatalf("--no-repair must print the reply whole: exit %d:\n%s%s", off.code, off.stdout, off.stderr)
	}
}

// A repaired call's ✓ line shows the result's own summary; the repair is on its own ↻ line
// (the note to the model is not the summary).
func TestRepairedCallKeepsItsResultSummary(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\nbeta\n"})
	model := writeScript(t, repo, `{"turns": [
		{"tool_calls": [{"name": "read_file", "args": {"file_path": "a.txt"}}]},
		{"expect": "alpha", "text": "it says alpha"}]}`)
	r := troupe(t, repo, testEnv(t), "run", "--model", model, "read")
	if r.code != 0 || !strings.Contains(r.stdout, "↻ repaired arg alias:") || !strings.Contains(r.stdout, "✓ 2 lines") ||
		strings.Contains(r.stdout, "✓ note:") {
		t.Fatalf("exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// A server that bends the wire (Ollama's finish_reason "stop" on a reply holding a call, no
// usage) is read anyway, and says so: wire.quirk events in the run, counts in troupe stats.
func TestWireQuirksAreEventsAndCountedInStats(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "alpha\n"})
	body := func(delta, finish string) string {
		return `data: {"model":"m","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + finish + "}]}\n\n"
	}
	call := body(`{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a.txt\"}"}}]}`, "null") +
		body(`{}`, `"stop"`) + "data: [DONE]\n\n"
	answer := body(`{"content":"it says alpha"}`, `"stop"`) + "data: [DONE]\n\n"
	srv := llmtest.NewReplay(llmtest.Fixture{ContentType: "text/event-stream", Body: []byte(call)},
		llmtest.Fixture{ContentType: "text/event-stream", Body: []byte(answer)})
	defer srv.Close()
	r := troupe(t, repo, testEnv(t, "OPENAI_API_KEY=sk-test"), "run", "--json", "--model", "openai/fake",
		"--base-url", srv.URL(), "--mode", "yolo", "read a.txt")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var quirks []string
	for _, e := range envelopes(t, r.stdout) {
		if e.Type == messages.EventWireQuirk {
			var d messages.WireQuirkData
			if err := json.Unmarshal(e.Data, &d); err != nil {
				t.Fatal(err)
			}
			quirks = append(quirks, d.Quirk)
		}
	}
	if got := strings.Join(quirks, " "); !strings.Contains(got, "finish_stop_with_calls") || !strings.Contains(got, "no_usage") {
		t.Fatalf("wire.quirk events %q, want finish_stop_with_calls and no_usage", got)
	}
	st := troupe(t, repo, testEnv(t), "stats")
	if st.code != 0 || !strings.Contains(st.stdout, "openai/fake: wire quirks read leniently: 2 no_usage, 1 finish_stop_with_calls") {
		t.Fatalf("stats: exit %d\n%s%s", st.code, st.stdout, st.stderr)
	}
}
