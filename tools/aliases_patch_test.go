package tools

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// The patches below are the examples of Codex's own parser tests and scenario fixtures
// (codex-rs/apply-patch/src/parser.rs, tests/fixtures/scenarios).

// TestParsePatchGolden reads the grammar's examples into file operations.
func TestParsePatchGolden(t *testing.T) {
	tests := []struct {
		name, patch string
		want        []patchOp
	}{
		{"padded markers", "*** Begin Patch \n*** Add File: foo\n+hi\n *** End Patch",
			[]patchOp{{kind: "Add", path: "foo", content: "hi\n"}}},
		{"no operations", "*** Begin Patch\n*** End Patch", nil},
		{"add, delete, update with a move", "*** Begin Patch\n*** Add File: path/add.py\n+abc\n+def\n*** Delete File: path/delete.py\n" +
			"*** Update File: path/update.py\n*** Move to: path/update2.py\n@@ def f():\n-    pass\n+    return 123\n*** End Patch",
			[]patchOp{
				{kind: "Add", path: "path/add.py", content: "abc\ndef\n"},
				{kind: "Delete", path: "path/delete.py"},
				{kind: "Update", path: "path/update.py", moveTo: "path/update2.py", hunks: []patchHunk{{old: []string{"    pass"}, new: []string{"    return 123"}}}},
			}},
		{"update then add", "*** Begin Patch\n*** Update File: file.py\n@@\n+line\n*** Add File: other.py\n+content\n*** End Patch",
			[]patchOp{
				{kind: "Update", path: "file.py", hunks: []patchHunk{{new: []string{"line"}}}},
				{kind: "Add", path: "other.py", content: "content\n"},
			}},
		{"first hunk without @@", "*** Begin Patch\n*** Update File: file2.py\n import foo\n+bar\n*** End Patch",
			[]patchOp{{kind: "Update", path: "file2.py", hunks: []patchHunk{{old: []string{"import foo"}, new: []string{"import foo", "bar"}}}}}},
		{"two hunks with headers", "*** Begin Patch\n*** Update File: src/config.rs\n@@ impl Config\n-    pub apply_patch_progress: bool,\n" +
			"+    pub stream_apply_patch_progress: bool,\n     pub include_diagnostics: bool,\n@@ fn default_progress_interval()\n" +
			"-    Duration::from_millis(500)\n+    Duration::from_millis(250)\n*** End Patch",
			[]patchOp{{kind: "Update", path: "src/config.rs", hunks: []patchHunk{
				{old: []string{"    pub apply_patch_progress: bool,", "    pub include_diagnostics: bool,"},
					new: []string{"    pub stream_apply_patch_progress: bool,", "    pub include_diagnostics: bool,"}},
				{old: []string{"    Duration::from_millis(500)"}, new: []string{"    Duration::from_millis(250)"}},
			}}}},
		{"end of file marker", "*** Begin Patch\n*** Update File: tail.txt\n@@\n first\n-second\n+second updated\n*** End of File\n*** End Patch\n",
			[]patchOp{{kind: "Update", path: "tail.txt", hunks: []patchHunk{{old: []string{"first", "second"}, new: []string{"first", "second updated"}, endOfFile: true}}}}},
		{"blank context line without its space, CRLF", "*** Begin Patch\r\n*** Update File: a\r\n@@\r\n x\r\n\r\n-y\r\n+z\r\n*** End Patch\r\n",
			[]patchOp{{kind: "Update", path: "a", hunks: []patchHunk{{old: []string{"x", "", "y"}, new: []string{"x", "", "z"}}}}}},
		{"heredoc around it", "<<'EOF'\n*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch\nEOF\n",
			[]patchOp{{kind: "Delete", path: "gone.txt"}}},
		// unified diffs as git writes them (git diff's documentation): headers, then hunks
		{"unified, git headers, two hunks", "diff --git a/x.go b/x.go\nindex 83db48f..bf269f4 100644\n--- a/x.go\n+++ b/x.go\n" +
			"@@ -1,2 +1,2 @@ package x\n a\n-b\n+B\n@@ -9 +9 @@\n-y\n+Y\n\\ No newline at end of file\n",
			[]patchOp{{kind: "Update", path: "x.go", hunks: []patchHunk{{old: []string{"a", "b"}, new: []string{"a", "B"}}, {old: []string{"y"}, new: []string{"Y"}}}}}},
		{"unified, new and deleted files without prefixes", "--- /dev/null\n+++ new.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n--- old.txt\t2026-01-01\n+++ /dev/null\n@@ -1 +0,0 @@\n-gone\n",
			[]patchOp{{kind: "Add", path: "new.txt", content: "one\ntwo\n"}, {kind: "Delete", path: "old.txt"}}},
		{"unified, llm-functions' @@ ... @@", "--- a/hello.py\n+++ b/hello.py\n@@ ... @@\n def hello():\n-    print(\"Hello World\")\n+    name = input()\n",
			[]patchOp{{kind: "Update", path: "hello.py", hunks: []patchHunk{{old: []string{"def hello():", `    print("Hello World")`}, new: []string{"def hello():", "    name = input()"}}}}}},
	}
	for _, tc := range tests {
		got, problem := parsePatch(tc.patch)
		if problem != "" {
			t.Errorf("%s: %s", tc.name, problem)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.name, got, tc.want)
		}
	}
}

