package turn

import (
	"strings"
	"testing"
)

// turnOf feeds one turn of observations and returns the detector's verdict.
func turnOf(d *LoopDetector, obs ...Observation) *Loop {
	for _, o := range obs {
		d.Observe(o)
	}
	return d.EndTurn()
}

func read(turn int, path, out string) Observation {
	return Observation{Turn: turn, Name: "read_file", Args: `{"path":"` + path + `"}`, Output: out}
}

func TestIdenticalCallThreeTimesIsARepeat(t *testing.T) {
	var d LoopDetector
	ls := func(turn int, args string) Observation {
		return Observation{Turn: turn, Name: "list_dir", Args: args, Output: "a b"}
	}
	if l := turnOf(&d, ls(1, `{"path":".","depth":1}`)); l != nil {
		t.Fatalf("turn 1: %+v", l)
	}
	if l := turnOf(&d, ls(2, `{"depth":1, "path":"."}`)); l != nil {
		t.Fatalf("turn 2: %+v", l)
	}
	l := turnOf(&d, ls(3, `{ "path": ".", "depth": 1 }`)) // same call, other spacing and key order
	if l == nil || l.Kind != LoopRepeat || l.Level != LevelNote || len(l.Evidence) != 3 {
		t.Fatalf("turn 3: %+v, want a repeat at level 1 with three calls", l)
	}
}

func TestSameCommandSameErrorTwice(t *testing.T) {
	var d LoopDetector
	fail := Observation{Name: "bash", Args: `{"command":"go build"}`, IsError: true, Output: "exit status 1\n./a.go:3: undefined: x"}
	fail.Turn = 1
	if l := turnOf(&d, fail); l != nil {
		t.Fatalf("first failure: %+v", l)
	}
	fail.Turn, fail.Output = 2, "exit status 1\n./a.go:3: undefined: x (other detail)"
	l := turnOf(&d, fail)
	if l == nil || l.Kind != LoopSameError {
		t.Fatalf("second failure: %+v, want same_error", l)
	}
}

func TestDifferentErrorsAreNotALoop(t *testing.T) {
	var d LoopDetector
	turnOf(&d, Observation{Turn: 1, Name: "bash", Args: `{"command":"make"}`, IsError: true, Output: "error A"})
	if l := turnOf(&d, Observation{Turn: 2, Name: "bash", Args: `{"command":"make"}`, IsError: true, Output: "error B"}); l != nil {
		t.Fatalf("%+v", l)
	}
}

func TestEditThatUndoesThePreviousOne(t *testing.T) {
	var d LoopDetector
	ab := Observation{Turn: 1, Name: "edit_file", Args: `{"path":"m.go","old_string":"x := 1","new_string":"x := 2"}`, Changed: []string{"m.go"}}
	if l := turnOf(&d, ab); l != nil {
		t.Fatalf("first edit: %+v", l)
	}
	ba := Observation{Turn: 2, Name: "edit_file", Args: `{"path":"m.go","old_string":"x := 2","new_string":"x := 1"}`, Changed: []string{"m.go"}}
	l := turnOf(&d, ba)
	if l == nil || l.Kind != LoopUndo || !strings.Contains(l.Evidence[0], "turn 1") || !strings.Contains(l.Evidence[1], "turn 2") {
		t.Fatalf("undo: %+v", l)
	}
}

func TestWriteBackToTheOldContentIsAnUndo(t *testing.T) {
	var d LoopDetector
	w := func(turn int, content string) Observation {
		return Observation{Turn: turn, Name: "write_file", Args: `{"path":"c.txt","content":"` + content + `"}`, Changed: []string{"c.txt"}}
	}
	turnOf(&d, w(1, "A"))
	turnOf(&d, w(2, "B"))
	if l := turnOf(&d, w(3, "A")); l == nil || l.Kind != LoopUndo {
		t.Fatalf("A, B, A: %+v", l)
	}
}

func TestRereadingAnUnchangedFile(t *testing.T) {
	var d LoopDetector
	turnOf(&d, read(1, "a.go", "package a"))
	turnOf(&d, Observation{Turn: 2, Name: "read_file", Args: `{"path":"a.go","offset":1}`, Output: "package a"})
	l := turnOf(&d, Observation{Turn: 3, Name: "read_file", Args: `{"path":"a.go","limit":50}`, Output: "package a"})
	if l == nil || l.Kind != LoopReread {
		t.Fatalf("third read: %+v, want reread", l)
	}
}

