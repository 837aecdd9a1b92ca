package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/troupe-dev/troupe/actors/lessons"
	"github.com/troupe-dev/troupe/messages"
)

// benchCase is one recorded trap: a session that met it and fixed it (learn), then a new
// session's task and the same trap met again (meet), split at a "bench.meet" line.
type benchCase struct {
	name     string
	learn    []lessons.Recorded
	meetTask string
	meet     []lessons.Recorded
}

// readCases reads every case file of dir, by name.
func readCases(dir string) ([]benchCase, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var out []benchCase
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		c, err := parseCase(strings.TrimSuffix(filepath.Base(p), ".jsonl"), data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no case files in %s", dir)
	}
	return out, nil
}

func parseCase(name string, data []byte) (benchCase, error) {
	c := benchCase{name: name}
	var learn, meet bytes.Buffer
	cur := &learn
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 8<<20)
	for sc.Scan() {
		var head struct {
			Type string `json:"type"`
			Data struct {
				Task string `json:"task"`
			} `json:"data"`
		}
		if json.Unmarshal(sc.Bytes(), &head) == nil && head.Type == "bench.meet" {
			c.meetTask, cur = head.Data.Task, &meet
			continue
		}
		cur.Write(sc.Bytes())
		cur.WriteByte('\n')
	}
	var err error
	if c.learn, err = lessons.ReadRecording(&learn); err != nil {
		return c, err
	}
	if c.meet, err = lessons.ReadRecording(&meet); err != nil {
		return c, err
	}
	if c.meetTask == "" || len(c.meet) == 0 {
		return c, fmt.Errorf("no bench.meet line, or nothing after it")
	}
	return c, nil
}

// verifySeal checks dir's files against its SHA256SUMS: the held-out set is read only as it
// was sealed.
func verifySeal(dir string) error {
	f, err := os.Open(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		return fmt.Errorf("the held-out set has no seal: %w", err)
	}
	defer f.Close()
	sealed := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, name, ok := strings.Cut(strings.TrimSpace(sc.Text()), "  ")
		if !ok {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		got := sha256.Sum256(data)
		if hex.EncodeToString(got[:]) != sum {
			return fmt.Errorf("held-out file %s changed since it was sealed", name)
		}
		sealed++
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if sealed != len(files) {
		return fmt.Errorf("the seal covers %d files of %d", sealed, len(files))
	}
	return nil
}

// probe is how one case fared: whether its lesson was learnt, and what came back before the
// task and after the failure.
type probe struct {
	name             string
	learnt           bool
	atTask, atFail   bool
	wrongTask, wrong []string // other cases' lessons that came along
}

// evalRetrieval learns every case of cases and distractors into one project's lessons, then
// plays each case's new session against them.
func evalRetrieval(cases, distractors []benchCase) []probe {
	var all []messages.Lesson
	own := map[string][]string{} // case -> lesson ids
	owner := map[string]string{}
	for _, c := range append(slices.Clone(cases), distractors...) {
		learnt, _ := lessons.Learn(c.learn, "openai/m", c.name)
		for _, l := range learnt {
			own[c.name] = append(own[c.name], l.ID)
			owner[l.ID] = c.name
			all = append(all, l)
		}
	}
	var out []probe
	for _, c := range cases {
		p := probe{name: c.name, learnt: len(own[c.name]) > 0}
		tr := lessons.NewTracker("openai/m", "meet-"+c.name, all, 0)
		tr.Task(c.meetTask)
		p.atTask, p.wrongTask = judge(tr.Book.Current(), c.name, owner)
		for _, e := range c.meet {
			tr.Observe(e.Type, e.Data)
		}
		p.atFail, p.wrong = judge(tr.Book.Current(), c.name, owner)
		out = append(out, p)
	}
	return out
}

// judge says whether the block holds the case's own lesson, and which others' it holds.
func judge(block []string, name string, owner map[string]string) (hit bool, wrong []string) {
	for _, id := range block {
		if owner[id] == name {
			hit = true
		} else {
			wrong = append(wrong, owner[id])
		}
	}
	return hit, wrong
}

// printRetrieval prints one set's figures.
func printRetrieval(w io.Writer, label string, probes []probe) {
	var learnt, atTask, atFail, wrongTask, wrongFail int
	fmt.Fprintf(w, "\n%s (%d cases)\n  %-12s %-7s %-12s %-12s %s\n", label, len(probes), "case", "learnt", "before task", "after fail", "wrong ones that came along (task | failure)")
	for _, p := range probes {
		fmt.Fprintf(w, "  %-12s %-7v %-12v %-12v %s | %s\n", p.name, p.learnt, p.atTask, p.atFail, strings.Join(p.wrongTask, ","), strings.Join(p.wrong, ","))
		learnt += b2i(p.learnt)
		atTask += b2i(p.atTask)
		atFail += b2i(p.atFail)
		wrongTask += len(p.wrongTask)
		wrongFail += len(p.wrong)
	}
	n := float64(len(probes))
	fmt.Fprintf(w, "  learnt %d/%d; the fixing lesson came back before the task %d/%d (%.0f%%), after the failure %d/%d (%.0f%%)\n",
		learnt, len(probes), atTask, len(probes), 100*float64(atTask)/n, atFail, len(probes), 100*float64(atFail)/n)
	fmt.Fprintf(w, "  wrong lessons per new session: %.2f with the task, %.2f after the failure (block holds at most %d)\n",
		float64(wrongTask)/n, float64(wrongFail)/n, lessons.DefaultK)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
