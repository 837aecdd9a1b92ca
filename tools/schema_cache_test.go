package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// allTools is every tool a Node offers a session by default.
func allTools() []Tool {
	return append(append(append(Builtins(), ReadArtifact()), AgentTools()...), GoalTools()...)
}

func (c *SchemaCache) size() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	n := 0
	for _, m := range c.byName {
		n += len(m)
	}
	return n
}

func TestSchemaCacheShares(t *testing.T) {
	cache := &SchemaCache{}
	r1, err := NewRegistryWith(cache, allTools()...)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cache.size(), len(r1.entries); got != want {
		t.Fatalf("cache holds %d schemas after one registry, want %d", got, want)
	}
	r2, err := NewRegistryWith(cache, allTools()...)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := NewRegistry(allTools()...)
	if err != nil {
		t.Fatal(err)
	}
	if cache.size() != len(r1.entries) {
		t.Fatalf("the second registry added schemas: %d, want %d", cache.size(), len(r1.entries))
	}
	for _, e := range r1.entries {
		if r2.byName[e.spec.Name].schema != e.schema {
			t.Errorf("%s: registries built with one cache do not share its schema", e.spec.Name)
		}
		if fresh.byName[e.spec.Name].schema == e.schema {
			t.Errorf("%s: NewRegistry shares a schema with a cached registry", e.spec.Name)
		}
		if got, want := e.schema.summary, fresh.byName[e.spec.Name].schema.summary; got != want {
			t.Errorf("%s: summary %q, want %q", e.spec.Name, got, want)
		}
	}
	// A narrowed set (a subagent's) takes its schemas from the same cache.
	r3, err := NewRegistryWith(cache, ReadArtifact(), echoTool{})
	if err != nil {
		t.Fatal(err)
	}
	if r3.byName["read_artifact"].schema != r1.byName["read_artifact"].schema {
		t.Error("a narrowed registry does not share the cached schema")
	}
	if cache.size() != len(r1.entries)+1 {
		t.Errorf("cache holds %d schemas, want %d (echo added)", cache.size(), len(r1.entries)+1)
	}
}

// TestSchemaCacheKey: the key is the name and the exact schema bytes.
func TestSchemaCacheKey(t *testing.T) {
	tool := func(name, schema string) Tool {
		return specTool{Spec{Name: name, Description: "x", Risk: RiskRead, Schema: json.RawMessage(schema)}}
	}
	cache := &SchemaCache{}
	a := `{"type":"object","properties":{"n":{"type":"integer"}}}`
	b := `{"type":"object","properties":{"n":{"type":"string"}},"required":["n"]}`
	schemaOf := func(tt Tool) *argsSchema {
		t.Helper()
		r, err := NewRegistryWith(cache, tt)
		if err != nil {
			t.Fatal(err)
		}
		return r.entries[0].schema
	}
	ta, tb, ua := schemaOf(tool("t", a)), schemaOf(tool("t", b)), schemaOf(tool("u", a))
	if ta == tb || ta == ua || tb == ua {
		t.Fatal("different names or schema bytes share a compiled schema")
	}
	if ta.summary != "{n?: integer}" || tb.summary != "{n: string}" {
		t.Fatalf("summaries %q, %q", ta.summary, tb.summary)
	}
	if schemaOf(tool("t", a)) != ta || schemaOf(tool("t", b)) != tb {
		t.Fatal("the same name and schema were compiled again")
	}
	if err := tb.validate(map[string]any{"n": 1.0}); err == nil || !strings.Contains(err.Error(), "n: got number, want string") {
		t.Fatalf("validate = %v", err)
	}
}

// TestNewRegistryWithRejects: a cache changes no error, and keeps no failed schema.
func TestNewRegistryWithRejects(t *testing.T) {
	bad := func(name, schema string, pathArgs ...string) Tool {
		return specTool{Spec{Name: name, Description: "x", Risk: RiskRead, Schema: json.RawMessage(schema), PathArgs: pathArgs}}
	}
	cases := [][]Tool{
		{echoTool{}, echoTool{}},
		{bad("has space", `{"type":"object"}`)},
		{bad("t", `{"type":`)},
		{bad("t", `{"type":"object","properties":{"a":{"type":"nope"}}}`)},
		{bad("t", `{"type":"string"}`)},
		{bad("t", ``)},
		{bad("t", `{"type":"object"}`, "path")},
		{bad("t", `{"type":"object","properties":{"path":{"type":"integer"}}}`, "path")},
	}
	cache := &SchemaCache{}
	if _, err := NewRegistryWith(cache, echoTool{}, bad("t", `{"type":"object"}`)); err != nil {
		t.Fatal(err)
	}
	for i, ts := range cases {
		for round := range 2 { // the second round meets whatever the first left in the cache
			_, want := NewRegistry(ts...)
			_, got := NewRegistryWith(cache, ts...)
			if want == nil || got == nil || got.Error() != want.Error() {
				t.Errorf("case %d round %d: NewRegistryWith: %v, NewRegistry: %v", i, round, got, want)
			}
		}
	}
	// echo and t's object schema, plus the one with an integer path: it compiles, and the
	// registry's path check, not the compile, rejects it.
	if n := cache.size(); n != 3 {
		t.Errorf("cache holds %d schemas, want 3", n)
	}
}

