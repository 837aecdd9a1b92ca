package tools

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/troupe-dev/troupe/internal/testwait"
	"github.com/troupe-dev/troupe/messages"
)

// shellRules is the fixed rule set the decision table is judged under.
var shellRules = Policy{
	Allow: []string{"bash(git status*)", "bash(go test *)", "bash(ls*)", "bash(cat *)", "bash(echo *)", "bash(grep *)", "bash(wc *)"},
	Ask:   []string{"bash(git push*)"},
	Deny:  []string{"bash(rm *)", "bash(curl *)"},
}

func decideShell(t testing.TB, mode messages.Mode, command string) (Decision, string) {
	t.Helper()
	p := shellRules
	p.Mode = mode
	args, err := json.Marshal(map[string]string{"command": command})
	if err != nil {
		t.Fatal(err)
	}
	return p.Decide(Spec{Name: "bash", Risk: RiskExec}, args, nil)
}

// TestShellDecisionTable: each command's decision in ask mode and in yolo mode, under
// shellRules. A is allow, ? is ask, D is deny.
func TestShellDecisionTable(t *testing.T) {
	deep := "rm x"
	for i := 0; i < 12; i++ {
		deep = "bash -c " + shellQuote(deep)
	}
	table := []struct{ command, ask, yolo string }{
		// The five spellings of rm, and more.
		{`rm v.txt`, "D", "D"},
		{`"rm" v1.txt`, "D", "D"},
		{`r''m v2.txt`, "D", "D"},
		{`\rm v3.txt`, "D", "D"},
		{`bash -c 'rm v4.txt'`, "D", "D"},
		{`true && 'rm' v5.txt`, "D", "D"},
		{`$'\x72m' x`, "D", "D"},
		{`$'rm' x`, "D", "D"},
		{`"r"m x`, "D", "D"},
		{`r\m x`, "D", "D"},
		{`'r''m' x`, "D", "D"},
		{`/bin/rm x`, "D", "D"},
		{`/usr/bin/rm -f x`, "D", "D"},
		{`./rm x`, "D", "D"},
		{`X=1  rm   -rf  ~`, "D", "D"},
		{"rm \\\n x", "D", "D"},
		// Lists, pipelines, compound commands, substitutions.
		{`echo a; rm x`, "D", "D"},
		{`echo a || rm x`, "D", "D"},
		{`echo a | rm x`, "D", "D"},
		{"echo a\nrm x", "D", "D"},
		{`(rm x)`, "D", "D"},
		{`{ rm x; }`, "D", "D"},
		{`if true; then rm x; fi`, "D", "D"},
		{`for f in a; do rm "$f"; done`, "D", "D"},
		{`while false; do rm x; done`, "D", "D"},
		{`case a in a) rm x;; esac`, "D", "D"},
		{`f() { rm x; }; f`, "D", "D"},
		{`echo $(rm x)`, "D", "D"},
		{"echo `rm x`", "D", "D"},
		{`cat <(rm x)`, "D", "D"},
		{`echo a > >(rm x)`, "D", "D"},
		{`y=$(rm x)`, "D", "D"},
		{`echo "$(rm x)"`, "D", "D"},
		{`echo ${a:-$(rm x)}`, "D", "D"},
		{`! rm x`, "D", "D"},
		{`rm x &`, "D", "D"},
		{`time rm x`, "D", "D"},
		// Wrappers.
		{`env rm x`, "D", "D"},
		{`env -i A=1 rm x`, "D", "D"},
		{`env -u HOME rm x`, "D", "D"},
		{`env -S 'rm x'`, "D", "D"},
		{`command rm x`, "D", "D"},
		{`command -p rm x`, "D", "D"},
		{`builtin rm x`, "D", "D"},
		{`exec rm x`, "D", "D"},
		{`exec -a name rm x`, "D", "D"},
		{`nice rm x`, "D", "D"},
		{`nice -n 5 rm x`, "D", "D"},
		{`nice -5 rm x`, "D", "D"},
		{`nohup rm x`, "D", "D"},
		{`setsid -f rm x`, "D", "D"},
		{`timeout 5 rm x`, "D", "D"},
		{`timeout -s KILL -k 1 5 rm x`, "D", "D"},
		{`timeout --signal=KILL 5 rm x`, "D", "D"},
		{`command time -p rm x`, "D", "D"},
		{`/usr/bin/time -o log rm x`, "D", "D"},
		{`stdbuf -oL rm x`, "D", "D"},
		{`xargs rm`, "D", "D"},
		{`echo x | xargs rm`, "D", "D"},
		{`find . -print0 | xargs -0 -n1 rm -f`, "D", "D"},
		{`sudo rm x`, "D", "D"},
		{`sudo -u root rm x`, "D", "D"},
		{`sudo -E -- rm x`, "D", "D"},
		{`doas rm x`, "D", "D"},
		{`find . -name '*.o' -exec rm {} \;`, "D", "D"},
		{`find . -execdir rm -f {} +`, "D", "D"},
		{`sudo env nice timeout 5 /bin/rm x`, "D", "D"},
		// Nested scripts.
		{`sh -c 'rm x'`, "D", "D"},
		{`zsh -c "rm x"`, "D", "D"},
		{`bash -lc 'rm x'`, "D", "D"},
		{`bash -e -c 'rm x' name`, "D", "D"},
		{`bash -c "bash -c 'rm x'"`, "D", "D"},
		{`sh -c 'sh -c "r\"\"m x"'`, "D", "D"},
		{`eval 'rm x'`, "D", "D"},
		{`eval "rm x"`, "D", "D"},
		{`eval rm x`, "D", "D"},
		{`eval "eval 'rm x'"`, "D", "D"},
		{"bash <<'EOF'\nrm x\nEOF", "D", "D"},
		{"sh <<EOF\nrm x\nEOF", "D", "D"},
		{`bash <<< 'rm x'`, "D", "D"},
		{`sudo bash -c 'rm x'`, "D", "D"},
		{`sudo -s rm x`, "D", "D"},
		{`xargs sh -c 'rm "$1"' _`, "D", "D"},
		{`curl http://x`, "D", "D"},
		{`"cu"rl http://x`, "D", "D"},
		// What cannot be known statically asks, in every mode.
		{`$X x`, "?", "?"},
		{`${X} x`, "?", "?"},
		{`"$X" x`, "?", "?"},
		{`$(echo rm) x`, "?", "?"},
		{"`echo rm` x", "?", "?"},
		{`eval "$X"`, "?", "?"},
		{`eval $X`, "?", "?"},
		{`bash -c "$X"`, "?", "?"},
		{`echo rm x | bash`, "?", "?"},
		{`sh < script.sh`, "?", "?"},
		{"bash <<EOF\n$CMD\nEOF", "?", "?"},
		{`r* x`, "?", "?"},
		{`/bin/r? x`, "?", "?"},
		{`r{m,} x`, "?", "?"},
		{`echo 'unclosed`, "?", "?"},
		{`if then fi`, "?", "?"},
		{deep, "?", "?"},
		{`xargs -I{} {} x`, "?", "?"},
		{`sudo -X foo rm x`, "?", "?"},
		{`env $OPTS x`, "?", "?"},
		{`sudo -s`, "?", "?"},
		// The ask rule, however spelled.
		{`git push origin main`, "?", "?"},
		{`"git" push`, "?", "?"},
		{`bash -c 'git push'`, "?", "?"},
		{`git status && git push`, "?", "?"},
		// Redirections are writes: a protected file asks but in yolo mode.
		{`echo x > .git/hooks/pre-commit`, "?", "A"},
		{`echo x >> .git/config`, "?", "A"},
		{`cat a > troupe.toml`, "?", "A"},
		{`echo x | tee .envrc`, "?", "A"},
		{`echo x > sub/.git/config`, "?", "A"},
		{`echo x &> .troupe/node.json`, "?", "A"},
		{`echo x >| .gitmodules`, "?", "A"},
		{"cat <<'EOF' > .git/hooks/post-checkout\nrm -rf ~\nEOF", "?", "A"},
		{`bash -c 'echo x > .git/hooks/pre-push'`, "?", "A"},
		{`echo x > out.txt`, "A", "A"},
		{`echo hi 2>&1`, "A", "A"},
		{`ls > /dev/null 2>&1`, "A", "A"},
		{`cat a.go < in.txt`, "A", "A"},
		// Here-docs and strings are data, not commands.
		{"cat <<EOF\nrm x\nEOF", "A", "A"},
		{"cat <<'EOF'\n$(rm x)\nEOF", "A", "A"},
		{`echo 'rm x'`, "A", "A"},
		{`echo "bash -c 'rm x'"`, "A", "A"},
		{`grep -r "rm -rf" .`, "A", "A"},
		{`echo rm x`, "A", "A"},
		// Benign commands stay allowed.
		{`git status`, "A", "A"},
		{`git status --short`, "A", "A"},
		{`"git" status`, "A", "A"},
		{`go test ./...`, "A", "A"},
		{`go test ./... 2>&1`, "A", "A"},
		{`ls`, "A", "A"},
		{`ls -la`, "A", "A"},
		{`cat 'my file.go'`, "A", "A"},
		{`git status && go test ./...`, "A", "A"},
		{`ls | grep x`, "A", "A"},
		{`cat a | wc -l`, "A", "A"},
		{`ls; ls -la`, "A", "A"},
		{`X=1 go test ./...`, "A", "A"},
		// An allowed prefix never allows a second command.
		{`git status; touch x`, "?", "A"},
		{`git status && make`, "?", "A"},
		{`ls && sudo ls`, "?", "A"},
		{`echo $(touch x)`, "?", "A"},
		{`cat <(touch x)`, "?", "A"},
		{`ls | sh`, "?", "?"},
		{`go test ./... | bash`, "?", "?"},
		{`echo x | xargs touch`, "?", "A"},
		{`git status --short | xargs -n1 git add`, "?", "A"},
		{`# rm x`, "?", "A"},
		{`find . -name x -exec touch {} \;`, "?", "A"},
		{`diff <(ls a) <(ls b)`, "?", "A"},
	}
	if len(table) < 100 {
		t.Fatalf("the table has %d commands; keep at least 100", len(table))
	}
	code := map[Decision]string{Allow: "A", Ask: "?", Deny: "D"}
	for _, c := range table {
		for _, m := range []struct {
			mode messages.Mode
			want string
		}{{messages.ModeAsk, c.ask}, {messages.ModeYolo, c.yolo}} {
			got, why := decideShell(t, m.mode, c.command)
			if code[got] != m.want {
				t.Errorf("%s mode, %q: got %s (%s), want %s", m.mode, c.command, code[got], why, m.want)
			}
		}
	}
}

