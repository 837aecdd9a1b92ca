package tools

import (
	"encoding/json"
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
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev, ok := c.byName[name][string(schema)]; ok {
		return prev, nil
	}
	if c.byName == nil {
		c.byName = map[string]map[string]*argsSchema{}
	}
	if c.byName[name] == nil {
		c.byName[name] = map[string]*argsSchema{}
	}
	c.byName[name][string(schema)] = s
	return s, nil
}