// TestParsePatchProblems: a malformed patch is refused with where and why.
func TestParsePatchProblems(t *testing.T) {
	tests := []struct{ patch, want string }{
		{"bad", `first line must be "*** Begin Patch"`},
		{"*** Begin Patch\nbad", `last line must be "*** End Patch"`},
		{"*** Begin Patch\n*** Update File: test.py\n*** End Patch", "the update of test.py has no hunk"},
		{"*** Begin Patch\n*** Frobnicate File: foo\n*** End Patch", `line 2, "*** Frobnicate File: foo", is not a file header`},
		{"*** Begin Patch\n*** Update File: foo.txt\n@@\n*** End of File\n*** End Patch", "the hunk at line 3 has no lines"},
		{"*** Begin Patch\n*** Update File: a\n@@\nx = 1\n*** End Patch", `line 4, "x = 1", starts with none of ' ', '-', '+'`},
		{"*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\nz\n*** End Patch", `line 6, "z", should start a hunk with @@`},
		{"*** Begin Patch\n*** Update File:  \n@@\n-x\n+y\n*** End Patch", `line 2, "*** Update File:", names no file`},
	}
	for _, tc := range tests {
		_, problem := parsePatch(tc.patch)
		if !strings.Contains(problem, tc.want) {
			t.Errorf("parsePatch(%q) problem = %q, want %q", tc.patch, problem, tc.want)
		}
	}
}