// TestSchemaCacheConcurrent builds registries from one cache and runs calls on them at once,
// as a Node's sessions do (run under -race).
func TestSchemaCacheConcurrent(t *testing.T) {
	env := newEnv(t)
	cache := &SchemaCache{}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				reg, err := NewRegistryWith(cache, append(allTools(), echoTool{})...)
				if err != nil {
					errs <- err
					return
				}
				res := reg.Execute(context.Background(), env, Call{ID: "1", Name: "echo", Args: fmt.Sprintf(`{"path":"a.go","count":"%d"}`, i)})
				if want := fmt.Sprintf(`{"count":%d,"path":"a.go"}`, i); res.IsError || res.Output != want {
					errs <- fmt.Errorf("goroutine %d: %q, want %q", g, res.Output, want)
					return
				}
				res = reg.Execute(context.Background(), env, Call{ID: "2", Name: "echo", Args: `{"count":"x"}`})
				if !res.IsError || !strings.Contains(res.Output, "missing required property 'path'") {
					errs <- fmt.Errorf("goroutine %d: %q", g, res.Output)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := cache.size(); n != len(allTools())+1 {
		t.Errorf("cache holds %d schemas, want %d", n, len(allTools())+1)
	}
}

// BenchmarkNewRegistry builds a session's registry of the default tools, as a Node does per
// session: compiling every schema, and from a warm cache.
func BenchmarkNewRegistry(b *testing.B) {
	b.Run("fresh", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := NewRegistry(allTools()...); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		cache := &SchemaCache{}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := NewRegistryWith(cache, allTools()...); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// Deferred schemas give registries what they read at once, validate exactly as compiled ones do
// on the first call, and are shared like them; a deferred schema that does not compile fails
// the calls that need it, with the compiler's words.
func TestSchemaCacheDefer(t *testing.T) {
	deferred := &SchemaCache{}
	if err := deferred.Defer(allTools()...); err != nil {
		t.Fatal(err)
	}
	if got, want := deferred.size(), len(allTools()); got != want {
		t.Fatalf("deferred %d schemas, want %d", got, want)
	}
	for _, tool := range allTools() {
		spec := tool.Spec()
		d, err := deferred.compile(spec.Name, spec.Schema)
		if err != nil {
			t.Fatalf("%s: %v", spec.Name, err)
		}
		if d.resolved != nil {
			t.Errorf("%s: the validator was built before any call", spec.Name)
		}
		c, err := compileArgsSchema(spec.Name, spec.Schema)
		if err != nil {
			t.Fatalf("%s: %v", spec.Name, err)
		}
		if d.summary != c.summary || d.example != c.example || d.closed != c.closed {
			t.Errorf("%s: deferred reads %q %q, compiled %q %q", spec.Name, d.summary, d.example, c.summary, c.example)
		}
		for _, args := range []any{map[string]any{}, map[string]any{"path": 12, "zzz": true}} {
			de, ce := d.validate(args), c.validate(args)
			if (de == nil) != (ce == nil) || (de != nil && de.Error() != ce.Error()) {
				t.Errorf("%s: validate(%v): deferred %v, compiled %v", spec.Name, args, de, ce)
			}
		}
	}
	bad := &SchemaCache{}
	if err := bad.Defer(specTool{Spec{Name: "t", Description: "x", Risk: RiskRead, Schema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"nope"}}}`)}}); err != nil {
		t.Fatalf("deferring reads only what a registry needs at once: %v", err)
	}
	s, _ := bad.compile("t", json.RawMessage(`{"type":"object","properties":{"a":{"type":"nope"}}}`))
	if err := s.validate(map[string]any{"a": 1}); err == nil || !strings.Contains(err.Error(), "compile schema") {
		t.Errorf("a deferred schema that does not compile: validate = %v", err)
	}
}
