package launch

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestAsksHelp(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"--model", "x", "fix it"}, false},
		{[]string{"--help"}, true},
		{[]string{"--model", "x", "-h"}, true},
		{[]string{"--", "--help"}, false}, // the task is "--help"
	} {
		if got := asksHelp(tc.args); got != tc.want {
			t.Errorf("asksHelp(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}

func TestSessionCommand(t *testing.T) {
	for cmd, want := range map[string]bool{"run": true, "chat": true, "resume": true, "loop": true,
		"serve": false, "version": false, "stop": false, "": false, "runner": false} {
		if got := sessionCommand(cmd); got != want {
			t.Errorf("sessionCommand(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// liveNode finds node.json at the root config.ProjectRoot finds (the nearest .git above), and
// believes it only while its process lives.
func TestLiveNode(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(root, "a", "b")
	for _, d := range []string{filepath.Join(root, ".git"), filepath.Join(root, ".troupe"), sub} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if liveNode(sub) {
		t.Error("no node.json: a live node")
	}
	write := func(pid int) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, ".troupe", "node.json"), fmt.Appendf(nil, `{"url":"nats://x","creds":"/a/\"pid\"","pid":%d,"ns":"p"}`, pid), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(os.Getpid())
	if !liveNode(sub) {
		t.Error("node.json naming a live process, from a subdirectory: no live node")
	}
	if !liveNode(root) {
		t.Error("node.json naming a live process, from the root: no live node")
	}
	write(1 << 30) // no such process
	if liveNode(sub) {
		t.Error("node.json naming no process: a live node")
	}
	// A directory with no repository above it is its own root: a .troupe higher up is another
	// project's.
	if liveNode(t.TempDir()) {
		t.Error("a directory outside any repository found a node")
	}
}

func TestJSONPID(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want int
	}{
		{`{"url":"nats://127.0.0.1:1","pid":4242,"ns":"x"}`, 4242},
		{`{"pid":7}`, 7},
		{"{\n  \"pid\": 12,\n  \"node\": \"n\"\n}", 12},
		{`{"root":"/home/\"pid\"","pid":99}`, 99}, // an escaped "pid" inside a value is not the key
		{`{"node":"pid","pid":5}`, 5},             // "pid" as a value is not the key
		{`{"pid":-3}`, 0},
		{`{"pid":"12"}`, 0},
		{`{"pid":12.5}`, 0},
		{`{"pid":99999999999}`, 0}, // not a pid: no overflow into one
		{`{"url":"x"}`, 0},
		{``, 0},
		{`{"pid":`, 0},
	} {
		if got := jsonPID([]byte(tc.raw)); got != tc.want {
			t.Errorf("jsonPID(%s) = %d, want %d", tc.raw, got, tc.want)
		}
	}
}

func TestParentDirAndJoin(t *testing.T) {
	for dir, want := range map[string]string{"/a/b/c": "/a/b", "/a": "/", "/": "/"} {
		if got := parentDir(dir); got != want {
			t.Errorf("parentDir(%q) = %q, want %q", dir, got, want)
		}
	}
	if got := join("/", ".git"); got != "/.git" {
		t.Errorf(`join("/", ".git") = %q`, got)
	}
	if got := join("/a", ".git"); got != "/a/.git" {
		t.Errorf(`join("/a", ".git") = %q`, got)
	}
}

// physicalWd resolves symbolic links, as config.ProjectRoot's EvalSymlinks does.
func TestPhysicalWd(t *testing.T) {
	real, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	t.Chdir(link)
	got, err := physicalWd()
	if err != nil || got != real {
		t.Errorf("physicalWd() in a link to %s = %q, %v", real, got, err)
	}
}

// The package must import nothing that the os package itself does not already need: its init
// then runs right after os's, at the start of the process's initialisation (see the package
// comment; cmd/troupe's TestPrespawnInitRunsEarly checks the order on the built binary).
func TestImportsOnlyWhatOsNeeds(t *testing.T) {
	allowed := map[string]bool{"os": true, "syscall": true, "sync/atomic": true}
	out, err := goListImports()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, imp := range out {
		if !allowed[imp] {
			t.Errorf("launch imports %s: its init would wait for that package's initialisation", imp)
		}
	}
}

// goListImports lists this package's non-test imports.
func goListImports() ([]string, error) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, ".").Output()
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(out)), nil
}
