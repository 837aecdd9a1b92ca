// Package launch is the part of prespawn that runs in package initialisation: for a command
// that starts sessions in a project whose node.json names no live process, it starts `troupe
// serve` waiting for its arguments (docs/ARCHITECTURE.md "The node process").
//
// Its init starts the node as early in the client's initialisation as Go's init order allows,
// which is what it exists for: each step of that order initialises the first package, by import
// path, whose imports are all initialised. A package importing encoding/json, fmt or
// path/filepath waits for reflect, strconv and unicode, and by then most of the binary's
// initialisation (gRPC, protobuf, Prometheus, the NATS server, …) has run: prespawn's init used
// to start the node half-way through the client's, so the node finished its own initialisation
// that much later. This package imports only os, syscall and sync/atomic, which os itself needs,
// so its init runs right after os's, before reflect's (a test in cmd/troupe checks that order
// on the built binary). Keep it that way: no other import.
package launch

import (
	"os"
	"sync/atomic"
	"syscall"
)

// AwaitArg is the argument a node started here runs with: `troupe serve AwaitArg`.
const AwaitArg = "--await-args-from-client"

// The waiting node's descriptors: fd 3 is the ready pipe, fd 4 the pipe its arguments come on.
const (
	ReadyFD = 3
	ArgsFD  = 4
)

// Child is a node process started here, waiting for its arguments.
type Child struct {
	Process *os.Process
	Ready   *os.File // the read end of its ready pipe
	Args    *os.File // the write end of its arguments pipe
}

// pending is the node this process started in its initialisation; nil once taken. A package
// variable because it is made by init, before main has anything to hold it.
var pending atomic.Pointer[Child]

func init() {
	if len(os.Args) < 2 || !sessionCommand(os.Args[1]) || asksHelp(os.Args[2:]) {
		return
	}
	wd, err := physicalWd()
	if err != nil || liveNode(wd) {
		return
	}
	if c, err := start(); err == nil {
		pending.Store(c)
	}
}

// Take returns the node started in this process's initialisation, once; nil if there is none.
func Take() *Child { return pending.Swap(nil) }

// sessionCommand reports whether cmd starts a session on the project's node.
func sessionCommand(cmd string) bool {
	switch cmd {
	case "run", "chat", "resume", "loop":
		return true
	}
	return false
}

// asksHelp reports whether the flags in args ask for help (then no node is needed).
func asksHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "--help":
			return true
		}
	}
	return false
}

// physicalWd is the working directory with every symbolic link resolved (the kernel's own
// path of it), as config.ProjectRoot sees it after filepath.EvalSymlinks.
func physicalWd() (string, error) {
	buf := make([]byte, 4096)
	n, err := syscall.Getcwd(buf)
	if err != nil {
		return "", err
	}
	if n > 0 && buf[n-1] == 0 { // the length counts the terminating NUL
		n--
	}
	return string(buf[:n]), nil
}

// liveNode reports whether the project around dir (an absolute, clean path) has a node.json
// naming a live process: then the client attaches to it and needs no new node. The root is
// found as config.ProjectRoot finds it (the nearest directory holding .git). A state directory
// elsewhere (a read-only checkout) is not looked at: a node is started, and dropped if one runs.
func liveNode(dir string) bool {
	root := dir
	for d := dir; ; {
		if _, err := os.Lstat(join(d, ".git")); err == nil {
			root = d
			break
		}
		parent := parentDir(d)
		if parent == d {
			break
		}
		d = parent
	}
	raw, err := os.ReadFile(join(join(root, ".troupe"), "node.json"))
	if err != nil {
		return false
	}
	pid := jsonPID(raw)
	if pid <= 0 {
		return false
	}
	err = syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}

// join joins a directory and a name with one slash.
func join(dir, name string) string {
	if dir != "" && dir[len(dir)-1] == '/' {
		return dir + name
	}
	return dir + "/" + name
}

// parentDir is the directory above dir ("/" above itself).
func parentDir(dir string) string {
	for i := len(dir) - 1; i > 0; i-- {
		if dir[i] == '/' {
			return dir[:i]
		}
	}
	return "/"
}

// jsonPID reads the top-level "pid" number of node.json (written by json.Marshal: no escapes
// in that key, the number plain); 0 when absent or not a positive integer.
func jsonPID(raw []byte) int {
	const key = `"pid"`
	for i := 0; i+len(key) <= len(raw); i++ {
		if string(raw[i:i+len(key)]) != key {
			continue
		}
		j := i + len(key)
		for j < len(raw) && (raw[j] == ' ' || raw[j] == '\t' || raw[j] == '\n' || raw[j] == '\r') {
			j++
		}
		if j >= len(raw) || raw[j] != ':' {
			continue // "pid" as a value, not the key
		}
		j++
		for j < len(raw) && (raw[j] == ' ' || raw[j] == '\t' || raw[j] == '\n' || raw[j] == '\r') {
			j++
		}
		pid, digits := 0, 0
		for ; j < len(raw) && raw[j] >= '0' && raw[j] <= '9' && digits < 10; j++ {
			pid = pid*10 + int(raw[j]-'0')
			digits++
		}
		if digits == 0 || digits == 10 || (j < len(raw) && raw[j] != ',' && raw[j] != '}' && raw[j] != ' ' && raw[j] != '\n') {
			return 0
		}
		return pid
	}
	return 0
}

// start starts `troupe serve AwaitArg` in a session of its own, with no terminal.
func start() (*Child, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	defer null.Close()
	readyR, readyW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer readyW.Close() // the child's copy is the only writer: its exit is EOF on readyR
	argsR, argsW, err := os.Pipe()
	if err != nil {
		readyR.Close()
		return nil, err
	}
	defer argsR.Close()
	p, err := os.StartProcess(exe, []string{exe, "serve", AwaitArg}, &os.ProcAttr{
		Files: []*os.File{null, null, null, readyW, argsR},
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	if err != nil {
		readyR.Close()
		argsW.Close()
		return nil, err
	}
	return &Child{Process: p, Ready: readyR, Args: argsW}, nil
}
