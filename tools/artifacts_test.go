package tools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// memArtifacts is an in-memory ArtifactStore.
type memArtifacts struct {
	mu   sync.Mutex
	data map[string][]byte
	fail error
}

func newMemArtifacts() *memArtifacts { return &memArtifacts{data: map[string][]byte{}} }

func (m *memArtifacts) PutArtifact(data []byte) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail != nil {
		return "", m.fail
	}
	sum := sha256.Sum256(data)
	ref := "sha256:" + hex.EncodeToString(sum[:])
	m.data[ref] = append([]byte(nil), data...)
	return ref, nil
}

func (m *memArtifacts) Artifact(ref string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	d, ok := m.data[ref]
	if !ok {
		return nil, fmt.Errorf("artifact %s: not found", ref)
	}
	return d, nil
}

var refPattern = regexp.MustCompile(`ref=(sha256:[0-9a-f]{64})`)

func refIn(t *testing.T, out string) string {
	t.Helper()
	m := refPattern.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no ref in output:\n%s", out)
	}
	return m[1]
}

func TestArtifactOverflow(t *testing.T) {
	env := newEnv(t)
	store := newMemArtifacts()
	env.Artifacts = store
	reg := testRegistry(t, ReadArtifact())
	reg.SetOverflow(ArtifactOverflow(store))
	res := reg.Execute(context.Background(), env, Call{Name: "sized", Args: `{"lines":1000}`})
	if len(res.Output) > 2000 {
		t.Errorf("output is %d bytes, over the 2000-byte budget", len(res.Output))
	}
	mustContain(t, res.Output, "line 00001", "line 01000", "output was 11000 bytes, 1000 lines", "read_artifact ref=")
	ref := refIn(t, res.Output)
	whole, err := store.Artifact(ref)
	if err != nil || len(whole) != 11000 || !strings.HasPrefix(string(whole), "line 00001\n") {
		t.Fatalf("stored artifact: %d bytes, %v", len(whole), err)
	}

	// Paging.
	page := reg.Execute(context.Background(), env, Call{Name: "read_artifact", Args: `{"ref":"` + ref + `","offset":500,"limit":3}`})
	mustOK(t, page)
	mustContain(t, page.Output, "   500\tline 00500\n   501\tline 00501\n   502\tline 00502\n", "(lines 500–502 of 1000; call again with offset=503 for more)")
	first := mustOK(t, reg.Execute(context.Background(), env, Call{Name: "read_artifact", Args: `{"ref":"` + ref + `"}`}))
	mustContain(t, first.Output, "   400\tline 00400\n", "offset=401")

	// Failures say what to do.
	mustFail(t, reg.Execute(context.Background(), env, Call{Name: "read_artifact", Args: `{"ref":"sha256:nope"}`}), "use the exact ref")
	mustFail(t, reg.Execute(context.Background(), env, Call{Name: "read_artifact", Args: `{"ref":"` + ref + `","offset":5000}`}), "offset 5000 is past the end")
	env.Artifacts = nil
	mustFail(t, reg.Execute(context.Background(), env, Call{Name: "read_artifact", Args: `{"ref":"` + ref + `"}`}), "no artifact store")

	// A store that fails leaves the cut output and says so.
	store.fail = errors.New("disk full")
	res = reg.Execute(context.Background(), env, Call{Name: "sized", Args: `{"lines":999}`})
	mustContain(t, res.Output, "line 00999", "could not be kept: disk full")
}

func TestBashHugeOutput(t *testing.T) {
	const cmd = `{"command":"seq 1 200000"}`
	t.Run("without a store it is bounded", func(t *testing.T) {
		env := newEnv(t)
		res := call(t, env, "bash", cmd)
		if len(res.Output) > DefaultMaxResultBytes {
			t.Errorf("output is %d bytes", len(res.Output))
		}
		mustContain(t, res.Output, "1\n2\n", "200000\n", "lines dropped", "[exit code 0]")
	})
	t.Run("with a store it is kept whole", func(t *testing.T) {
		env := newEnv(t)
		store := newMemArtifacts()
		env.Artifacts = store
		res := call(t, env, "bash", cmd)
		if len(res.Output) > DefaultMaxResultBytes {
			t.Errorf("output is %d bytes", len(res.Output))
		}
		mustContain(t, res.Output, "200000\n", "[exit code 0]", "output was 1288895 bytes, 200000 lines; the whole output is stored as ref=", "read_artifact ref=")
		whole, err := store.Artifact(refIn(t, res.Output))
		if err != nil {
			t.Fatal(err)
		}
		if lines := strings.Split(strings.TrimSuffix(string(whole), "\n"), "\n"); len(lines) != 200000 || lines[199999] != "200000" {
			t.Errorf("artifact has %d lines", len(lines))
		}
		small := call(t, env, "bash", `{"command":"echo small"}`)
		if strings.Contains(small.Output, "ref=") {
			t.Errorf("a short output was stored: %s", small.Output)
		}
	})
}