// TestApplyPatchMapping: what each patch becomes, or why it is refused, through Resolve.
func TestApplyPatchMapping(t *testing.T) {
	reg := builtinRegistry(t)
	patchArgs := func(patch string) string {
		b, _ := json.Marshal(map[string]string{"input": patch})
		return string(b)
	}
	mapped := []struct{ name, patch, tool, want string }{
		{"one hunk with context", "*** Begin Patch\n*** Update File: a.py\n@@ def f():\n x = 1\n-    pass\n+    return 123\n y = 2\n*** End Patch",
			"edit_file", `{"path":"a.py","old_string":"x = 1\n    pass\ny = 2","new_string":"x = 1\n    return 123\ny = 2"}`},
		{"deletion only", "*** Begin Patch\n*** Update File: lines.txt\n@@\n line1\n-line2\n line3\n*** End Patch",
			"edit_file", `{"path":"lines.txt","old_string":"line1\nline2\nline3","new_string":"line1\nline3"}`},
		{"whole lines removed, no context", "*** Begin Patch\n*** Update File: a\n@@\n-gone\n*** End Patch",
			"edit_file", `{"path":"a","old_string":"gone\n","new_string":""}`},
		{"trailing blank context dropped", "*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n \n*** End Patch",
			"edit_file", `{"path":"a","old_string":"x","new_string":"y"}`},
		{"padded update header", "*** Begin Patch\n  *** Update File: foo.txt\n@@\n-old\n+new\n*** End Patch",
			"edit_file", `{"path":"foo.txt","old_string":"old","new_string":"new"}`},
		{"unicode", "*** Begin Patch\n*** Update File: foo.txt\n@@\n line1\n-naïve café\n+naïve café ✅\n*** End Patch ",
			"edit_file", `{"path":"foo.txt","old_string":"line1\nnaïve café","new_string":"line1\nnaïve café ✅"}`},
		{"add", "*** Begin Patch\n*** Add File: hello.txt\n+Hello, World!\n*** End Patch",
			"write_file", `{"path":"hello.txt","content":"Hello, World!\n"}`},
	}
	for _, tc := range mapped {
		got, args, ok := reg.Resolve("apply_patch", patchArgs(tc.patch))
		if !ok || got != tc.tool || !sameJSON(t, args, tc.want) {
			t.Errorf("%s: Resolve = %s %s (%v); want %s %s", tc.name, got, args, ok, tc.tool, tc.want)
		}
	}
	refused := []struct{ name, patch, want string }{
		{"two hunks", "*** Begin Patch\n*** Update File: multi.txt\n@@\n-line2\n+changed2\n@@\n-line4\n+changed4\n*** End Patch",
			`the patch has 2 hunks and edit_file makes one replacement per call; send one edit_file per hunk, in order, starting with {"new_string":"changed2","old_string":"line2","path":"multi.txt"}`},
		{"pure addition", "*** Begin Patch\n*** Update File: input.txt\n@@\n+added line 1\n+added line 2\n*** End Patch",
			"hunk 1 only adds lines and has nothing to anchor them"},
		{"move", "*** Begin Patch\n*** Update File: old/name.txt\n*** Move to: renamed/dir/name.txt\n@@\n-old content\n+new content\n*** End Patch",
			"rename with bash: mv old/name.txt renamed/dir/name.txt, then change the file with edit_file"},
		{"delete", "*** Begin Patch\n*** Delete File: obsolete.txt\n*** End Patch", "delete it with bash: rm obsolete.txt"},
		{"several files", "*** Begin Patch\n*** Add File: nested/new.txt\n+created\n*** Delete File: delete.txt\n*** Update File: modify.txt\n@@\n-line2\n+changed\n*** End Patch",
			"the patch has 3 file operations (add nested/new.txt, delete delete.txt, update modify.txt); send one call per file"},
		{"context only", "*** Begin Patch\n*** Update File: a\n@@\n x\n*** End Patch", "hunk 1 changes nothing"},
		{"empty", "*** Begin Patch\n*** End Patch", "no file operation"},
		{"not a patch", "in x, change a to b", `the patch cannot be read: its first line must be "*** Begin Patch"`},
	}
	for _, tc := range refused {
		got, _, ok := reg.Resolve("apply_patch", patchArgs(tc.patch))
		if ok {
			t.Errorf("%s: resolved to %s, want a refusal", tc.name, got)
			continue
		}
		res := reg.Execute(context.Background(), newEnv(t), Call{ID: "1", Name: "apply_patch", Args: patchArgs(tc.patch)})
		if !res.Rejected {
			t.Errorf("%s: not rejected: %+v", tc.name, res)
		}
		mustContain(t, res.Output, tc.want)
	}
}

// TestApplyPatchBareText: Codex's apply_patch is a freeform tool, so the arguments may be the
// patch itself, or the patch as one JSON string.
func TestApplyPatchBareText(t *testing.T) {
	reg := builtinRegistry(t)
	patch := "*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** End Patch\n"
	quoted, _ := json.Marshal(patch)
	for _, raw := range []string{patch, string(quoted), "<<'EOF'\n" + patch + "EOF"} {
		got, args, ok := reg.Resolve("apply_patch", raw)
		if !ok || got != "edit_file" || !sameJSON(t, args, `{"path":"a","old_string":"x","new_string":"y"}`) {
			t.Errorf("Resolve(apply_patch, %q) = %s %s (%v)", raw, got, args, ok)
		}
	}
	if got, args, _ := reg.Resolve("apply_patch", `"just words"`); got == "edit_file" && strings.Contains(args, "old_string") {
		t.Errorf("a string that is no patch was read as one: %s", args)
	}
}

