package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"sort"
	"strings"

	"github.com/dgraph-io/badger/v4"
)

// repairsPrefix holds the project's per-model repair counters: st/repairs/<model>.
const repairsPrefix = "st/repairs/"

func repairsKey(model string) []byte { return []byte(repairsPrefix + model) }

// RepairStats counts, for one model, the tool calls it made and what the harness repaired in
// them (by tools.RepairKind). Repaired counts calls with at least one repair.
type RepairStats struct {
	Model    string         `json:"model"`
	Calls    int            `json:"calls"`
	Repaired int            `json:"repaired"`
	ByKind   map[string]int `json:"by_kind,omitempty"`
	// Wire counts the replies that needed each leniency of the OpenAI-compatible wire (by
	// quirk name, see llm/openai): what the server bent rather than what the model did.
	Wire map[string]int `json:"wire,omitempty"`
}

// Empty says nothing was counted.
func (r RepairStats) Empty() bool {
	return r.Calls == 0 && r.Repaired == 0 && len(r.ByKind) == 0 && len(r.Wire) == 0
}

// AddRepairs adds d to the stored counters of d.Model, in one transaction.
func (s *Store) AddRepairs(d RepairStats) error {
	if err := checkRepairModel(d); err != nil {
		return fmt.Errorf("add repair counters: %w", err)
	}
	s.repairsMu.Lock()
	defer s.repairsMu.Unlock()
	var sum RepairStats
	err := s.update(func(txn *badger.Txn) (err error) {
		sum, err = s.addRepairs(txn, d)
		return err
	})
	if err != nil {
		return fmt.Errorf("add repair counters of %s: %w", d.Model, err)
	}
	s.repairsCommitted(sum)
	return nil
}

func checkRepairModel(d RepairStats) error {
	if d.Model == "" || strings.ContainsRune(d.Model, 0) {
		return fmt.Errorf("model name %q is empty or has NUL", d.Model)
	}
	return nil
}

// addRepairs writes the counters of d.Model plus d within txn and returns them; once txn
// commits, the caller hands them to repairsCommitted. The caller holds repairsMu. The stored
// counters are read from the store only the first time: a session adds to them at every
// turn, and reading and decoding them each time cost more than the rest of the write.
func (s *Store) addRepairs(txn *badger.Txn, d RepairStats) (RepairStats, error) {
	cur, known := s.repairs[d.Model]
	if !known {
		cur = RepairStats{Model: d.Model}
		item, err := txn.Get(repairsKey(d.Model))
		switch {
		case errors.Is(err, badger.ErrKeyNotFound):
		case err != nil:
			return RepairStats{}, err
		default:
			if err := item.Value(func(b []byte) error { return json.Unmarshal(b, &cur) }); err != nil {
				return RepairStats{}, fmt.Errorf("decode: %w", err)
			}
		}
	}
	sum := RepairStats{Model: d.Model, Calls: cur.Calls + d.Calls, Repaired: cur.Repaired + d.Repaired, ByKind: maps.Clone(cur.ByKind), Wire: cur.Wire}
	for k, n := range d.ByKind {
		if sum.ByKind == nil {
			sum.ByKind = map[string]int{}
		}
		sum.ByKind[k] += n
	}
	b, err := json.Marshal(sum)
	if err != nil {
		return RepairStats{}, err
	}
	return sum, txn.Set(repairsKey(d.Model), b)
}

// repairsCommitted keeps counters a transaction committed as the stored ones. The caller holds
// repairsMu.
func (s *Store) repairsCommitted(sum RepairStats) {
	if s.repairs == nil {
		s.repairs = map[string]RepairStats{}
	}
	s.repairs[sum.Model] = sum
}

// Repairs returns the repair counters of every model of the project, by model name, with the
// wire quirk counters of each (a model with only quirks has an entry too).
func (s *Store) Repairs() ([]RepairStats, error) {
	var out []RepairStats
	err := s.view(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{PrefetchValues: true, Prefix: []byte(repairsPrefix)})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			var r RepairStats
			if err := it.Item().Value(func(b []byte) error { return json.Unmarshal(b, &r) }); err != nil {
				return fmt.Errorf("decode %s: %w", it.Item().Key(), err)
			}
			out = append(out, r)
		}
		wire, err := s.wireQuirks(txn)
		if err != nil {
			return err
		}
		for i := range out {
			out[i].Wire = wire[out[i].Model]
			delete(wire, out[i].Model)
		}
		for model, counts := range wire {
			out = append(out, RepairStats{Model: model, Wire: counts})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read repair counters: %w", err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Model < out[j].Model })
	return out, nil
}
