package llm

import "sync/atomic"

// MemoryRef is a WireMemory whose store is set later: a node's provider factory is built
// before the node opens its store. Until Set, it remembers nothing.
type MemoryRef struct {
	target atomic.Pointer[WireMemory]
}

// Set points the reference at m; a nil *MemoryRef ignores it.
func (r *MemoryRef) Set(m WireMemory) {
	if r != nil && m != nil {
		r.target.Store(&m)
	}
}

func (r *MemoryRef) get() WireMemory {
	if p := r.target.Load(); p != nil {
		return *p
	}
	return nil
}

func (r *MemoryRef) WireRejects(endpoint, model string) ([]string, error) {
	if m := r.get(); m != nil {
		return m.WireRejects(endpoint, model)
	}
	return nil, nil
}

func (r *MemoryRef) AddWireReject(endpoint, model, field string) error {
	if m := r.get(); m != nil {
		return m.AddWireReject(endpoint, model, field)
	}
	return nil
}

func (r *MemoryRef) AddWireQuirks(model string, quirks []string) error {
	if m := r.get(); m != nil {
		return m.AddWireQuirks(model, quirks)
	}
	return nil
}
