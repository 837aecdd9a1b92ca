package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/dgraph-io/badger/v4"
)

// What the OpenAI-compatible wire learned (llm.WireMemory):
//
//	st/wire/reject/<endpoint> NUL <model>  the optional request fields the endpoint refuses
//	st/wire/quirks/<model>                 how often each wire quirk fired for the model
const (
	wireRejectPrefix = "st/wire/reject/"
	wireQuirksPrefix = "st/wire/quirks/"
)

func wireRejectKey(endpoint, model string) []byte {
	return []byte(wireRejectPrefix + endpoint + "\x00" + model)
}

func wireQuirksKey(model string) []byte { return []byte(wireQuirksPrefix + model) }

// WireRejects returns the optional fields endpoint is known to refuse for model.
func (s *Store) WireRejects(endpoint, model string) ([]string, error) {
	var fields []string
	err := s.view(func(txn *badger.Txn) error {
		return getJSON(txn, wireRejectKey(endpoint, model), &fields)
	})
	if err != nil {
		return nil, fmt.Errorf("read the fields %s refuses: %w", endpoint, err)
	}
	return fields, nil
}

// AddWireReject records that endpoint refuses field for model.
func (s *Store) AddWireReject(endpoint, model, field string) error {
	if strings.ContainsRune(endpoint+model, 0) || endpoint == "" || model == "" {
		return fmt.Errorf("remember a refused field: endpoint %q or model %q is empty or has NUL", endpoint, model)
	}
	err := s.update(func(txn *badger.Txn) error {
		var fields []string
		if err := getJSON(txn, wireRejectKey(endpoint, model), &fields); err != nil {
			return err
		}
		if slices.Contains(fields, field) {
			return nil
		}
		return setJSON(txn, wireRejectKey(endpoint, model), append(fields, field))
	})
	if err != nil {
		return fmt.Errorf("remember that %s refuses %s: %w", endpoint, field, err)
	}
	return nil
}

// AddWireQuirks counts one more firing of each quirk for model.
func (s *Store) AddWireQuirks(model string, quirks []string) error {
	if model == "" || strings.ContainsRune(model, 0) {
		return fmt.Errorf("count wire quirks: model name %q is empty or has NUL", model)
	}
	err := s.update(func(txn *badger.Txn) error {
		counts := map[string]int{}
		if err := getJSON(txn, wireQuirksKey(model), &counts); err != nil {
			return err
		}
		for _, q := range quirks {
			counts[q]++
		}
		return setJSON(txn, wireQuirksKey(model), counts)
	})
	if err != nil {
		return fmt.Errorf("count wire quirks of %s: %w", model, err)
	}
	return nil
}

// wireQuirks returns every model's quirk counters.
func (s *Store) wireQuirks(txn *badger.Txn) (map[string]map[string]int, error) {
	out := map[string]map[string]int{}
	it := txn.NewIterator(badger.IteratorOptions{PrefetchValues: true, Prefix: []byte(wireQuirksPrefix)})
	defer it.Close()
	for it.Rewind(); it.Valid(); it.Next() {
		counts := map[string]int{}
		if err := it.Item().Value(func(b []byte) error { return json.Unmarshal(b, &counts) }); err != nil {
			return nil, fmt.Errorf("decode %s: %w", it.Item().Key(), err)
		}
		out[strings.TrimPrefix(string(it.Item().Key()), wireQuirksPrefix)] = counts
	}
	return out, nil
}

// getJSON decodes the value at key into v; a missing key leaves v as it is.
func getJSON(txn *badger.Txn, key []byte, v any) error {
	item, err := txn.Get(key)
	switch {
	case errors.Is(err, badger.ErrKeyNotFound):
		return nil
	case err != nil:
		return err
	}
	return item.Value(func(b []byte) error {
		if err := json.Unmarshal(b, v); err != nil {
			return fmt.Errorf("decode %s: %w", key, err)
		}
		return nil
	})
}

func setJSON(txn *badger.Txn, key []byte, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return txn.Set(key, b)
}
