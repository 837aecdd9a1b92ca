package actors

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/actors/projection"
	"github.com/troupe-dev/troupe/config"
	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
	"github.com/troupe-dev/troupe/tools"
)

// fakeHost is a commandHost without an actor system: Snapshot returns snap, Later runs its
// work at once (or times out, with late), and the changes a command asks for are recorded.
type fakeHost struct {
	snap     commandSnapshot
	busy     bool
	timedOut error
	answers  []string // what Later and Delegate answered
	calls    []string // the changes asked for, in order

	modeErr  error
	reset    projection.Boundary
	resetOK  bool
	resetErr error
	setupErr error
	applyErr error
}

func (f *fakeHost) Snapshot() commandSnapshot { return f.snap }
func (f *fakeHost) Idle() bool                { return !f.busy }

func (f *fakeHost) Later(_ time.Duration, work func() func() string, late func(error) string) {
	if f.timedOut != nil {
		f.answers = append(f.answers, late(f.timedOut))
		return
	}
	f.answers = append(f.answers, work()())
}

func (f *fakeHost) Delegate(req *messages.SpawnAgent, _ time.Duration, answer func(any, error) string) {
	f.calls = append(f.calls, "delegate "+req.TaskName+" "+req.AgentType)
	f.answers = append(f.answers, answer(&messages.SpawnAccepted{Handle: "root/" + req.TaskName, Model: "m", State: messages.AgentRunning}, nil))
}

func (f *fakeHost) Goal(arg string) string {
	f.calls = append(f.calls, "goal "+arg)
	return "goal cleared: x"
}
func (f *fakeHost) Compact(focus string) string {
	f.calls = append(f.calls, "compact "+focus)
	return "compacting"
}

func (f *fakeHost) SwitchMode(mode messages.Mode, by string) error {
	f.calls = append(f.calls, "mode "+string(mode)+" by "+by)
	if f.modeErr == nil {
		f.snap.Permissions.Mode = mode
	}
	return f.modeErr
}

func (f *fakeHost) ResetContext(keepGoal bool) (projection.Boundary, bool, error) {
	f.calls = append(f.calls, map[bool]string{true: "reset keep goal", false: "reset"}[keepGoal])
	return f.reset, f.resetOK, f.resetErr
}

func (f *fakeHost) UseSkill(sk *tools.LoadedSkill) error {
	f.calls = append(f.calls, "skill "+sk.Name)
	return nil
}

func (f *fakeHost) SetupFor(model, promptMode string) func() (*SessionSetup, error) {
	return func() (*SessionSetup, error) {
		f.calls = append(f.calls, "setup "+model+" "+promptMode)
		return &SessionSetup{Model: model}, f.setupErr
	}
}

func (f *fakeHost) PromptModes() func() ([]config.PromptMode, error) {
	return func() ([]config.PromptMode, error) {
		return []config.PromptMode{{Name: "code", Description: "writes"}, {Name: "plan", Description: "reads", Tools: []string{"read_file"}}}, nil
	}
}

func (f *fakeHost) ApplySetup(setup *SessionSetup, model, promptMode, by string) error {
	f.calls = append(f.calls, "apply "+model+" "+promptMode+" by "+by)
	if f.applyErr == nil {
		f.snap.Model.Model, f.snap.Model.Wire, f.snap.Model.PromptMode = setup.Model, model, promptMode
	}
	return f.applyErr
}

func (f *fakeHost) Emit(p messages.Payload)      { f.calls = append(f.calls, "emit "+string(p.EventType())) }
func (f *fakeHost) AuditSnapshot() *sessionAudit { return &sessionAudit{} }
func (f *fakeHost) Probes() auditProbes          { return auditProbes{} }

// describedSandbox is a sandbox that says what it is, as the node's does.
type describedSandbox struct{}

func (describedSandbox) Wrap(*exec.Cmd, *tools.Env) error { return nil }
func (describedSandbox) Describe() string                 { return "landlock (ABI 5)" }

