package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

const (
	bashDefaultTimeout = 120 * time.Second
	bashMaxTimeout     = 600 * time.Second
	// bashHeadBytes and bashTailBytes keep a command's output under the default result budget.
	bashHeadBytes = 12 << 10
	bashTailBytes = 16 << 10
	// bashDrainWait is how long output from processes that outlive the command is awaited.
	bashDrainWait = 500 * time.Millisecond
)

type bashTool struct{}

func (bashTool) Spec() Spec {
	return Spec{
		Name: "bash",
		Description: "Run a bash command in the workspace root. stdout and stderr are combined; long output keeps its head and tail. " +
			"Default timeout 120 s (max 600). Use background=true for servers and watchers: returns a pid and a log file at once.",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"command":{"type":"string","description":"the command, run with bash -c"},` +
			`"timeout_s":{"type":"integer","minimum":1,"description":"seconds before the command is killed (default 120, max 600)"},` +
			`"background":{"type":"boolean","description":"start it and return at once (default false)"}},` +
			`"required":["command"],"additionalProperties":false}`),
		Risk: RiskExec,
	}
}

type bashArgs struct {
	Command    string `json:"command"`
	TimeoutS   int    `json:"timeout_s"`
	Background bool   `json:"background"`
}

func (bashTool) Run(ctx context.Context, env *Env, raw json.RawMessage) Result {
	var a bashArgs
	if bad := decodeArgs("bash", raw, &a); bad != nil {
		return *bad
	}
	var reads []shellReadTarget
	var watch *ownChangeWatch
	if !a.Background { // a background job writes after this call: see filestate_own.go
		reads = env.planShellReads(a.Command) // before it runs: what the files held then
		watch = env.watchOwnChanges()
	}
	res, outputWhole := runBash(ctx, env, a)
	if outputWhole && !res.IsError {
		env.recordShellReads(reads) // the model saw the files as a read_file would show them
	}
	if note := env.noteOwnChanges(watch, a.Command); note != "" {
		res.Output += "\n" + note // the files the model read that the command itself changed
	}
	return res
}

// runBash runs a command; outputWhole says the result holds the command's whole output.
func runBash(ctx context.Context, env *Env, a bashArgs) (res Result, outputWhole bool) {
	if strings.TrimSpace(a.Command) == "" {
		return errorResult("command is empty"), false
	}
	root, err := env.root()
	if err != nil {
		return errorResult(err.Error()), false
	}
	cmd := exec.Command("bash", "-c", a.Command)
	cmd.Dir = root
	cmd.Env = env.commandEnviron()
	inOwnGroup(cmd)
	if env.Sandbox != nil {
		if err := env.Sandbox.Wrap(cmd, env); err != nil {
			return errorResult(fmt.Sprintf("bash: sandbox: %v", err)), false
		}
		inOwnGroup(cmd)
	}
	if a.Background {
		return startBackground(env, cmd, a.Command), false
	}
	timeout := bashDefaultTimeout
	var note string
	if a.TimeoutS > 0 {
		timeout = time.Duration(a.TimeoutS) * time.Second
	}
	if timeout > bashMaxTimeout {
		timeout = bashMaxTimeout
		note = fmt.Sprintf("[timeout_s %d is over the maximum; used %d]\n", a.TimeoutS, int(bashMaxTimeout.Seconds()))
	}
	return runForeground(ctx, cmd, a.Command, timeout, note, env)
}

// RunCommand runs command the way the bash tool does (workspace root, explicit environment,
// sandbox, process group, timeout, bounded output) but outside the call lifecycle: it is for
// commands the user configured, such as the definition-of-done check, which need no approval.
// Their output is not the model reading a file, so no read is recorded.
func RunCommand(ctx context.Context, env *Env, command string, timeoutS int) Result {
	res, _ := runBash(ctx, env, bashArgs{Command: command, TimeoutS: timeoutS})
	return res
}

func startBackground(env *Env, cmd *exec.Cmd, command string) Result {
	dir := env.TempDir
	if dir == "" {
		dir = os.TempDir()
	}
	job, err := env.jobs.start(cmd, command, dir)
	if err != nil {
		return errorResult(fmt.Sprintf("bash: %v", err))
	}
	return Result{Output: fmt.Sprintf("started in the background: pid %d, output to %s\n"+
		"read the log with read_file or tail; stop it with: kill -- -%d (it is also stopped when the session ends)",
		job.PID, job.LogPath, job.PID)}
}

// runForeground runs cmd in its own process group, collecting its combined output through a
// pipe this function owns: when the command exits, what it left running is killed and the
// pipe is drained only briefly, so an orphan holding the pipe open cannot hang the call. With
// an artifact store in env, an output too long to show whole is also kept as an artifact.
// The flag returned says the result shows all of the output, none of it cut.
func runForeground(ctx context.Context, cmd *exec.Cmd, command string, timeout time.Duration, note string, env *Env) (Result, bool) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return errorResult(fmt.Sprintf("bash: %v", err)), false
	}
	cmd.Stdin = nil
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		pr.Close()
		pw.Close()
		return errorResult(fmt.Sprintf("bash: start: %v", err)), false
	}
	pw.Close() // the children hold the write end now
	output := newHeadTail(bashHeadBytes, bashTailBytes)
	var sink io.Writer = output
	spool := newOutputSpool(env)
	if spool != nil {
		defer spool.discard()
		sink = io.MultiWriter(output, spool)
	}
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		_, _ = io.Copy(sink, pr)
	}()
	exited := make(chan struct{})
	var waitErr error
	go func() {
		waitErr = cmd.Wait()
		close(exited)
	}()

	pgid := cmd.Process.Pid
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var ending string
	select {
	case <-exited:
	case <-timer.C:
		ending = fmt.Sprintf("timed out after %s; the process group was killed", timeout)
		stopGroup(pgid, exited, killGrace)
		<-exited
	case <-ctx.Done():
		ending = "killed: the call was cancelled"
		stopGroup(pgid, exited, killGrace)
		<-exited
	}
	leftovers := groupAlive(pgid)
	if leftovers {
		stopGroup(pgid, exited, killGrace)
	}
	select {
	case <-drained:
	case <-time.After(bashDrainWait):
		pr.Close() // a process outside the group still holds the pipe: stop reading
		<-drained
	}
	pr.Close()

	var res strings.Builder
	res.WriteString(note)
	res.WriteString(output.String())
	if output.total > 0 && !strings.HasSuffix(res.String(), "\n") {
		res.WriteByte('\n')
	}
	code := cmd.ProcessState.ExitCode()
	isErr := ending != "" || code != 0
	switch {
	case ending != "":
		fmt.Fprintf(&res, "[%s]", ending)
	case code == -1:
		fmt.Fprintf(&res, "[killed by signal: %v]", waitErr)
	default:
		fmt.Fprintf(&res, "[exit code %d]", code)
	}
	if leftovers && ending == "" {
		res.WriteString("\n[processes the command left running were stopped; use background=true for long-running processes]")
	}
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) {
		fmt.Fprintf(&res, "\n[wait: %v]", waitErr)
	}
	if spool != nil && output.Truncated() {
		fmt.Fprintf(&res, "\n[%s]", spool.store(env.Artifacts, output.total, bashHeadBytes))
	}
	res.WriteString(sandboxNote(env, command, output.String(), isErr))
	return Result{Output: res.String(), IsError: isErr}, !output.Truncated()
}
