package actors

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/store"
)

func TestParseDelegate(t *testing.T) {
	for _, tc := range []struct {
		arg, task, role, msg, err string
		background                bool
	}{
		{arg: "write b.txt saying beta", task: "write-btxt-saying-beta", role: "worker", msg: "write b.txt saying beta"},
		{arg: "--role explorer find the parser --background", task: "find-the-parser", role: "explorer", msg: "find the parser", background: true},
		{arg: "check it --role=verifier", task: "check-it", role: "verifier", msg: "check it"},
		{arg: "!!! ???", task: "task", role: "worker", msg: "!!! ???"},
		{arg: "Refactor internationalization infrastructure comprehensively now", task: "refactor-internationalization", role: "worker",
			msg: "Refactor internationalization infrastructure comprehensively now"},
		{arg: "", err: "say what to delegate; usage: /delegate TASK"},
		{arg: "--background", err: "say what to delegate"},
		{arg: "fix it --role", err: "--role needs a role name"},
		{arg: "fix it --rolee x", err: "unknown flag --rolee"},
	} {
		req, err := parseDelegate(tc.arg)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: err %v, want %q", tc.arg, err, tc.err)
			}
			continue
		}
		if err != nil || req.TaskName != tc.task || req.AgentType != tc.role || req.Message != tc.msg || req.Background != tc.background {
			t.Errorf("%q: %+v %v", tc.arg, req, err)
			continue
		}
		if !taskNamePattern.MatchString(req.TaskName) {
			t.Errorf("%q: task name %q would be refused by spawn", tc.arg, req.TaskName)
		}
	}
}

func TestFormatAgentsShowsEachChildsLastSummaryLine(t *testing.T) {
	if out := formatAgents(nil); !strings.Contains(out, "no agents yet") {
		t.Errorf("no children: %q", out)
	}
	out := formatAgents([]agentRow{
		{Task: "find_a", Role: "explorer", State: messages.AgentDone, Turns: 2, Elapsed: 1500 * time.Millisecond, Summary: "looked around\nalpha is at a.txt:1\n"},
		{Task: "slow", Role: "worker", State: messages.AgentRunning, Turns: -1, Elapsed: 65 * time.Second},
	})
	lines := strings.Split(out, "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "TASK") {
		t.Fatalf("table:\n%s", out)
	}
	if f := strings.Fields(lines[1]); len(f) < 6 || f[0] != "find_a" || f[2] != "done" || f[3] != "2" || f[4] != "2s" || strings.Join(f[5:], " ") != "alpha is at a.txt:1" {
		t.Errorf("done child: %q", lines[1])
	}
	if f := strings.Fields(lines[2]); len(f) != 5 || f[2] != "running" || f[3] != "-" || f[4] != "1m5s" {
		t.Errorf("running child: %q", lines[2])
	}
}

func TestCostReportPricesKnownModelsAndNamesUnknownOnes(t *testing.T) {
	out := costReport([]usageLine{
		{Who: "session root", Model: "anthropic/claude-sonnet-4-5", In: 1_000_000, Out: 100_000},
		{Who: "root/a", Model: "acme/mystery-1", In: 10, Out: 10},
		{Who: "root/b", Model: "scripted", In: 5, Out: 5},
		{Who: "root/c", Model: "openai/gpt-4o", In: 1_000_000, Running: true},
		{Who: "root/d", Model: "anthropic/claude-haiku-4-5", In: 1_000_000, Cached: 800_000},
	})
	for _, want := range []string{
		"1000000 in, 100000 out  $4.50", // 1M × $3 + 0.1M × $15
		"10 in, 10 out  no price known for acme/mystery-1",
		"5 in, 5 out  $0.00",
		"1000000 in, 0 out  $2.50 so far (running)",
		"1000000 in (800000 cached), 0 out  $0.28", // 0.2M × $1 + 0.8M × $0.10
		"total $7.28 with subagents (1 agent still running), not counting 1 model without a known price",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "no cached input recorded") {
		t.Errorf("cached input was recorded:\n%s", out)
	}
	if small := costReport([]usageLine{{Who: "session root", Model: "openai/gpt-4o-mini", In: 1000, Out: 100}}); !strings.Contains(small, "$0.0002") ||
		strings.Contains(small, "with subagents") || !strings.Contains(small, "no cached input recorded: input is priced at the full rate") {
		t.Errorf("a small session:\n%s", small)
	}
}

func TestSessionTreeUsageWalksEveryAgentUnderTheSession(t *testing.T) {
	at := func(min int) time.Time { return time.Date(2026, 1, 1, 0, min, 0, 0, time.UTC) }
	self := &store.SessionMeta{ID: "p", Model: "m0", InputTokens: 1, OutputTokens: 2}
	all := []*store.SessionMeta{
		{ID: "p", Model: "m0", InputTokens: 0}, // the stored copy of self: the one in memory wins
		{ID: "p-b", Parent: "p", Agent: "root/b", Model: "m2", Status: "done", Created: at(2)},
		{ID: "p-a", Parent: "p", Agent: "root/a", Model: "m1", Status: "running", InputTokens: 7, Created: at(1)},
		{ID: "p-a-x", Parent: "p-a", Agent: "root/a/x", Model: "m3", Status: "done", OutputTokens: 3, Created: at(3)},
		{ID: "other", Model: "m9"},
		{ID: "other-c", Parent: "other", Agent: "root/c", Model: "m9"},
	}
	var got []string
	for _, l := range sessionTreeUsage(self, all) {
		got = append(got, fmt.Sprintf("%s %s %d/%d %v", l.Who, l.Model, l.In, l.Out, l.Running))
	}
	want := []string{"session root m0 1/2 false", "root/a m1 7/0 true", "root/a/x m3 0/3 false", "root/b m2 0/0 false"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("lines:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestTheNewCommandsAreInTheTableWithTheirUsage(t *testing.T) {
	for name, usage := range map[string]string{"audit": "/audit", "cost": "/cost", "doctor": "/doctor", "agents": "/agents",
		"delegate": "/delegate TASK [--role R] [--background]"} {
		if r := classifyInput("/" + name + " x"); r.Kind != inputCommand || r.Command != name {
			t.Errorf("/%s routes as %+v", name, r)
		}
		if h := commandHelp(name); !strings.HasPrefix(h, "usage: "+usage+"\n") {
			t.Errorf("/help %s: %q", name, h)
		}
	}
	if msg := unknownCommand("audt"); !strings.Contains(msg, "did you mean /audit") {
		t.Errorf("a typo: %q", msg)
	}
}