// baseSnapshot is a session two turns in, with one child done and one running.
func baseSnapshot() commandSnapshot {
	return commandSnapshot{
		Phase: messages.PhaseIdle,
		Status: &messages.StatusReply{Session: "s-20260101-abcd", Phase: messages.PhaseIdle, Model: "openai/gpt-4o-mini",
			Mode: messages.ModeAsk, Turns: 2, InputTokens: 1200, OutputTokens: 300, ContextTokens: 2500, ContextWindow: 10000,
			Goal: &messages.Goal{Objective: "ship it", Status: messages.GoalActive}},
		Session: sessionFacts{ID: "s-20260101-abcd", Workspace: "/w", Agent: "root", Turns: 2, Items: 7, LastSeq: 9, Events: 31},
		Usage:   store.SessionMeta{ID: "s-20260101-abcd", Model: "openai/gpt-4o-mini", InputTokens: 1000, OutputTokens: 100},
		Agents: []agentRow{
			{Task: "find_a", Role: "explorer", State: messages.AgentDone, Turns: 2, Elapsed: 2 * time.Second, Summary: "looked\nalpha is at a.txt:1"},
			{Task: "fix_b", Role: "worker", State: messages.AgentRunning, Turns: -1, Elapsed: 65 * time.Second},
		},
		Permissions: permissionFacts{Mode: messages.ModeAsk, Allow: []string{"bash(go test*)"}, Deny: []string{"bash(rm*)"}, Session: []string{"bash(make*)"}},
		Tools: []llm.ToolSpec{{Name: "read_file", Description: "Read a file. It returns numbered lines."},
			{Name: "bash", Description: "Run a command."}},
		Narrowed:    []NarrowedTool{{Name: "write_file", By: "prompt mode plan"}},
		Skills:      []config.Skill{{Name: "release", Description: "Cut a release. Tags and notes.", Source: "/w/.agents/skills/release", AllowedTools: []string{"read_file", "bash"}}},
		ActiveSkill: "",
		Model: modelFacts{Model: "openai/gpt-4o-mini", Name: "gpt-4o-mini", Wire: "openai/gpt-4o-mini", Window: 10000,
			PromptMode: "code", CanSwitch: true, CanSwitchPrompt: true},
		ProjectRoot: "/w",
	}
}

// TestReadOnlyCommandsAreFunctionsOfTheSnapshot runs each read-only command through the table
// against a snapshot value: what it shows is what the snapshot holds, and nothing is changed.
func TestReadOnlyCommandsAreFunctionsOfTheSnapshot(t *testing.T) {
	cases := []struct {
		name, input string
		edit        func(*commandSnapshot)
		want        []string // lines or parts of the output, in order
		not         []string
	}{
		{name: "status", input: "/status",
			want: []string{"session     s-20260101-abcd", "mode        ask", "context     25% (2500 of 10000 tokens)",
				"tokens      1200 in, 300 out over 2 turns", "goal        ship it (active)", "instructions none"}},
		{name: "status without a goal", input: "/status", edit: func(s *commandSnapshot) { s.Status.Goal = nil; s.Status.ContextWindow = 0 },
			want: []string{"context     0% (2500 of 0 tokens)", "goal        none"}},
		{name: "session", input: "/session",
			want: []string{"session     s-20260101-abcd (short abcd, agent root)", "workspace   /w", "started     not recorded",
				"log         7 entries in the model's view (last seq 9); 31 events emitted", "troupe resume abcd", "troupe attach abcd"}},
		{name: "agents", input: "/agents",
			want: []string{"TASK", "find_a", "explorer", "done", "alpha is at a.txt:1", "fix_b", "running", "1m5s"}, not: []string{"looked"}},
		{name: "no agents", input: "/agents", edit: func(s *commandSnapshot) { s.Agents = nil }, want: []string{"no agents yet"}},
		{name: "permissions", input: "/permissions",
			want: []string{"mode        ask", "allow       bash(go test*)", "ask         none", "deny        bash(rm*)",
				"this session bash(make*)", "sandbox     off: commands run unconfined"}},
		{name: "permissions under a sandbox", input: "/permissions", edit: func(s *commandSnapshot) { s.Sandbox = describedSandbox{}; s.Permissions.Session = nil },
			want: []string{"this session none", "sandbox     landlock (ABI 5)"}},
		{name: "tools", input: "/tools",
			want: []string{"tools (2):", "read_file      Read a file.", "bash           Run a command.", "narrowed away:", "write_file     by prompt mode plan"},
			not:  []string{"numbered lines", "skill release is active"}},
		{name: "tools with a skill active", input: "/tools", edit: func(s *commandSnapshot) { s.ActiveSkill = "release" },
			want: []string{"skill release is active: only read_file, bash may run"}},
		{name: "tools with an unknown skill active", input: "/tools", edit: func(s *commandSnapshot) { s.ActiveSkill = "gone" },
			not: []string{"is active"}},
		{name: "skills", input: "/skills", want: []string{"skills (1; /skills NAME loads one):", "   release", "Cut a release.", "/w/.agents/skills/release"}},
		{name: "skills marks the active one", input: "/skills", edit: func(s *commandSnapshot) { s.ActiveSkill = "release" }, want: []string{" * release"}},
		{name: "no skills", input: "/skills", edit: func(s *commandSnapshot) { s.Skills = nil }, want: []string{"no skills: put SKILL.md folders"}},
		{name: "model", input: "/model",
			want: []string{"model       openai/gpt-4o-mini (asked for as gpt-4o-mini)", "endpoint    the provider's default endpoint",
				"context     10000 tokens", "/model NAME switches"}},
		{name: "model that cannot switch", input: "/model", edit: func(s *commandSnapshot) { s.Model.CanSwitch = false; s.Model.BaseURL = "http://127.0.0.1:8080/v1" },
			want: []string{"endpoint    127.0.0.1:8080", "troupe resume ID --model NAME"}},
		{name: "mode", input: "/mode", want: []string{"mode ask (switch with /mode plan|ask|auto-edit|yolo)"}},
		{name: "cost", input: "/cost", want: []string{"session root", "openai/gpt-4o-mini", "1000 in, 100 out", "total $"}, not: []string{"with subagents"}},
		{name: "help", input: "/help", want: []string{"commands (/help NAME for one):", " session", "  /status", " diagnostics", "  /audit"}},
		{name: "help of one", input: "/help /skills", want: []string{"usage: /skills [NAME]"}},
		{name: "unknown", input: "/sesion", want: []string{"unknown command /sesion — did you mean /session"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := &fakeHost{snap: baseSnapshot()}
			if tc.edit != nil {
				tc.edit(&h.snap)
			}
			r := classifyInput(tc.input)
			ack := runCommand(h, r)
			out := ""
			if ack != nil {
				out = ack.Output
			}
			if ack == nil && len(h.answers) == 1 {
				out = h.answers[0]
			}
			rest := out
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("%s: no %q (in order) in:\n%s", tc.input, w, out)
				}
				rest = rest[i+len(w):]
			}
			for _, w := range tc.not {
				if strings.Contains(out, w) {
					t.Errorf("%s: %q in:\n%s", tc.input, w, out)
				}
			}
			if len(h.calls) > 0 {
				t.Errorf("%s is read-only but asked the session for %v", tc.input, h.calls)
			}
		})
	}
}

