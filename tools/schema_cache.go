package tools

import (
	"encoding/json"
	"fmt"
	"sync"
)

// SchemaCache shares compiled argument schemas between registries. Compiling a schema is most
// of what building a registry costs, and a compiled schema is read-only, so registries built
// with the same cache (a Node builds one per session) compile each tool's schema once and then
// share it. Entries are keyed by tool name and the exact schema bytes: a tool whose schema
// changes is compiled again. Schemas that fail to compile are not kept.
//
// The zero value is ready to use; a SchemaCache is safe for concurrent use and must not be
// copied after first use. It holds one entry per distinct (name, schema) pair it has seen and
// never drops any, so it suits a fixed set of tools, not schemas generated per call.
type SchemaCache struct {
	mu     sync.RWMutex
	byName map[string]map[string]*argsSchema // tool name -> schema bytes -> compiled
}

// compile returns the compiled schema of tool name, compiling it on a miss. A nil cache
// compiles every time.
func (c *SchemaCache) compile(name string, schema json.RawMessage) (*argsSchema, error) {
	if c == nil {
		return compileArgsSchema(name, schema)
	}
	c.mu.RLock()
	s, ok := c.byName[name][string(schema)] // the conversion does not allocate
	c.mu.RUnlock()
	if ok {
		return s, nil
	}
	// Compile outside the lock: two sessions missing at once both compile, and the first to
	// store wins, so every registry sees the same schema.
	s, err := compileArgsSchema(name, schema)
	if err != nil {
		return nil, err
	}
	return c.keep(name, schema, s), nil
}

// Defer reads the schemas of ts into the cache with their validators left to build on each
// one's first validation: what a registry needs of them at once (properties, required, the
// summary) is read now, the rest only for a tool that is called, so a Node starting does not
// build validators for tools none of its sessions calls. Only for schemas known to compile (the
// built-in tools', checked by their tests): a schema that turned out not to would fail its calls
// rather than the registry's construction.
func (c *SchemaCache) Defer(ts ...Tool) error {
	for _, t := range ts {
		spec := t.Spec()
		s, err := readArgsSchema(spec.Schema, false)
		if err != nil {
			return fmt.Errorf("read the schema of %s: %w", spec.Name, err)
		}
		c.keep(spec.Name, spec.Schema, s)
	}
	return nil
}

// keep stores s as tool name's schema unless one is stored already, and returns the stored one.
func (c *SchemaCache) keep(name string, schema json.RawMessage, s *argsSchema) *argsSchema {
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev, ok := c.byName[name][string(schema)]; ok {
		return prev
	}
	if c.byName == nil {
		c.byName = map[string]map[string]*argsSchema{}
	}
	if c.byName[name] == nil {
		c.byName[name] = map[string]*argsSchema{}
	}
	c.byName[name][string(schema)] = s
	return s
}
