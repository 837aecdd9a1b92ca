package tools

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// killGrace is how long a process group gets between SIGTERM and SIGKILL.
const killGrace = 2 * time.Second

// inOwnGroup makes cmd the leader of a new process group, so it and everything it forks can
// be signalled together. The command is also killed if troupe itself dies (kill -9 included):
// an agent's shell must not outlive the harness that answers for it.
func inOwnGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// groupAlive reports whether any process of the group is still running. Zombies do not
// count: where init does not reap orphans (some containers) they never go away.
func groupAlive(pgid int) bool {
	err := syscall.Kill(-pgid, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	live, ok := liveGroupMembers(pgid)
	return !ok || live > 0
}

// liveGroupMembers counts the group's processes that are not zombies by reading /proc; ok is
// false where /proc cannot be read.
func liveGroupMembers(pgid int) (live int, ok bool) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, false
	}
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		state, group, ok := procState(e.Name())
		if ok && group == pgid && state != 'Z' && state != 'X' {
			live++
		}
	}
	return live, true
}

// procState reads a process's state letter and process group from /proc/<pid>/stat.
func procState(pid string) (state byte, pgrp int, ok bool) {
	data, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0, 0, false
	}
	// The command name is in parentheses and may contain spaces; the fields after it are
	// "state ppid pgrp ...".
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, 0, false
	}
	fields := strings.Fields(string(data[i+1:]))
	if len(fields) < 3 || len(fields[0]) != 1 {
		return 0, 0, false
	}
	pgrp, err = strconv.Atoi(fields[2])
	return fields[0][0], pgrp, err == nil
}

// stopGroup sends SIGTERM to the group, then SIGKILL to whatever is left after grace.
// leaderDone is closed once the leader has been reaped; until then the leader is a zombie
// that keeps the group alive, so the group counts as gone when only that is left to reap.
func stopGroup(pgid int, leaderDone <-chan struct{}, grace time.Duration) {
	if pgid <= 0 {
		return
	}
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	deadline := time.NewTimer(grace)
	defer deadline.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-deadline.C:
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			return
		case <-tick.C:
			if isClosed(leaderDone) && !groupAlive(pgid) {
				return
			}
		}
	}
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
