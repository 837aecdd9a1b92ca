package store

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/dgraph-io/badger/v4"
)

// refScheme prefixes artifact references: "sha256:<hex>".
const refScheme = "sha256:"

// PutArtifact stores data under its SHA-256 and returns its reference "sha256:<hex>". Storing
// the same bytes again writes nothing new. Data larger than the store's value-log file
// (16 MiB) is refused.
func (s *Store) PutArtifact(data []byte) (string, error) {
	sum := sha256.Sum256(data)
	hexSum := hex.EncodeToString(sum[:])
	ref := refScheme + hexSum
	key := artifactKey(hexSum)
	err := s.update(func(txn *badger.Txn) error {
		_, err := txn.Get(key)
		if err == nil {
			return nil // content-addressed: already stored, identical by construction
		}
		if !errors.Is(err, badger.ErrKeyNotFound) {
			return err
		}
		return txn.Set(key, data)
	})
	if errors.Is(err, badger.ErrConflict) {
		err = nil // a concurrent writer stored the same bytes under the same key
	}
	if err != nil {
		return "", fmt.Errorf("store artifact of %d bytes: %w", len(data), err)
	}
	return ref, nil
}

// Artifact returns the bytes stored under ref ("sha256:<hex>"); the error wraps ErrNotFound if
// there are none.
func (s *Store) Artifact(ref string) ([]byte, error) {
	hexSum, ok := strings.CutPrefix(ref, refScheme)
	if !ok || len(hexSum) != sha256.Size*2 {
		return nil, fmt.Errorf("artifact ref %q: want sha256:<64 hex digits>", ref)
	}
	if _, err := hex.DecodeString(hexSum); err != nil {
		return nil, fmt.Errorf("artifact ref %q: %w", ref, err)
	}
	var data []byte
	err := s.view(func(txn *badger.Txn) error {
		item, err := txn.Get(artifactKey(hexSum))
		if errors.Is(err, badger.ErrKeyNotFound) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		data, err = item.ValueCopy(nil)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("artifact %s: %w", ref, err)
	}
	return data, nil
}

// ArtifactRefSchemes are the ways an artifact is named in text: its reference ("sha256:<hex>")
// and its key ("a/<hex>"), which a model may have copied from an older result.
func ArtifactRefSchemes() []string { return []string{refScheme, artifactPrefix} }