// TestCodexShellPatch: the patch reaches edit_file however Codex's shell carries it, with its
// paths under the working directory and the script's cd.
func TestCodexShellPatch(t *testing.T) {
	reg := builtinRegistry(t)
	update := "*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+y\n*** End Patch"
	tests := []struct {
		name string
		args any
		path string
	}{
		{"argv", map[string]any{"command": []string{"apply_patch", update}}, "a.txt"},
		{"argv with a heredoc argument", map[string]any{"command": []string{"apply_patch", "<<'EOF'\n" + update + "\nEOF\n"}}, "a.txt"},
		{"argv under a workdir", map[string]any{"command": []string{"apply_patch", update}, "workdir": "sub"}, "sub/a.txt"},
		{"bash -lc heredoc", map[string]any{"command": []string{"bash", "-lc", "apply_patch <<'EOF'\n" + update + "\nEOF\n"}}, "a.txt"},
		{"bash -lc cd and heredoc", map[string]any{"command": []string{"bash", "-lc", "cd pkg && apply_patch <<\"PATCH\"\n" + update + "\nPATCH"}, "workdir": "/w"}, "/w/pkg/a.txt"},
	}
	for _, tc := range tests {
		raw, _ := json.Marshal(tc.args)
		got, args, ok := reg.Resolve("shell", string(raw))
		want := `{"path":"` + tc.path + `","old_string":"x","new_string":"y"}`
		if !ok || got != "edit_file" || !sameJSON(t, args, want) {
			t.Errorf("%s: Resolve = %s %s (%v); want edit_file %s", tc.name, got, args, ok, want)
		}
	}
	// A heredoc to another command stays a shell command.
	if got, _, _ := reg.Resolve("shell", `{"command":["bash","-lc","cat <<'EOF'\nhi\nEOF"]}`); got != "bash" {
		t.Errorf("cat with a heredoc resolved to %s", got)
	}
}

// TestApplyPatchExecutes runs Codex's scenarios end to end: the update lands through
// edit_file's lifecycle, file truth included.
func TestApplyPatchExecutes(t *testing.T) {
	tests := []struct{ name, before, patch, after string }{
		{"deletion only", "line1\nline2\nline3\n", "*** Begin Patch\n*** Update File: f.txt\n@@\n line1\n-line2\n line3\n*** End Patch\n", "line1\nline3\n"},
		{"end of file", "first\nsecond\n", "*** Begin Patch\n*** Update File: f.txt\n@@\n first\n-second\n+second updated\n*** End of File\n*** End Patch\n", "first\nsecond updated\n"},
		{"whole line removed", "a\ngone\nb\n", "*** Begin Patch\n*** Update File: f.txt\n@@\n-gone\n*** End Patch", "a\nb\n"},
		{"last lines removed", "a\nb\nc", "*** Begin Patch\n*** Update File: f.txt\n@@\n-b\n-c\n*** End of File\n*** End Patch", "a"},
		{"header ignored, indented body", "def f():\n    pass\n", "*** Begin Patch\n*** Update File: f.txt\n@@ def f():\n-    pass\n+    return 123\n*** End Patch", "def f():\n    return 123\n"},
	}
	for _, tc := range tests {
		env, _ := trackedEnv(t)
		writeFiles(t, env.Root, map[string]string{"f.txt": tc.before})
		args, _ := json.Marshal(map[string]string{"input": tc.patch})
		mustFail(t, call(t, env, "apply_patch", string(args)), "you have not read it in this session")
		mustOK(t, call(t, env, "read_file", `{"path":"f.txt"}`))
		res := mustOK(t, call(t, env, "apply_patch", string(args)))
		mustContain(t, res.Output, "tool_name apply_patch→edit_file")
		if got := readFileT(t, env.Root+"/f.txt"); got != tc.after {
			t.Errorf("%s: file is %q, want %q", tc.name, got, tc.after)
		}
	}
}

// FuzzParsePatch: no input panics, and a patch that maps gives edit_file or write_file a path.
func FuzzParsePatch(f *testing.F) {
	for _, seed := range []string{
		"*** Begin Patch\n*** Update File: a\n@@\n x\n-y\n+z\n*** End of File\n*** End Patch",
		"*** Begin Patch\n*** Add File: a\n+x\n*** Delete File: b\n*** End Patch",
		"<<'EOF'\n*** Begin Patch\n*** Update File: a\n*** Move to: b\n@@\n-x\n*** End Patch\nEOF",
		"*** Begin Patch\n@@\n\n*** End Patch", "", "<<EOF\nEOF",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		args := map[string]any{"input": text}
		to, refusal := applyPatch(args)
		if refusal == "" {
			if p, _ := args["path"].(string); (to != "edit_file" && to != "write_file") || strings.TrimSpace(p) == "" {
				t.Fatalf("mapped %q to %s %v", text, to, args)
			}
		}
	})
}
