package syntaxcheck

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/troupe-dev/troupe/internal/lazyre"
	"github.com/troupe-dev/troupe/internal/textfmt"
)

// Runner runs one prepared checker command (for example through a sandbox) and returns its
// combined output and exit error.
type Runner func(ctx context.Context, cmd *exec.Cmd) ([]byte, error)

var (
	pythonReport = lazyre.New(`(?m)^(\d+):(\d+):(.*)$`)
	nodeLocation = lazyre.New(`:(\d+)$`)
	bashReport   = lazyre.New(`line (\d+): (.*)`)
)

// externalCheck is one checker binary: its arguments for a file and how to read its report.
type externalCheck struct {
	binary string
	args   func(absPath string) []string
	parse  func(out string) *Problem
	stdin  bool // the file is fed on standard input instead of named
}

// pythonScript compiles without writing __pycache__ (py_compile would) and prints
// line:col:message.
const pythonScript = `import sys
p = sys.argv[1]
try:
    compile(open(p, 'rb').read(), p, 'exec', dont_inherit=True)
except SyntaxError as e:
    print("%s:%s:%s" % (e.lineno or 1, e.offset or 0, e.msg))
    sys.exit(1)
`

var pythonCheck = externalCheck{
	binary: "python3",
	args:   func(p string) []string { return []string{"-I", "-c", pythonScript, p} },
	parse: func(out string) *Problem {
		m := pythonReport.FindStringSubmatch(out)
		if m == nil {
			return nil
		}
		line, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		return &Problem{Line: line, Col: col, Msg: strings.TrimSpace(m[3])}
	},
}

var nodeCheck = externalCheck{
	binary: "node",
	args:   func(p string) []string { return []string{"--check", p} },
	parse: func(out string) *Problem {
		lines := strings.Split(out, "\n")
		m := nodeLocation.FindStringSubmatch(strings.TrimSpace(lines[0]))
		if m == nil {
			return nil
		}
		p := &Problem{Msg: "syntax error"}
		p.Line, _ = strconv.Atoi(m[1])
		if len(lines) > 2 {
			if caret := strings.IndexByte(lines[2], '^'); caret >= 0 && strings.TrimSpace(lines[2])[0] == '^' {
				p.Col = caret + 1
			}
		}
		for _, l := range lines {
			if strings.HasPrefix(l, "SyntaxError: ") {
				p.Msg = strings.TrimPrefix(l, "SyntaxError: ")
				break
			}
		}
		return p
	},
}

// esmSyntax finds an import or export statement at the start of a line: a .js file that has
// one is an ES module (CommonJS cannot hold those statements).
var esmSyntax = lazyre.New(`(?m)^[ \t]*(?:import[ \t{*"']|export[ \t{*])`)

// nodeModuleCheck parses the file as an ES module, fed on stdin (node --check takes no
// module flag for a file path); its report names [stdin] in place of the path.
var nodeModuleCheck = externalCheck{
	binary: "node",
	args:   func(string) []string { return []string{"--input-type=module", "--check"} },
	stdin:  true,
	parse:  nodeCheck.parse,
}

var bashCheck = externalCheck{
	binary: "bash",
	args:   func(p string) []string { return []string{"-n", p} },
	parse: func(out string) *Problem {
		m := bashReport.FindStringSubmatch(out)
		if m == nil {
			return nil
		}
		line, _ := strconv.Atoi(m[1])
		return &Problem{Line: line, Msg: strings.TrimSpace(m[2])}
	},
}

// external runs check on the file when its binary is installed. A clean exit means the file
// parses; a failing exit with an unreadable report still counts as a problem.
func (c *Checker) external(ctx context.Context, check externalCheck, absPath string) (*Problem, error) {
	look := c.LookPath
	if look == nil {
		look = exec.LookPath
	}
	bin, err := look(check.binary)
	if err != nil {
		return nil, nil
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, check.args(absPath)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	if check.stdin {
		f, err := os.Open(absPath)
		if err != nil {
			return nil, fmt.Errorf("%s check of %s: %w", check.binary, absPath, err)
		}
		defer f.Close()
		cmd.Stdin = f
	}
	run := c.Runner
	if run == nil {
		run = func(_ context.Context, cmd *exec.Cmd) ([]byte, error) { return cmd.CombinedOutput() }
	}
	out, err := run(ctx, cmd)
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%s check of %s: %w", check.binary, absPath, context.Cause(ctx))
	}
	var exit *exec.ExitError
	if err == nil {
		return nil, nil
	}
	if !errors.As(err, &exit) {
		return nil, fmt.Errorf("%s check of %s: %w", check.binary, absPath, err)
	}
	if p := check.parse(string(bytes.TrimSpace(out))); p != nil {
		return p, nil
	}
	return &Problem{Line: 1, Msg: check.binary + " reports: " + textfmt.FirstLine(string(out))}, nil
}