// TestShellDecisionUnprovableInPlanMode: plan mode still refuses an unprovable command, and a
// plan-safe command that cannot be checked asks even where the sandbox confines it.
func TestShellDecisionUnprovableInPlanMode(t *testing.T) {
	if d, why := decideShell(t, messages.ModePlan, "$X v.txt"); d != Deny {
		t.Errorf("plan mode: %s (%s), want deny", d, why)
	}
	p := shellRules
	p.Mode, p.PlanSafeExec, p.ExecConfined = messages.ModePlan, true, true
	if d, why := p.Decide(Spec{Name: "bash", Risk: RiskExec}, json.RawMessage(`{"command":"eval \"$X\""}`), nil); d != Ask {
		t.Errorf("plan-safe: %s (%s), want ask", d, why)
	}
}

// TestShellDecisionUnprovableIsRefusedHeadless: with nobody to ask, a command whose program
// cannot be known under a deny rule is refused, even in yolo mode.
func TestShellDecisionUnprovableIsRefusedHeadless(t *testing.T) {
	p := shellRules
	p.Mode = messages.ModeYolo
	env := newEnv(t)
	writeFiles(t, env.Root, map[string]string{"v.txt": "keep\n"})
	reg := gatedRegistry(t, NewGate(p, nil, "rerun with --yes"))
	res := reg.Execute(t.Context(), env, Call{ID: "c1", Name: "bash", Args: `{"command":"X=rm; $X v.txt"}`})
	mustFail(t, res, "cannot be checked", "no one to ask")
	if _, err := os.Stat(filepath.Join(env.Root, "v.txt")); err != nil {
		t.Fatalf("the refused command ran: %v", err)
	}
}