// TestCostViewSaysWhenTheAgentsCouldNotBeRead: the session's own line still shows.
func TestCostViewSaysWhenTheAgentsCouldNotBeRead(t *testing.T) {
	snap := baseSnapshot()
	child := &store.SessionMeta{ID: "c1", Parent: snap.Usage.ID, Agent: "root/find_a", Model: "openai/gpt-4o-mini", InputTokens: 10, OutputTokens: 1}
	if out := costView(snap, []*store.SessionMeta{child}, nil); !strings.Contains(out, "root/find_a") || !strings.Contains(out, "with subagents") {
		t.Errorf("with a child:\n%s", out)
	}
	out := costView(snap, nil, errors.New("store closed"))
	if !strings.Contains(out, "session root") || !strings.HasSuffix(out, "(the subagents' usage could not be read: store closed)") {
		t.Errorf("unreadable store:\n%s", out)
	}
}

// TestCommandsAskTheHostForTheirChanges: the commands that change the session decide their
// answer from the snapshot and what the host says, and ask for exactly one change.
func TestCommandsAskTheHostForTheirChanges(t *testing.T) {
	boundary := projection.Boundary{FromSeq: 1, ToSeq: 9, Reason: "/reset"}
	cases := []struct {
		name, input string
		host        func(*fakeHost)
		want        string // the answer (or the later answer), whole
		calls       []string
	}{
		{name: "mode switch", input: "/mode YOLO", want: "mode yolo", calls: []string{"mode yolo by /mode"}},
		{name: "mode refused", input: "/mode sideways", host: func(h *fakeHost) { h.modeErr = errors.New(`mode "sideways": use plan, ask, auto-edit or yolo`) },
			want: `mode "sideways": use plan, ask, auto-edit or yolo`, calls: []string{"mode sideways by /mode"}},
		{name: "goal", input: "/goal clear", want: "goal cleared: x", calls: []string{"goal clear"}},
		{name: "compact", input: "/compact the tests", want: "compacting", calls: []string{"compact the tests"}},
		{name: "reset keeps the goal", input: "/reset", host: func(h *fakeHost) { h.reset, h.resetOK = boundary, true },
			want:  "fresh context: entries 1–9 stay in the log (troupe log abcd) but the model no longer sees them; the goal stays (/reset all clears it)",
			calls: []string{"reset keep goal"}},
		{name: "reset all clears it", input: "/reset all", host: func(h *fakeHost) { h.reset, h.resetOK = boundary, true },
			want:  "fresh context: entries 1–9 stay in the log (troupe log abcd) but the model no longer sees them; goal cleared: x",
			calls: []string{"reset", "goal clear"}},
		{name: "reset of nothing", input: "/reset", want: "the context is already empty", calls: []string{"reset keep goal"}},
		{name: "reset all of nothing still clears the goal", input: "/reset all", want: "the context is already empty; goal cleared: x", calls: []string{"reset", "goal clear"}},
		{name: "reset all without a goal", input: "/reset all", host: func(h *fakeHost) { h.snap.Status.Goal = nil },
			want: "the context is already empty", calls: []string{"reset"}},
		{name: "reset that cannot record", input: "/reset", host: func(h *fakeHost) { h.resetErr = errors.New("record the boundary: disk full") },
			want: "/reset: record the boundary: disk full (the context is unchanged)", calls: []string{"reset keep goal"}},
		{name: "reset with a word", input: "/reset everything", want: "/reset everything: use /reset (the goal stays) or /reset all (the goal is cleared too)"},
		{name: "reset during a turn", input: "/reset", host: func(h *fakeHost) { h.busy = true }, want: "a turn is running; wait for it or cancel it, then /reset"},
		{name: "model switch", input: "/model gpt-4o", want: "model openai/gpt-4o for the next turns (context 10000 tokens)",
			calls: []string{"setup openai/gpt-4o code", "apply openai/gpt-4o code by /model"}},
		{name: "model that does not build", input: "/model nope", host: func(h *fakeHost) { h.setupErr = errors.New("unknown model") },
			want: "/model openai/nope: unknown model (the model stays openai/gpt-4o-mini)", calls: []string{"setup openai/nope code"}},
		{name: "model too small", input: "/model tiny", host: func(h *fakeHost) { h.applyErr = errors.New("window too small") },
			want: "/model: window too small (nothing changed)", calls: []string{"setup openai/tiny code", "apply openai/tiny code by /model"}},
		{name: "model switch timed out", input: "/model gpt-4o", host: func(h *fakeHost) { h.timedOut = errors.New("future: timeout") },
			want: "/model openai/gpt-4o: future: timeout (the model stays openai/gpt-4o-mini)"},
		{name: "model when a turn started meanwhile", input: "/model gpt-4o", host: func(h *fakeHost) { h.busy = true },
			want: "/model: a turn started meanwhile; nothing changed (try again when it ends)", calls: []string{"setup openai/gpt-4o code"}},
		{name: "model that cannot switch", input: "/model gpt-4o", host: func(h *fakeHost) { h.snap.Model.CanSwitch = false },
			want: "this session cannot switch models; end it and run troupe resume ID --model gpt-4o"},
		{name: "prompt list", input: "/prompt", want: "prompt mode code (/prompt NAME switches for the next turn):\n * code             writes\n   plan             reads [tools: read_file]"},
		{name: "prompt switch", input: "/prompt Plan", want: "prompt mode plan for the next turn (2 tools)",
			calls: []string{"setup openai/gpt-4o-mini plan", "apply openai/gpt-4o-mini plan by /prompt"}},
		{name: "prompt unknown", input: "/prompt pln", want: `no prompt mode "pln" — did you mean plan? (the modes are code, plan)`},
		{name: "prompt already", input: "/prompt code", want: "prompt mode code already"},
		{name: "prompt that cannot switch", input: "/prompt plan", host: func(h *fakeHost) { h.snap.Model.CanSwitchPrompt = false },
			want: "prompt mode code (this session cannot switch; troupe resume ID --prompt-mode NAME)"},
		{name: "skill unknown", input: "/skills relase", want: `no skill "relase": the skills are release`},
		{name: "skill timed out", input: "/skills release", host: func(h *fakeHost) { h.timedOut = errors.New("future: timeout") }, want: "/skills: future: timeout"},
		{name: "delegate", input: "/delegate find alpha --role explorer",
			want: "delegated to root/find-alpha (m, running): /agents shows it; its result reaches the model at the next turn", calls: []string{"delegate find-alpha explorer"}},
		{name: "delegate without a task", input: "/delegate --background", want: "say what to delegate; usage: " + delegateUsage},
		{name: "worktree timed out", input: "/worktree list", host: func(h *fakeHost) { h.timedOut = errors.New("future: timeout") },
			want: "/worktree is still running in the background (future: timeout); troupe worktree list shows the outcome"},
		{name: "exit", input: "/exit", want: "bye"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := &fakeHost{snap: baseSnapshot()}
			if tc.host != nil {
				tc.host(h)
			}
			ack := runCommand(h, classifyInput(tc.input))
			var out string
			switch {
			case ack != nil && len(h.answers) == 0:
				out = ack.Output
			case ack == nil && len(h.answers) == 1:
				out = h.answers[0]
			default:
				t.Fatalf("%s: answered %v now and %q later; want exactly one answer", tc.input, ack, h.answers)
			}
			if out != tc.want {
				t.Errorf("%s:\n got %q\nwant %q", tc.input, out, tc.want)
			}
			if strings.Join(h.calls, "; ") != strings.Join(tc.calls, "; ") {
				t.Errorf("%s: asked %q, want %q", tc.input, h.calls, tc.calls)
			}
		})
	}
}
