package actors

import (
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/messages"
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
		{Who: "root/c", Model: "openai/gpt-4o", Running: true},
	})
	for _, want := range []string{
		"1000000 in, 100000 out  $4.50", // 1M × $3 + 0.1M × $15
		"no price known for acme/mystery-1",
		"5 in, 5 out  $0.00",
		"root/c", "running: its usage is known when it ends",
		"total $4.50 with children, not counting 1 model without a known price, nor 1 running agent",
		"cached input tokens are not recorded",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if small := costReport([]usageLine{{Who: "session root", Model: "openai/gpt-4o-mini", In: 1000, Out: 100}}); !strings.Contains(small, "$0.0002") || strings.Contains(small, "with children") {
		t.Errorf("a small session:\n%s", small)
	}
}