func TestRereadAfterAChangeIsNotALoop(t *testing.T) {
	var d LoopDetector
	turnOf(&d, read(1, "a.go", "package a"))
	turnOf(&d, read(2, "a.go", "package a"))
	turnOf(&d, Observation{Turn: 3, Name: "edit_file", Args: `{"path":"a.go","old_string":"a","new_string":"b"}`, Changed: []string{"a.go"}})
	if l := turnOf(&d, Observation{Turn: 4, Name: "read_file", Args: `{"path":"a.go","offset":2}`, Output: "package b"}); l != nil {
		t.Fatalf("read after an edit: %+v", l)
	}
}

func TestLevelsEscalateAndCalmDown(t *testing.T) {
	var d LoopDetector
	same := func(turn int) Observation {
		return Observation{Turn: turn, Name: "grep", Args: `{"pattern":"x"}`, Output: "none"}
	}
	turnOf(&d, same(1))
	turnOf(&d, same(2))
	var levels []int
	for turn := 3; turn <= 5; turn++ {
		l := turnOf(&d, same(turn))
		if l == nil {
			t.Fatalf("turn %d: no loop", turn)
		}
		levels = append(levels, l.Level)
	}
	if levels[0] != LevelNote || levels[1] != LevelEvidence || levels[2] != LevelStop {
		t.Fatalf("levels = %v, want 1 2 3", levels)
	}
	for turn := 6; turn < 6+cleanTurnsToCalm; turn++ {
		if l := turnOf(&d, Observation{Turn: turn, Name: "read_file", Args: `{"path":"f` + string(rune('a'+turn)) + `"}`}); l != nil {
			t.Fatalf("turn %d: %+v", turn, l)
		}
	}
	turnOf(&d, Observation{Turn: 20, Name: "bash", Args: `{"command":"ls"}`})
	turnOf(&d, Observation{Turn: 21, Name: "bash", Args: `{"command":"ls"}`})
	if l := turnOf(&d, Observation{Turn: 22, Name: "bash", Args: `{"command":"ls"}`}); l == nil || l.Level != LevelNote {
		t.Fatalf("after calm turns: %+v, want level 1 again", l)
	}
}

func TestOldEvidenceIsNotReportedAgain(t *testing.T) {
	var d LoopDetector
	for turn := 1; turn <= 3; turn++ {
		turnOf(&d, read(turn, "x", "same"))
	}
	if l := turnOf(&d, Observation{Turn: 4, Name: "bash", Args: `{"command":"go test"}`, Output: "ok"}); l != nil {
		t.Fatalf("a new call after the loop: %+v", l)
	}
}

func TestNoteEscalatesWithEvidence(t *testing.T) {
	l := &Loop{Kind: LoopRepeat, Level: LevelNote, Evidence: []string{"turn 1: bash {}", "turn 2: bash {}"}}
	if strings.Contains(l.Note(), "turn 1") {
		t.Fatalf("level 1 note shows evidence: %s", l.Note())
	}
	l.Level = LevelEvidence
	if !strings.Contains(l.Note(), "turn 1: bash {}") || !strings.Contains(l.Note(), "the run stops") {
		t.Fatalf("level 2 note lacks evidence: %s", l.Note())
	}
}

func TestRunningTheTestsAgainAfterAnEditIsNotALoop(t *testing.T) {
	var d LoopDetector
	test := func(turn int) Observation {
		return Observation{Turn: turn, Name: "bash", Args: `{"command":"go test ./..."}`, IsError: true, Output: "FAIL\n--- FAIL: TestX"}
	}
	edit := func(turn int, n string) Observation {
		return Observation{Turn: turn, Name: "edit_file", Args: `{"path":"x.go","old_string":"v` + n + `","new_string":"v` + n + `+"}`, Changed: []string{"x.go"}}
	}
	for turn, n := 1, 0; turn < 9; turn, n = turn+2, n+1 {
		if l := turnOf(&d, test(turn)); l != nil {
			t.Fatalf("turn %d: %+v", turn, l)
		}
		if l := turnOf(&d, edit(turn+1, string(rune('a'+n)))); l != nil {
			t.Fatalf("turn %d: %+v", turn+1, l)
		}
	}
	turnOf(&d, test(20))
	if l := turnOf(&d, test(21)); l == nil || l.Kind != LoopSameError {
		t.Fatalf("the same failure twice with no change between: %+v", l)
	}
}
