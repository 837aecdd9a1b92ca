package tools

import (
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/messages"
	"github.com/troupe-dev/troupe/tools/shellparse"
)

// respell writes the plain command plain (program first, then plain words) in another way
// bash runs the same, steered by the fuzzer's bytes: quoting, escapes, paths, wrappers,
// nesting, chaining and substitution.
func respell(plain []string, steps []byte) string {
	prog, rest := plain[0], strings.Join(plain[1:], " ")
	cmd := ""
	for i, b := range steps {
		if i == 0 {
			switch b % 8 {
			case 0:
				prog = `"` + prog + `"`
			case 1:
				prog = prog[:1] + "''" + prog[1:]
			case 2:
				prog = `\` + prog
			case 3:
				prog = "$'" + prog + "'"
			case 4:
				prog = "/usr/bin/" + prog
			case 5:
				prog = prog[:1] + `\` + prog[1:]
			case 6:
				prog = "'" + prog + "'"
			}
			cmd = prog + " " + rest
			continue
		}
		switch b % 16 {
		case 0:
			cmd = "env " + cmd
		case 1:
			cmd = "nice -n 5 " + cmd
		case 2:
			cmd = "timeout 5 " + cmd
		case 3:
			cmd = "command " + cmd
		case 4:
			cmd = "sudo -u root " + cmd
		case 5:
			cmd = "bash -c " + shellQuote(cmd)
		case 6:
			cmd = "sh -c " + shellQuote(cmd)
		case 7:
			cmd = "eval " + shellQuote(cmd)
		case 8:
			cmd = "true && " + cmd
		case 9:
			cmd = "echo a; " + cmd
		case 10:
			cmd = "( " + cmd + " )"
		case 11:
			cmd = "{ " + cmd + "; }"
		case 12:
			cmd = "echo $(" + cmd + ")"
		case 13:
			cmd = "env X=1 " + cmd
		case 14:
			cmd = "nohup " + cmd + " > /dev/null 2>&1"
		case 15:
			cmd = "if true; then " + cmd + "; fi"
		}
	}
	if cmd == "" {
		cmd = prog + " " + rest
	}
	return cmd
}

// FuzzShellDecisionRespelled: a command denied when spelled plainly is never allowed however
// it is respelled.
func FuzzShellDecisionRespelled(f *testing.F) {
	for _, seed := range [][]byte{{0}, {1, 5}, {2, 5, 5, 7}, {3, 4, 12}, {5, 8, 10, 11, 15, 14}, {4, 0, 1, 2, 3, 13}} {
		f.Add(uint8(0), seed)
		f.Add(uint8(1), seed)
	}
	plains := [][]string{{"rm", "v.txt"}, {"curl", "http://x"}, {"rm", "-rf", "/"}}
	f.Fuzz(func(t *testing.T, which uint8, steps []byte) {
		if len(steps) > 12 {
			steps = steps[:12]
		}
		plain := plains[int(which)%len(plains)]
		if d, _ := decideShell(t, messages.ModeYolo, strings.Join(plain, " ")); d != Deny {
			t.Fatalf("the plain command %q is not denied", plain)
		}
		cmd := respell(plain, steps)
		if d, why := decideShell(t, messages.ModeYolo, cmd); d == Allow {
			t.Fatalf("%q is allowed (%s), though %q is denied", cmd, why, strings.Join(plain, " "))
		}
	})
}

// FuzzShellDecision: any input is decided without a panic, and a command line that is allowed
// runs nothing that, spelled plainly, would be denied.
func FuzzShellDecision(f *testing.F) {
	for _, s := range []string{"rm x", `r''m x`, "bash -c 'rm x'", "echo $(rm x)", "ls | xargs rm", "git status", "eval \"$X\"",
		"cat <<EOF\nrm x\nEOF", "sudo -s", "find . -exec rm {} +", "a=$(b) c", "((x=1))", "[[ -f x ]] && rm x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		if len(cmd) > 4096 {
			return
		}
		d, _ := decideShell(t, messages.ModeYolo, cmd)
		if d != Allow {
			return
		}
		for _, c := range shellparse.Parse(cmd).Commands {
			plain := strings.Join(c.Args, " ")
			if strings.ContainsAny(plain, "\"'\\$`;&|<>(){}\n#*?[") {
				continue // not a plain spelling of itself
			}
			if pd, why := decideShell(t, messages.ModeYolo, plain); pd == Deny {
				t.Fatalf("%q is allowed, but it runs %q, which is denied (%s)", cmd, plain, why)
			}
		}
	})
}
