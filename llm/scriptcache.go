package llm

import (
	"fmt"
	"os"
	"sync"
	"time"
)

// ScriptCache keeps parsed scripts by path and parses a file again only when its size or
// modification time changed. A Node opens a provider for every session it starts, and a script
// whose parent spawns n agents is O(n) long: parsed per child, n agents cost O(n²)
// (bench/workers). A Script is never changed once parsed, so providers share it; each provider
// keeps its own failure counts. The zero value is ready; one cache serves many goroutines.
type ScriptCache struct {
	mu     sync.Mutex
	byPath map[string]cachedScript
}

type cachedScript struct {
	size   int64
	mod    time.Time
	script *Script
}

// Load returns the script at path, parsed once per version of the file.
func (c *ScriptCache) Load(path string) (*Script, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("read script: %w", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.byPath[path]; ok && s.size == fi.Size() && s.mod.Equal(fi.ModTime()) {
		return s.script, nil
	}
	s, err := LoadScript(path)
	if err != nil {
		return nil, err
	}
	if c.byPath == nil {
		c.byPath = map[string]cachedScript{}
	}
	c.byPath[path] = cachedScript{size: fi.Size(), mod: fi.ModTime(), script: s}
	return s, nil
}