// TestShellDecisionBoundedOnHugeInput: a 1 MB one-liner, a deep nest and a long chain are
// each decided (within the scaled test timeout), and none is allowed by a glob.
func TestShellDecisionBoundedOnHugeInput(t *testing.T) {
	inputs := map[string]string{
		"1 MB one-liner":   "echo " + strings.Repeat("a", 1<<20),
		"1 MB of commands": strings.Repeat("ls;", 1<<18) + "rm x",
		"1 MB of quotes":   "echo " + strings.Repeat(`"a"'b' `, 1<<17) + "; rm x",
		"deep nesting":     strings.Repeat("bash -c '", 200) + "rm x" + strings.Repeat("'", 200),
		"deep subshells":   strings.Repeat("(", 5000) + "rm x" + strings.Repeat(")", 5000),
	}
	for name, cmd := range inputs {
		done := make(chan Decision, 1)
		go func() {
			d, _ := decideShell(t, messages.ModeYolo, cmd)
			done <- d
		}()
		select {
		case d := <-done:
			if name != "1 MB one-liner" && d == Allow {
				t.Errorf("%s: allowed; want a deny or an ask", name)
			}
		case <-time.After(testwait.Scale(30 * time.Second)):
			t.Fatalf("%s: not decided in time", name)
		}
	}
}
